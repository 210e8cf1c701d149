// ResultTable stores results by column (stats/resulttable.h): cells made
// on request read what was set, a report's strings are named not copied
// (and keep their report alive), the CSV written from the columns as UTF-8
// is the text toCsv() makes, and the summary order (stats/summarygroups.h)
// breaks ties by the labels' bytes; a table that computes its cells reads
// as the same table stored, and stores them when it is changed.
#include "core/report.h"
#include "stats/resulttable.h"
#include "stats/summarygroups.h"

#include <QBuffer>
#include <QtTest>

using namespace rankscope;

namespace {

QByteArray deviceCsv(const ResultTable &table, CsvCells cells)
{
    QBuffer buffer;
    buffer.open(QIODevice::WriteOnly);
    if (!table.writeCsv(buffer, cells))
        return "(write failed)";
    return buffer.data();
}

// Cells computed from a key: an integer, a decimal and a text with a prefix.
class SquareCells : public ComputedCells {
public:
    std::size_t columnCount() const override { return 3; }
    Value valueAt(std::uint32_t key, std::size_t column) const override
    {
        Value v;
        if (column == 0) {
            v.type = Cell::Type::Integer;
            v.integer = std::int64_t(key) * key;
        } else if (column == 1) {
            v.type = Cell::Type::Decimal;
            v.decimal = key / 4.0;
            v.decimals = 2;
        } else if (key % 3) { // every third row's text is empty
            v.type = Cell::Type::Text;
            v.text = {m_prefix, m_names[key % m_names.size()]};
        }
        return v;
    }

private:
    std::string m_prefix = "d:";
    std::vector<std::string> m_names = {"zero", "one", "zwei", "\xc3\xa9"};
};

// The table SquareCells computes for `keys`, stored cell by cell.
ResultTable storedSquares(const std::vector<std::uint32_t> &keys)
{
    ResultTable t;
    SquareCells cells;
    for (const std::uint32_t key : keys) {
        const std::size_t row = t.appendRow();
        t.setInteger(row, 0, cells.valueAt(key, 0).integer);
        t.setDecimal(row, 1, cells.valueAt(key, 1).decimal, 2);
        const ComputedCells::Value text = cells.valueAt(key, 2);
        if (text.type == Cell::Type::Text)
            t.setText(row, 2, QString::fromUtf8(std::string(text.text.first) + std::string(text.text.second)));
    }
    return t;
}

} // namespace

