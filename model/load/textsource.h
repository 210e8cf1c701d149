#pragma once
// A file's text read in pieces: a plain file as it is, a gzip file (by its
// magic bytes, not its name) inflated as it is read, its members one after
// another; or bytes already in memory. A reader that needs only a window
// of the text at a time (the Kineto parser) then never holds a whole
// decompressed copy: a 1.5 GB trace costs a few MiB of text in flight.
#include <QFile>
#include <QString>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

namespace rankscope {

class TextSource {
public:
    // The file's text; check failed() for a file that cannot be opened.
    explicit TextSource(const QString &path);
    // Bytes in memory (not copied: they must outlive the source).
    explicit TextSource(std::string_view bytes);
    ~TextSource();
    TextSource(const TextSource &) = delete;
    TextSource &operator=(const TextSource &) = delete;

    // Up to `capacity` next bytes of the text into `to`; fewer only at the
    // end or on an error; 0 at the end (check failed()).
    std::size_t read(char *to, std::size_t capacity);
    bool atEnd() const { return m_atEnd; }
    bool failed() const { return !m_error.isEmpty(); }
    // What went wrong, naming the compressed byte for gzip input.
    const QString &error() const { return m_error; }
    bool isGzip() const { return m_gzip; }
    // How much of the file is read, 0 to 1 (of its compressed bytes for
    // gzip); safe to ask from another thread than the reader's.
    double fractionRead() const;

private:
    std::size_t inflateInto(char *to, std::size_t capacity);
    bool fail(const QString &error);

    void noteRead();

    QFile m_file;
    qint64 m_fileSize = 0;
    std::atomic<double> m_fractionRead{0.0};
    std::string_view m_memory;
    bool m_fromMemory = false;
    bool m_gzip = false;
    bool m_atEnd = false;
    QString m_error;
    struct Inflater;
    std::unique_ptr<Inflater> m_inflater;
};

} // namespace rankscope
