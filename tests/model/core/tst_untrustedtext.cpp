// Names from traces are data (core/untrustedtext.h): quoted for a shell,
// shown rather than acted on by a terminal, text rather than a formula to a
// spreadsheet, literal in Markdown. The shell case runs the quoted words
// through /bin/sh; the CSV case goes through ResultTable as the CLI writes it.
#include "core/untrustedtext.h"
#include "session/session.h"
#include "stats/diagnosis/diagnosis.h"
#include "stats/resulttable.h"

#include <QtTest>

using namespace rankscope;

class TestUntrustedText : public QObject {
    Q_OBJECT

private slots:
    void shellWordsAreOneWordEach_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("command substitution") << QStringLiteral("run$(touch PWNED).nsys-rep");
        QTest::newRow("backquotes and a semicolon") << QStringLiteral("a`touch PWNED`;touch PWNED.nsys-rep");
        QTest::newRow("a quote inside") << QStringLiteral("it's'$(touch PWNED)'.sqlite");
        QTest::newRow("spaces and a newline") << QStringLiteral("my run\ntouch PWNED.sqlite");
        QTest::newRow("a leading dash") << QStringLiteral("-rf");
        QTest::newRow("plain") << QStringLiteral("rank0/run_1.sqlite");
    }

    void shellWordsAreOneWordEach()
    {
        QFETCH(QString, name);
        QTemporaryDir dir;
        QProcess sh;
        sh.setWorkingDirectory(dir.path());
        sh.start(QStringLiteral("/bin/sh"), {QStringLiteral("-c"), QStringLiteral("printf '%s|' ") + shellQuoted(name)});
        QVERIFY(sh.waitForFinished());
        QCOMPARE(QString::fromUtf8(sh.readAllStandardOutput()), name + QLatin1Char('|')); // one word, as it is
        QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("PWNED"))));
        if (name == QLatin1String("rank0/run_1.sqlite"))
            QCOMPARE(shellQuoted(name), name); // nothing to quote
    }

    void terminalsSeeControlsAsText()
    {
        // OSC 52 sets the clipboard; CSI colours; BEL; a C1 CSI; a
        // right-to-left override that reverses what follows.
        const QString name = QStringLiteral("k\x1b]52;c;cHduZWQ=\x07\x1b[31mred\r\b") + QChar(0x9b) + QChar(0x202e) + QStringLiteral("txt.exe");
        const QString shown = terminalSafe(name);
        QCOMPARE(shown, QStringLiteral("k\\x1B]52;c;cHduZWQ=\\x07\\x1B[31mred\\x0D\\x08\\x9B\\u202Etxt.exe"));
        for (const QChar c : shown)
            QVERIFY(c.unicode() >= 0x20 && c.unicode() != 0x7f);
        QCOMPARE(terminalSafe(QStringLiteral("a\tb\nc")), QStringLiteral("a\tb\nc"));
        QCOMPARE(terminalSafe(QStringLiteral("a\nb"), false), QStringLiteral("a\\x0Ab"));
        QCOMPARE(terminalSafe(QStringLiteral("Ünïcödé 名前")), QStringLiteral("Ünïcödé 名前"));
        QVERIFY(!needsTerminalEscaping(QStringLiteral("aten::mm")));
    }

    void spreadsheetsSeeFormulasAsText()
    {
        QCOMPARE(spreadsheetSafe(QStringLiteral("=HYPERLINK(\"http://x\",\"y\")")), QStringLiteral("'=HYPERLINK(\"http://x\",\"y\")"));
        for (const char *formula : {"+1+1", "-2+3", "@SUM(A1)", "\t=1", "\r=1"})
            QCOMPARE(spreadsheetSafe(QString::fromLatin1(formula)), QLatin1Char('\'') + QString::fromLatin1(formula));
        QCOMPARE(spreadsheetSafe(QStringLiteral("ncclKernel_AllReduce")), QStringLiteral("ncclKernel_AllReduce"));

        ResultTable table;
        table.headers = {QStringLiteral("Total Time (ns)"), QStringLiteral("Name")};
        table.addRow({Cell::ofInteger(-5), Cell::ofText(QStringLiteral("=cmd|' /C calc'!A0"))});
        table.addRow({Cell::ofDecimal(-1.5, 1), Cell::ofText(QStringLiteral("line\nbreak"))});
        // By default a line break in a name cannot fake a row, in a
        // spreadsheet or on a terminal: it is written as \x0A.
        QCOMPARE(table.toCsv(), QStringLiteral("Total Time (ns),Name\n-5,'=cmd|' /C calc'!A0\n-1.5,line\\x0Abreak\n"));
        QCOMPARE(table.toCsv(CsvCells::Raw), QStringLiteral("Total Time (ns),Name\n-5,=cmd|' /C calc'!A0\n-1.5,\"line\nbreak\"\n"));
        // The aligned table keeps one line per row.
        QCOMPARE(table.toText().count(QLatin1Char('\n')), 4);
        QVERIFY(table.toText().contains(QLatin1String("line\\x0Abreak")));
    }

    void markdownSeesNamesAsText()
    {
        const QString name = QStringLiteral("k\n# Owned\n![x](http://evil.example/x.png)<img src=x>*bold* [link](javascript:1) | a | `code`");
        const QString md = markdownText(name);
        QVERIFY(!md.contains(QLatin1Char('\n')));
        QVERIFY(!md.contains(QLatin1Char('<')) && !md.contains(QLatin1Char('>')));
        QVERIFY(md.contains(QLatin1String("\\#")));
        QVERIFY(md.contains(QLatin1String("\\!\\[x\\](http://evil.example/x.png)")));
        QVERIFY(md.contains(QLatin1String("&lt;img src=x&gt;")));
        QVERIFY(md.contains(QLatin1String("\\*bold\\*")));
        QVERIFY(md.contains(QLatin1String("\\`code\\`")));
        QCOMPARE(markdownText(QStringLiteral("- item")), QStringLiteral("\\- item"));
        QCOMPARE(markdownText(QStringLiteral("12. item")), QStringLiteral("12\\. item"));
        QCOMPARE(markdownText(QStringLiteral("took 3.2 ms (rank 1)")), QStringLiteral("took 3.2 ms (rank 1)"));
    }

    // The diagnosis report: names in the evidence and the instances cannot
    // add a heading, an image or HTML.
    void theDiagnosisReportQuotesNames()
    {
        Session session;
        stats::Diagnosis d;
        stats::Finding f;
        f.id = QStringLiteral("test");
        f.title = QStringLiteral("Kernel dominates");
        f.evidence = QStringLiteral("kernel x\n\n# Injected heading\n![](http://evil.example/t.png)<script>alert(1)</script> takes 90 %");
        f.advice = QStringLiteral("Look at it.");
        f.ranks = QStringLiteral("all ranks");
        d.findings.push_back(f);
        d.notes << QStringLiteral("note\n## also injected");
        const QString md = stats::findingsMarkdown(session, d);
        const QStringList lines = md.split(QLatin1Char('\n'));
        QCOMPARE(lines.filter(QRegularExpression(QStringLiteral("^#"))).size(), 2); // "# Diagnosis" and the finding's own
        QVERIFY(!md.contains(QLatin1String("<script>")));
        QVERIFY(!md.contains(QLatin1String("![](")));
    }
};

QTEST_GUILESS_MAIN(TestUntrustedText)
#include "tst_untrustedtext.moc"
