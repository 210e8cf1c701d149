#pragma once
// The bad-input corpus: files that arrive truncated, half-exported,
// hand-edited or simply foreign. Small ones are committed in
// tests/data/bad/; the large ones and the mutated Nsight Systems exports are
// written at test time from the real fixtures, so the repository does not
// carry 30 MB of broken copies.
//
// Every input names what must happen when it is opened: a clear error, or a
// report whose diagnostics say what was wrong. Never a crash or a hang.
#include <QByteArray>
#include <QString>
#include <vector>

namespace rankscope::test {

struct BadInput {
    enum class Outcome {
        Error,         // the load fails; the error mentions `mention`
        Report,        // the load succeeds; a diagnostic mentions `mention`
        ErrorOrReport, // either (a truncated file may still hold every page read)
    };
    QString path;
    Outcome outcome = Outcome::Error;
    QString mention; // case-insensitive substring; empty: any clear message

    QString name() const;
};

// SQL that makes an export's StringIds.value a generated column whose
// every read builds and scans 60 MB (0.9 s a row, minutes for the table):
// generated_column.sqlite.
QByteArray generatedStringIdsSql();

// The export deep_callchain.sqlite starts from (with CPU samples), and the
// SQL that gives its first sample a callchain `depth` frames deep of
// distinct `nameLength`-character function names (outermost frame 0).
QString deepCallchainSource();
QByteArray deepCallchainSql(int depth = 1024, int nameLength = 1000);

// Copies the committed inputs into `outDir` and writes the generated ones
// there. `nsysExport` and `kinetoTrace` are real, valid traces that the
// mutations start from. Returns every input; empty if `outDir` is unusable.
std::vector<BadInput> buildBadCorpus(const QString &outDir, const QString &committedDir, const QString &nsysExport, const QString &kinetoTrace);

} // namespace rankscope::test
