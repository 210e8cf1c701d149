// The string table: one id per distinct text, views that stay valid while
// it grows, and a few bytes per string beyond its text.
#include "core/stringtable.h"

#include <QtTest>

#include <string>

using namespace rankscope;

class TestStringTable : public QObject {
    Q_OBJECT

private slots:
    void oneIdPerText()
    {
        StringTable t;
        QCOMPARE(t.intern(""), StringTable::kEmpty);
        const StringId a = t.intern("aten::linear, seq = 1, op_id = 2");
        const StringId b = t.intern("aten::mm");
        QVERIFY(a != b && a != StringTable::kEmpty);
        QCOMPARE(t.intern(std::string("aten::linear, seq = 1, op_id = 2")), a);
        QCOMPARE(t.view(a), std::string_view("aten::linear, seq = 1, op_id = 2"));
        QCOMPARE(t.string(b), QStringLiteral("aten::mm"));
        QCOMPARE(t.size(), std::size_t(3));
        QCOMPARE(t.view(12345), std::string_view()); // unknown ids read empty
        // Texts differing only past a NUL or in length are distinct.
        QVERIFY(t.intern(std::string_view("a\0b", 3)) != t.intern("a"));
    }

    void viewsSurviveGrowthAndLongTexts()
    {
        StringTable t;
        const StringId first = t.intern("first");
        const char *firstData = t.view(first).data();
        const std::string huge(3 << 20, 'x'); // larger than any block
        const StringId hugeId = t.intern(huge);
        std::vector<StringId> ids;
        for (int i = 0; i < 200000; ++i)
            ids.push_back(t.intern("op_id = " + std::to_string(i)));
        QCOMPARE(static_cast<const void *>(t.view(first).data()), static_cast<const void *>(firstData));
        QCOMPARE(t.view(hugeId).size(), huge.size());
        QCOMPARE(t.view(hugeId).data()[huge.size()], '\0'); // a C string, as a std::string's data() is
        for (int i = 0; i < 200000; i += 997) {
            QCOMPARE(t.view(ids[std::size_t(i)]), std::string_view("op_id = " + std::to_string(i)));
            QCOMPARE(t.intern("op_id = " + std::to_string(i)), ids[std::size_t(i)]);
        }
        // Moved, the table keeps its texts where they were.
        StringTable moved = std::move(t);
        QCOMPARE(static_cast<const void *>(moved.view(first).data()), static_cast<const void *>(firstData));
    }

    void aFewBytesPerStringBeyondItsText()
    {
        StringTable t;
        std::size_t textBytes = 0;
        const int n = 400000; // an emit_nvtx trace: a distinct text per range
        for (int i = 0; i < n; ++i) {
            const std::string text =
                "aten::linear, seq = " + std::to_string(i) + ", op_id = " + std::to_string(3 * i) + ", sizes = [[32, 1024, 768]]";
            textBytes += text.size();
            t.intern(text);
        }
        const double overhead = double(t.memoryBytes() - textBytes) / n;
        QVERIFY2(overhead < 40, qPrintable(QStringLiteral("%1 B per string beyond its text").arg(overhead)));
        // A loaded report lets the lookup go: its NUL and 8 B of address,
        // and the blocks' slack.
        t.releaseLookup();
        const double loaded = double(t.memoryBytes() - textBytes) / n;
        QVERIFY2(loaded < 12, qPrintable(QStringLiteral("%1 B per string beyond its text once loaded").arg(loaded)));
    }

    void lookupAfterRelease()
    {
        StringTable t;
        const StringId a = t.intern("aten::mm");
        const StringId b = t.intern(std::string_view("nul\0inside", 10));
        t.releaseLookup();
        QCOMPARE(t.find("aten::mm"), std::optional<StringId>(a));
        QCOMPARE(t.find(std::string_view("nul\0inside", 10)), std::optional<StringId>(b));
        QCOMPARE(t.find("nul"), std::nullopt);
        // Interning again builds the lookup anew: repeats keep their ids.
        QCOMPARE(t.intern("aten::mm"), a);
        const StringId c = t.intern("aten::addmm");
        QVERIFY(c != a && c != b);
        QCOMPARE(t.view(b), std::string_view("nul\0inside", 10));
        QCOMPARE(t.find("aten::addmm"), std::optional<StringId>(c));
    }
};

QTEST_GUILESS_MAIN(TestStringTable)
#include "tst_stringtable.moc"
