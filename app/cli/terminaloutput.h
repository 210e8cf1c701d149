#pragma once
// rankscope-cli's standard output and error. Names from traces reach them
// (kernel names, NVTX texts, file paths in error lines), and a terminal acts
// on control sequences in what it prints: an ESC ] 52 sequence in a kernel
// name sets the clipboard. So what goes to a terminal passes through
// terminalSafe (core/untrustedtext.h): standard error always (its lines
// are read by people), standard output when it is a terminal; piped or
// redirected, standard output is written byte for byte (a CSV to a file
// keeps the names as nsys writes them).
#include <QIODevice>

namespace rankscope::cli {

QIODevice &standardOutput();
QIODevice &standardError();

} // namespace rankscope::cli
