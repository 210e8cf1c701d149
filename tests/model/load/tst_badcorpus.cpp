// Every input of the bad-input corpus (tests/support/badcorpus.h) gives a
// clear one-line error or a report whose diagnostics say what was wrong,
// within a bounded time, and leaves the file exactly as it was. Among good
// files, a bad one does not stop the others.
#include "badcorpus.h"
#include "load/traceloader.h"
#include "session/session.h"
#include "testdata.h"

#include <QtTest>

using namespace rankscope;
using namespace rankscope::test;

namespace {

// Generous: the slowest input loads in well under a second here, but the
// suite also runs under AddressSanitizer.
constexpr qint64 kLoadBudgetMs = 30000;

QString diagnosticsText(const Report &report)
{
    QStringList lines;
    for (const Diagnostic &d : report.diagnostics)
        lines << d.text;
    return lines.join(QLatin1String(" | "));
}

} // namespace

class TestBadCorpus : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    std::vector<BadInput> m_corpus;

    void addRows()
    {
        QTest::addColumn<int>("index");
        for (std::size_t i = 0; i < m_corpus.size(); ++i)
            QTest::newRow(qPrintable(m_corpus[i].name())) << int(i);
    }

private slots:
    void initTestCase()
    {
        configureProcessForUntrustedTraces(); // as the executables do
        QVERIFY(m_dir.isValid());
        m_corpus = buildBadCorpus(m_dir.filePath(QStringLiteral("bad")), badInputsDir(), slowFixture(),
                                  dataPath(QStringLiteral("kineto/ddp_gloo_rank0.pt.trace.json.gz")));
        // Every kind the corpus promises was written.
        QVERIFY2(m_corpus.size() >= 35, qPrintable(QString::number(m_corpus.size())));
    }

    void eachInputGivesItsOutcome_data() { addRows(); }
    void eachInputGivesItsOutcome()
    {
        QFETCH(int, index);
        const BadInput &input = m_corpus[std::size_t(index)];
        const QByteArray before = fileHash(input.path);
        QVERIFY(!before.isEmpty() || QFileInfo(input.path).size() == 0);

        QElapsedTimer timer;
        timer.start();
        const LoadResult r = loadTraceFile(input.path);
        QVERIFY2(timer.elapsed() < kLoadBudgetMs, qPrintable(QStringLiteral("%1 ms").arg(timer.elapsed())));

        if (r.ok()) {
            QVERIFY2(input.outcome != BadInput::Outcome::Error, qPrintable(QStringLiteral("loaded; expected an error")));
            const QString diagnostics = diagnosticsText(*r.report);
            QVERIFY2(diagnostics.contains(input.mention, Qt::CaseInsensitive), qPrintable(diagnostics));
        } else {
            QVERIFY2(input.outcome != BadInput::Outcome::Report, qPrintable(r.error));
            QVERIFY(!r.error.isEmpty());
            QVERIFY2(!r.error.contains(QLatin1Char('\n')), qPrintable(r.error));
            QVERIFY2(r.error.contains(input.mention, Qt::CaseInsensitive), qPrintable(r.error));
        }
        QCOMPARE(fileHash(input.path), before); // never written
    }

    void oneBadFileAmongFourOpensTheOtherThree_data() { addRows(); }
    void oneBadFileAmongFourOpensTheOtherThree()
    {
        QFETCH(int, index);
        const BadInput &input = m_corpus[std::size_t(index)];
        const Session s = Session::load({ddpFixture(0), ddpFixture(1), ddpFixture(2), input.path});
        QCOMPARE(s.ranks().size() + s.failures().size(), std::size_t(4));
        QVERIFY(s.ranks().size() >= 3);
        for (const LoadFailure &f : s.failures())
            QCOMPARE(f.path, input.path);
        if (input.outcome == BadInput::Outcome::Error)
            QCOMPARE(s.failures().size(), std::size_t(1));
    }
};

QTEST_GUILESS_MAIN(TestBadCorpus)
#include "tst_badcorpus.moc"
