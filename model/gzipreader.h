#pragma once
// Reads a whole file, inflating it when it is gzip (by its magic bytes, not
// its name). Concatenated gzip members are read one after another.
#include <QString>
#include <string>

namespace rankscope {

// Appends the (decompressed) content to `out`, keeping `extraCapacity`
// spare bytes after it (parsers that read past the end need padding).
// On failure returns false and sets `error`, naming the byte offset.
bool readMaybeGzip(const QString &path, std::string &out, std::size_t extraCapacity, QString *error);
bool isGzipFile(const QString &path);

} // namespace rankscope