class TestResultTable : public QObject {
    Q_OBJECT

private slots:
    void cellsReadWhatWasSet()
    {
        ResultTable t;
        t.headers = {QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c"), QStringLiteral("d")};
        t.addRow({Cell::ofInteger(-7), Cell::ofDecimal(2.25, 1), Cell::ofPythonDecimal(2.25, 1), Cell::ofText(QStringLiteral("µs"))});
        t.addRow({Cell::ofInteger(std::numeric_limits<std::int64_t>::min())}); // the rest empty
        QCOMPARE(t.rowCount(), std::size_t(2));
        QCOMPARE(t.columnCount(), std::size_t(4));
        QCOMPARE(t.cell(0, 0).integer, std::int64_t(-7));
        QCOMPARE(t.cell(0, 1).display(), QStringLiteral("2.3")); // SQLite's round(): half away from zero
        QCOMPARE(t.cell(0, 2).display(), QStringLiteral("2.2")); // Python's: half to even
        QCOMPARE(t.cell(0, 3).text, QStringLiteral("µs"));
        QCOMPARE(t.cell(1, 0).integer, std::numeric_limits<std::int64_t>::min());
        QCOMPARE(t.cell(1, 3).type, Cell::Type::Empty);
        QCOMPARE(t.numberAt(0, 1), 2.25);
        QCOMPARE(t.integerAt(0, 3), std::int64_t(0));
    }

    void reportStringsAreNamedAndKeepTheirReport()
    {
        auto report = std::make_shared<Report>();
        const StringId name = report->strings.intern("aten::linear, op_id = 7");
        const StringId domain = report->strings.intern("NCCL");
        ResultTable t;
        t.setReportText(t.appendRow(), 0, *report, name, "NCCL:");
        t.setReportText(t.appendRow(), 0, *report, domain);
        const std::size_t bytesNamed = t.memoryBytes();
        std::weak_ptr<Report> watch = report;
        report.reset();
        QVERIFY(!watch.expired()); // the table holds it
        QCOMPARE(t.cell(0, 0).text, QStringLiteral("NCCL:aten::linear, op_id = 7"));
        QCOMPARE(t.cell(1, 0).text, QStringLiteral("NCCL"));
        QVERIFY(bytesNamed < 64); // two values and two format bytes (and capacity)
        t = ResultTable();
        QVERIFY(watch.expired());

        // A report no shared_ptr owns: its text is copied, and outlives it.
        ResultTable copied;
        {
            Report onStack;
            const StringId id = onStack.strings.intern("cudaMemcpyAsync");
            copied.setReportText(copied.appendRow(), 0, onStack, id, "x:");
        }
        QCOMPARE(copied.cell(0, 0).text, QStringLiteral("x:cudaMemcpyAsync"));
    }

    void csvFromColumnsIsToCsvsText()
    {
        auto report = std::make_shared<Report>();
        ResultTable t;
        t.headers = {QStringLiteral("Total, ns"), QStringLiteral("Avg"), QStringLiteral("Name"), QStringLiteral("Range")};
        const char *names[] = {"=HYPERLINK(\"x\")", "plain", "comma, inside", "quote \" inside", "line\nbreak", "-negative", "\xff\xfe not UTF-8",
                               "@at", "\ttab", "ünïcödé",
                               // what a terminal acts on: ESC ] 52, a C1 CSI, a right-to-left override, DEL
                               "k\x1b]52;c;cHduZWQ=\x07",
                               "c1 \xc2\x9b"
                               "2J",
                               "rtl \xe2\x80\xaetxt.exe", "del\x7f"};
        for (const char *n : names) {
            const std::size_t row = t.appendRow();
            t.setInteger(row, 0, -12345678901234);
            t.setDecimal(row, 1, 0.05, 1);
            t.setText(row, 2, QString::fromUtf8(n));
            t.setReportText(row, 3, *report, report->strings.intern(n), std::string_view(n).substr(0, 2));
        }
        t.addRow({}); // an empty row
        for (const CsvCells cells : {CsvCells::Safe, CsvCells::Raw}) {
            const QByteArray fromColumns = deviceCsv(t, cells);
            QCOMPARE(fromColumns, t.toCsv(cells).toUtf8());
        }
        QVERIFY(deviceCsv(t, CsvCells::Safe).contains("\"'=HYPERLINK(\"\"x\"\")\""));
        QVERIFY(deviceCsv(t, CsvCells::Raw).contains("\"=HYPERLINK(\"\"x\"\")\""));
        const QByteArray safe = deviceCsv(t, CsvCells::Safe);
        for (const char *control : {"\x1b", "\x07", "\xc2\x9b", "\xe2\x80\xae", "\x7f", "line\nbreak"})
            QVERIFY2(!safe.contains(control), control);
        for (const char *shown : {"k\\x1B]52;c;cHduZWQ=\\x07", "c1 \\x9B2J", "rtl \\u202Etxt.exe", "del\\x7F", "line\\x0Abreak"})
            QVERIFY2(safe.contains(shown), shown);
        QVERIFY(deviceCsv(t, CsvCells::Raw).contains("k\x1b]52;"));
    }

    void aTextLongerThanItsLengthFieldReadsWhole()
    {
        ResultTable t;
        const std::string longText(0xFFFFFF + 5, 'x');
        t.setText(t.appendRow(), 0, std::string_view(longText));
        t.setText(t.appendRow(), 0, std::string_view("after"));
        QCOMPARE(t.cell(0, 0).text.size(), qsizetype(longText.size()));
        QCOMPARE(t.cell(1, 0).text, QStringLiteral("after"));
    }

    void repeatedTextsAreStoredOnce()
    {
        ResultTable t;
        for (int i = 0; i < 100000; ++i)
            t.addRow({Cell::ofText(QStringLiteral("PushPop")), Cell::ofText(QStringLiteral("StartEnd"))});
        QVERIFY(t.memoryBytes() < 100000 * 2 * 9 * 2); // 9 B a cell (capacity slack aside), not the text
        QCOMPARE(t.cell(99999, 1).text, QStringLiteral("StartEnd"));

        // A critical path's rows name a few kernels of hundreds of bytes each.
        ResultTable kernels;
        QStringList names;
        for (int k = 0; k < 3; ++k)
            names << QStringLiteral("void at::native::vectorized_elementwise_kernel<4, at::native::AUnaryFunctor<float, float, float, "
                                    "at::native::binary_internal::MulFunctor<float> >, at::detail::Array<char*, 2> >(int, %1)")
                         .arg(k);
        for (int i = 0; i < 100000; ++i)
            kernels.addRow({Cell::ofText(names[i % 3])});
        QVERIFY(kernels.memoryBytes() < 100000 * 9 * 2);
        QCOMPARE(kernels.cell(99998, 0).text, names[2]);
        QCOMPARE(kernels.cell(3, 0).text, names[0]);
    }

    void summaryOrderBreaksTiesByLabelBytes()
    {
        auto report = std::make_shared<Report>();
        ResultTable t;
        struct In {
            std::int64_t total, count;
            const char *label;
        };
        const In rows[] = {{10, 1, "b"}, {30, 2, "z"}, {10, 1, "a"}, {10, 2, "a"}, {10, 1, "ab"}, {10, 1, "\xc3\xa9"}};
        for (const In &in : rows) {
            const std::size_t row = t.appendRow();
            t.setInteger(row, 0, in.total);
            t.setInteger(row, 1, in.count);
            t.setReportText(row, 2, *report, report->strings.intern(in.label));
        }
        stats::sortSummaryRows(t, 0, 1, 2);
        QStringList order;
        for (std::size_t r = 0; r < t.rowCount(); ++r)
            order << t.cell(r, 2).text;
        // Largest total first, then fewer instances, then by the label's bytes.
        QCOMPARE(order, (QStringList{QStringLiteral("z"), QStringLiteral("a"), QStringLiteral("ab"), QStringLiteral("b"), QStringLiteral("é"),
                                     QStringLiteral("a")}));
        QCOMPARE(t.integerAt(5, 1), std::int64_t(2));
        t.truncateRows(2);
        QCOMPARE(t.rowCount(), std::size_t(2));
        QCOMPARE(t.cell(1, 2).text, QStringLiteral("a"));
    }

    void summaryOrderHoldsForCountsPast32Bits()
    {
        // Counts past 2^32 (and one below zero, as a corrupt input might
        // give) sort as wide numbers, not as their low 32 bits.
        auto report = std::make_shared<Report>();
        ResultTable t;
        const std::int64_t big = std::int64_t(1) << 32;
        const std::int64_t counts[] = {big + 1, 1, big, -1};
        for (std::size_t i = 0; i < std::size(counts); ++i) {
            const std::size_t row = t.appendRow();
            t.setInteger(row, 0, 10);
            t.setInteger(row, 1, counts[i]);
            t.setReportText(row, 2, *report, report->strings.intern(std::to_string(i)));
        }
        stats::sortSummaryRows(t, 0, 1, 2);
        QList<std::int64_t> order;
        for (std::size_t r = 0; r < t.rowCount(); ++r)
            order << t.integerAt(r, 1);
        QCOMPARE(order, (QList<std::int64_t>{-1, 1, big, big + 1}));
    }

    void aComputedTableReadsAsItsStoredCells()
    {
        const std::vector<std::uint32_t> keys = {5, 1, 2, 7, 3, 4};
        ResultTable computed = ResultTable::computed(std::make_shared<SquareCells>(), keys);
        ResultTable stored = storedSquares(keys);
        QVERIFY(computed.isComputed());
        for (ResultTable *t : {&computed, &stored})
            t->headers = {QStringLiteral("n"), QStringLiteral("q"), QStringLiteral("Name"), QStringLiteral("Extra")};
        const std::size_t extra = 3; // a stored column after the computed ones
        for (std::size_t row = 0; row < keys.size(); ++row) {
            computed.setInteger(row, extra, std::int64_t(row));
            stored.setInteger(row, extra, std::int64_t(row));
        }
        QVERIFY(computed.isComputed());
        QCOMPARE(computed.columnCount(), stored.columnCount());
        QCOMPARE(computed.toCsv(), stored.toCsv());
        QCOMPARE(deviceCsv(computed, CsvCells::Raw), deviceCsv(stored, CsvCells::Raw));
        QCOMPARE(computed.toJson(), stored.toJson());
        QCOMPARE(computed.cell(3, 2).text, QStringLiteral("d:\u00e9"));
        QCOMPARE(computed.typeAt(4, 2), Cell::Type::Empty);
        QCOMPARE(computed.textAt(1, 2).second, std::string_view("one"));
        QCOMPARE(computed.numberAt(3, 1), 1.75);

        // Sorted and truncated, the keys move with the stored columns.
        for (ResultTable *t : {&computed, &stored}) {
            stats::sortSummaryRows(*t, 0, 3, 2);
            t->truncateRows(4);
        }
        QVERIFY(computed.isComputed());
        QCOMPARE(computed.integerAt(0, 0), std::int64_t(49));
        QCOMPARE(computed.toCsv(), stored.toCsv());

        // Written to, it stores its cells first, and reads the same after.
        const QString before = computed.toCsv();
        computed.setInteger(1, 0, -1);
        QVERIFY(!computed.isComputed());
        QCOMPARE(computed.integerAt(1, 0), std::int64_t(-1));
        computed.setInteger(1, 0, stored.integerAt(1, 0));
        QCOMPARE(computed.toCsv(), before);
        ResultTable appended = ResultTable::computed(std::make_shared<SquareCells>(), keys);
        appended.appendRow();
        QVERIFY(!appended.isComputed());
        QCOMPARE(appended.rowCount(), keys.size() + 1);
        QCOMPARE(appended.cell(3, 2).text, QStringLiteral("d:\u00e9"));
        QCOMPARE(appended.typeAt(keys.size(), 0), Cell::Type::Empty);
        // Without keys it is an empty table, as a stored one without rows.
        QCOMPARE(ResultTable::computed(std::make_shared<SquareCells>(), {}).columnCount(), std::size_t(0));
    }

    void bytesAndBack()
    {
        auto report = std::make_shared<Report>();
        ResultTable t;
        t.name = QStringLiteral("nvtx_sum");
        t.headers = {QStringLiteral("n"), QStringLiteral("Range")};
        t.notes = {QStringLiteral("a note")};
        t.addRow({Cell::ofInteger(3), Cell::ofDecimal(1.5, 2)});
        t.setReportText(0, 2, *report, report->strings.intern("range"), ":");
        QByteArray bytes;
        {
            QDataStream out(&bytes, QIODevice::WriteOnly);
            out << t;
        }
        ResultTable back;
        QDataStream in(bytes);
        in >> back;
        QCOMPARE(in.status(), QDataStream::Ok);
        QCOMPARE(back.name, t.name);
        QCOMPARE(back.notes, t.notes);
        QCOMPARE(back.toCsv(), t.toCsv());
        QCOMPARE(back.cell(0, 2).text, QStringLiteral(":range"));
    }
};

QTEST_GUILESS_MAIN(TestResultTable)
#include "tst_resulttable.moc"
