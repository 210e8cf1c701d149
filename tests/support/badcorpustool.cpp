// rankscope-badcorpus OUTDIR: writes the bad-input corpus and lists each
// file with what opening it must give.
#include "badcorpus.h"
#include "testdata.h"

#include <cstdio>

int main(int argc, char **argv)
{
    using namespace rankscope::test;
    if (argc != 2) {
        std::fprintf(stderr, "usage: rankscope-badcorpus OUTDIR\n");
        return 2;
    }
    const auto corpus = buildBadCorpus(QString::fromLocal8Bit(argv[1]), badInputsDir(), slowFixture(),
                                       dataPath(QStringLiteral("kineto/ddp_gloo_rank0.pt.trace.json.gz")));
    if (corpus.empty()) {
        std::fprintf(stderr, "rankscope-badcorpus: cannot write %s\n", argv[1]);
        return 1;
    }
    for (const BadInput &input : corpus) {
        const char *outcome = input.outcome == BadInput::Outcome::Error    ? "error"
                              : input.outcome == BadInput::Outcome::Report ? "report"
                                                                           : "error or report";
        std::printf("%s\t%s\t%s\n", qPrintable(input.name()), outcome, qPrintable(input.mention));
    }
    return 0;
}
