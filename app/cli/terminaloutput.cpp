#include "terminaloutput.h"

#include "core/untrustedtext.h"

#include <QStringDecoder>

#include <cerrno>
#include <unistd.h>

namespace rankscope::cli {

namespace {

class TerminalOutput final : public QIODevice {
public:
    TerminalOutput(int fd, bool escapeAlways) : m_fd(fd), m_escape(escapeAlways || ::isatty(fd) == 1)
    {
        QIODevice::open(QIODevice::WriteOnly | QIODevice::Unbuffered);
    }
    bool isSequential() const override { return true; }

protected:
    qint64 readData(char *, qint64) override { return -1; }
    qint64 writeData(const char *data, qint64 bytes) override
    {
        if (!m_escape)
            return writeAll(data, bytes) ? bytes : -1;
        // Decoded with state: a character split between two writes is
        // decoded whole with the second.
        const QByteArray shown = terminalSafe(m_decoder(QByteArrayView(data, bytes))).toUtf8();
        return writeAll(shown.constData(), shown.size()) ? bytes : -1;
    }

private:
    bool writeAll(const char *data, qint64 bytes) const
    {
        while (bytes > 0) {
            const ssize_t n = ::write(m_fd, data, std::size_t(bytes));
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                return false;
            data += n;
            bytes -= n;
        }
        return true;
    }

    int m_fd;
    bool m_escape;
    QStringDecoder m_decoder{QStringDecoder::Utf8};
};

} // namespace

QIODevice &standardOutput()
{
    static TerminalOutput device(STDOUT_FILENO, false);
    return device;
}

QIODevice &standardError()
{
    static TerminalOutput device(STDERR_FILENO, true);
    return device;
}

} // namespace rankscope::cli
