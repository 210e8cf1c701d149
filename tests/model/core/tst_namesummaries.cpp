// The groups an index cache stores per name (core/namesummaries.h) against
// a brute force: each group's identity, its values sorted, its sums, and the
// stored order (by kind and value, first seen first within). Enough
// distinct names that the groups' lookup table grows many times over.
#include "core/namesummaries.h"
#include "core/report.h"

#include <QtTest>

#include <cmath>
#include <map>
#include <random>
#include <tuple>

using namespace rankscope;

class TestNameSummaries : public QObject {
    Q_OBJECT

    // A group as the brute force keys it: kind, value, pid, NVTX type,
    // domain, name.
    using Key = std::tuple<int, int, std::uint32_t, int, StringId, StringId>;
    struct Expected {
        std::size_t firstSeen = 0;
        std::vector<std::int64_t> values;
    };

    static Report makeReport(std::mt19937_64 &random)
    {
        Report r;
        std::vector<StringId> names;
        for (int n = 0; n < 6000; ++n)
            names.push_back(r.strings.intern(QStringLiteral("range %1").arg(n).toStdString()));
        const StringId domain = r.strings.intern("mydomain");
        r.nvtx.push_back(NvtxRecord{}); // row 0: push/pop
        NvtxRecord startEnd;
        startEnd.eventType = NvtxEventType::StartEndRange;
        r.nvtx.push_back(startEnd); // row 1
        auto addTrack = [&](TrackKind kind, std::uint32_t pid, StringId trackDomain, std::size_t events, std::size_t distinct) {
            Track track;
            track.kind = kind;
            track.pid = pid;
            track.tid = pid + 1;
            track.domainName = trackDomain;
            TimeNs t = 1000;
            for (std::size_t i = 0; i < events; ++i) {
                const TimeNs duration = TimeNs(random() % 5000); // zero-length events too
                std::uint32_t payload = 0;
                if (kind == TrackKind::Nvtx) {
                    payload = std::uint32_t(random() % 3); // 2: no record (a plain push/pop range)
                    if (payload == 2)
                        payload = NvtxRecord::kNoRecord;
                } else if (kind == TrackKind::Memcpy) {
                    MemcpyRecord copy;
                    copy.bytes = random() % 4 == 0 ? 4096 : random() % (1u << 30);
                    payload = std::uint32_t(r.memcpys.size());
                    r.memcpys.push_back(copy);
                }
                track.slices.append(t, t + duration, names[random() % distinct], payload);
                t += duration + TimeNs(random() % 100);
            }
            track.slices.finalize();
            r.tracks.push_back(std::move(track));
        };
        // Kinds out of their stored order, two processes sharing names.
        addTrack(TrackKind::Kernel, 7, StringTable::kEmpty, 3000, 40);
        addTrack(TrackKind::Nvtx, 7, domain, 20000, names.size());
        addTrack(TrackKind::OsRuntime, 7, StringTable::kEmpty, 2000, 30);
        addTrack(TrackKind::Memcpy, 7, StringTable::kEmpty, 1500, 3);
        addTrack(TrackKind::Nvtx, 9, StringTable::kEmpty, 8000, 2500);
        addTrack(TrackKind::OsRuntime, 9, StringTable::kEmpty, 2000, 30);
        addTrack(TrackKind::Sync, 7, StringTable::kEmpty, 100, 2); // not summarised
        return r;
    }

private slots:
    void groupsAgainstBruteForce()
    {
        std::mt19937_64 random(58);
        const Report r = makeReport(random);
        std::map<Key, Expected> expected;
        std::size_t seen = 0;
        for (const Track &track : r.tracks) {
            if (!NameSummaries::summarizes(track.kind))
                continue;
            for (std::size_t i = 0; i < track.slices.size(); ++i) {
                const int type = track.kind == TrackKind::Nvtx ? r.nvtxRecord(track.slices.payload(i)).eventType : 0;
                auto add = [&](GroupedValue value, std::int64_t v) {
                    const Key key{int(track.kind),     int(value), track.pid, type, track.kind == TrackKind::Nvtx ? track.domainName : 0,
                                  track.slices.name(i)};
                    auto [it, added] = expected.try_emplace(key);
                    if (added)
                        it->second.firstSeen = seen++;
                    it->second.values.push_back(v);
                };
                add(GroupedValue::Duration, track.slices.duration(i));
                if (track.kind == TrackKind::Memcpy)
                    add(GroupedValue::Bytes, std::int64_t(r.memcpys[track.slices.payload(i)].bytes));
            }
        }
        // The stored order: by kind, then value, then first seen.
        std::vector<std::pair<Key, Expected *>> order;
        for (auto &[key, e] : expected)
            order.push_back({key, &e});
        std::sort(order.begin(), order.end(), [](const auto &a, const auto &b) {
            const auto &[ka, va, pa, ta, da, na] = a.first;
            const auto &[kb, vb, pb, tb, db, nb] = b.first;
            return std::tie(ka, va, a.second->firstSeen) < std::tie(kb, vb, b.second->firstSeen);
        });
        QVERIFY(order.size() > 10000); // the lookup table grew past its first sizes

        const NameSummaries s = summarizeByName(r);
        QVERIFY(s.present);
        QCOMPARE(s.groups.size(), order.size());
        std::uint64_t first = 0;
        for (std::size_t g = 0; g < order.size(); ++g) {
            const NameGroup &got = s.groups[g];
            const auto &[kind, value, pid, type, domain, name] = order[g].first;
            std::vector<std::int64_t> values = order[g].second->values;
            std::sort(values.begin(), values.end());
            QCOMPARE(int(got.kind), kind);
            QCOMPARE(int(got.value), value);
            QCOMPARE(got.pid, pid);
            QCOMPARE(int(got.nvtxEventType), type);
            QCOMPARE(got.domain, domain);
            QCOMPARE(got.name, name);
            QCOMPARE(got.first, first);
            QCOMPARE(got.count, std::uint64_t(values.size()));
            first += got.count;
            const std::span<const std::int64_t> stored = s.valuesOf(got);
            QVERIFY(std::equal(stored.begin(), stored.end(), values.begin(), values.end()));
            long double sum = 0;
            std::int64_t total = 0;
            for (const std::int64_t v : values) {
                sum += v;
                total += v;
            }
            QCOMPARE(got.total, total);
            const long double mean = sum / (long double)values.size();
            long double squares = 0;
            for (const std::int64_t v : values)
                squares += ((long double)v - mean) * ((long double)v - mean);
            QVERIFY(std::abs(got.squaredDeviations - double(squares)) <= 1e-9 * std::max(1.0, double(squares)));
        }
        QCOMPARE(s.values.size(), first);
        // groupsOf() finds each kind's block.
        QCOMPARE(s.groupsOf(TrackKind::Memcpy, GroupedValue::Bytes).size(), std::size_t(std::count_if(order.begin(), order.end(), [](const auto &o) {
                     return std::get<0>(o.first) == int(TrackKind::Memcpy) && std::get<1>(o.first) == int(GroupedValue::Bytes);
                 })));
    }

    void emptyReportHasNoGroups()
    {
        const Report r;
        const NameSummaries s = summarizeByName(r);
        QVERIFY(s.present);
        QVERIFY(s.groups.empty());
        QVERIFY(s.values.empty());
    }
};

QTEST_GUILESS_MAIN(TestNameSummaries)
#include "tst_namesummaries.moc"
