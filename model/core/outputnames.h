#pragma once
// Names of the files a run writes for its inputs (stats -o, the viewer's
// Export all). Inputs of one name from two folders (rank0.sqlite of two
// runs) must not write one file twice, and a long trace name must not make
// a name the file system refuses (255 bytes).
#include <QString>
#include <QStringList>

namespace rankscope {

// One stem per input path: its complete base name ("rank0" of
// "run/rank0.sqlite"), with "-" and 8 hex digits of a hash of the whole
// path added where two inputs share a base name, so every stem is unique.
QStringList uniqueStemsFor(const QStringList &paths);

// `fileName` (no folder) as it can be written: unchanged when its UTF-8
// takes at most kLongestFileName bytes; otherwise its stem cut short (on a
// character boundary) and "~" and 8 hex digits of a hash of the whole name
// added before the extension, so two long names stay two files.
QString fileNameThatFits(const QString &fileName);
// Leaves room under the file system's 255 bytes for the temporary name a
// writer uses until it commits (core/safefiles.h: AtomicFileWriter).
inline constexpr qsizetype kLongestFileName = 200;

// `path` with its last component made to fit (fileNameThatFits).
QString pathThatFits(const QString &path);

} // namespace rankscope
