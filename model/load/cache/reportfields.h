#pragma once
// The members of a report, in the order an index cache stores them: the one
// list both the writer and the reader walk (cachestreams.h), so the two
// cannot disagree. The side tables are the ones forEachSideTable lists
// (core/report.h). Adding a member to a stored type means adding it here and
// raising kIndexCacheFormatVersion.
#include "core/namesummaries.h"
#include "core/report.h"
#include "load/derivedtracks.h"

namespace rankscope {

struct ReportCacheAccess {
    template <class V, class R>
    static void report(V &v, R &r)
    {
        v(r.filePath);
        metadata(v, r.meta);
        strings(v, r.strings);
        v.list(r.processes, [&](auto &p) {
            v(p.pid);
            v(p.name);
        });
        v.list(r.threads, [&](auto &t) {
            v(t.tid);
            v(t.pid);
            v(t.name);
            v(t.priority);
        });
        v.list(r.gpus, [&](auto &g) {
            v(g.id);
            v(g.name);
            v(g.smCount);
            v(g.totalMemory);
            v(g.computeMajor);
            v(g.computeMinor);
            v(g.busLocation);
            v(g.uuid);
        });
        v.list(r.tracks, [&](auto &t) {
            v(t.kind);
            v(t.pid);
            v(t.tid);
            v(t.deviceId);
            v(t.streamId);
            v(t.contextId);
            v(t.domainId);
            v(t.domainName);
            sliceTrack(v, t.slices);
        });
        v.list(r.counters, [&](auto &c) { counterTrack(v, c); });
        v.list(r.diagnostics, [&](auto &d) {
            v(d.severity);
            v(d.timestamp);
            v(d.text);
        });
        forEachSideTable(r, [&](auto &table, std::initializer_list<TrackKind>) { v(table); });
        v(r.kernelConfigs);
        v(r.collectives);
        v(r.flows);
        v(r.apiByCorrelation);
        v(r.gpuByCorrelation);
        v(r.memcpyKindLabels);
        v(r.memoryKindLabels);
        v.list(r.gpuBusy, [&](auto &g) { busySummary(v, g); });
        v(r.communication.present);
        v(r.communication.kernels);
        v.list(r.communication.otherGpuBusy, [&](auto &g) { busySummary(v, g); });
        v(r.sampling.frames);
        v(r.sampling.chainFrames);
        v(r.sampling.chainStarts);
        v(r.sampling.samples);
        v(r.sampling.threads);
        v(r.sampling.backtraces);
        nameSummaries(v, r);
        timeSplits(v, r);
        hostBusy(v, r);
    }

    // Like the name summaries: built as the cache is written (a collapsed
    // process is then drawn from them, not from its threads' events).
    template <class V, class R>
    static void hostBusy(V &v, R &r)
    {
        if constexpr (V::kWriting) {
            if (r.hostBusy.empty()) {
                const std::vector<BusySummary> built = hostBusySummaries(r);
                v.list(built, [&](auto &g) { busySummary(v, g); });
                return;
            }
        }
        v.list(r.hostBusy, [&](auto &g) { busySummary(v, g); });
    }

    // Like the name summaries: built as the cache is written.
    template <class V, class R>
    static void timeSplits(V &v, R &r)
    {
        const auto fields = [&](auto &s) {
            v(s.pid);
            v(s.gpuOperations);
            v(s.span);
            v(s.busy);
            v(s.compute);
            v(s.communication);
            v(s.hiddenCommunication);
            v(s.steps);
            v(s.stepTotal);
            v(s.longestStep);
            for (auto &bytes : s.bytesByCopyKind)
                v(bytes);
        };
        if constexpr (V::kWriting) {
            if (r.timeSplits.empty()) {
                std::vector<GpuTimeSplit> built = builtInTimeSplits(r);
                v.list(built, fields);
                return;
            }
        }
        v.list(r.timeSplits, fields);
    }

    template <class V, class G>
    static void busySummary(V &v, G &g)
    {
        v(g.pid);
        v(g.deviceId);
        v(g.span);
        v(g.busy);
        sliceTrack(v, g.runs);
    }

    // A report parsed now has none: they are built as its cache is written.
    template <class V, class R>
    static void nameSummaries(V &v, R &r)
    {
        if constexpr (V::kWriting) {
            if (!r.byName.present) {
                const NameSummaries built = summarizeByName(r);
                v(built.present);
                v(built.groups);
                v(built.values);
                return;
            }
        }
        v(r.byName.present);
        v(r.byName.groups);
        v(r.byName.values);
    }

    template <class V, class M>
    static void metadata(V &v, M &m)
    {
        v(m.format);
        v(m.productVersion);
        v(m.schemaVersion);
        v(m.hostName);
        v(m.utcStartNs);
        v(m.analysisRange);
        v(m.environmentRank);
        v(m.mpiRankByPid);
        v(m.declaredRank);
        v(m.worldSize);
        v(m.distributedBackend);
        v.list(m.processGroups, [&](auto &g) {
            v(g.name);
            v(g.description);
            v(g.size);
            v(g.ranks);
        });
        v(m.source);
        v(m.microsecondTimestamps);
        v(m.rawTimeOrigin);
        v(m.sourceEventCounts);
    }

    template <class V, class S>
    static void sliceTrack(V &v, S &s)
    {
        v(s.m_start);
        v(s.m_end);
        v(s.m_name);
        v(s.m_payload);
        v(s.m_depth);
        v(s.m_payloadBase);
        v(s.m_payloadStep);
        v(s.m_maxDepth);
        v(s.m_extent);
        v(s.m_index.m_oddMaxEnd);
        v(s.m_index.m_maxLevel);
        lod(v, s.m_lod);
        v.list(s.m_depthRows, [&](auto &row) {
            v(row.events);
            lod(v, row.lod);
        });
    }

    template <class V, class L>
    static void lod(V &v, L &l)
    {
        v.list(l.m_levels, [&](auto &level) {
            v(level.width);
            v(level.bucket);
            v(level.count);
            v(level.busy);
            v(level.longest);
            v(level.longestStart);
            v(level.longestEnd);
        });
    }

    template <class V, class C>
    static void counterTrack(V &v, C &c)
    {
        v(c.name);
        v(c.unit);
        v(c.pid);
        v(c.deviceId);
        v(c.time);
        v(c.value);
        v(c.m_blockStart);
        v(c.m_blockLargest);
        v(c.m_superBlockLargest);
        v(c.m_largest);
        v(c.m_smallest);
    }

    // What a report opened from its summaries keeps of a track: the range
    // its events cover (where the view starts), none of them.
    static void dropEvents(SliceTrack &s)
    {
        SliceTrack kept;
        kept.m_extent = s.m_extent;
        s = std::move(kept);
    }

    // And of a counter: its name and what it ranges over (which decides
    // whether the view gives it a row), none of its samples.
    static void dropSamples(CounterTrack &c)
    {
        CounterTrack kept;
        kept.name = c.name;
        kept.unit = c.unit;
        kept.pid = c.pid;
        kept.deviceId = c.deviceId;
        kept.m_largest = c.m_largest;
        kept.m_smallest = c.m_smallest;
        c = std::move(kept);
    }

    // The shapes of private members that readers index with; nullptr when
    // they fit (cachechecks.cpp checks the rest through the public API).
    static const char *sliceTrackShapeProblem(const SliceTrack &s)
    {
        const std::size_t n = s.m_start.size();
        if (s.m_end.size() != n || s.m_name.size() != n)
            return "a track's columns differ in length";
        if (!s.m_payload.empty() && s.m_payload.size() != n)
            return "a track's payload column differs in length";
        if (!s.m_depth.empty() && s.m_depth.size() != n)
            return "a track's depth column differs in length";
        if (s.m_depth.empty() != (s.m_maxDepth == 0) || s.m_depthRows.size() != (s.m_maxDepth == 0 ? 0 : std::size_t(s.m_maxDepth) + 1))
            return "a track's nesting does not match its depth rows";
        for (const std::uint16_t d : s.m_depth)
            if (d > s.m_maxDepth)
                return "an event is deeper than its track";
        int expectedLevel = -1;
        while (n > 0 && (std::size_t(1) << (expectedLevel + 1)) <= n)
            ++expectedLevel;
        if (s.m_index.m_maxLevel != expectedLevel || s.m_index.m_oddMaxEnd.size() != n / 2)
            return "a track's interval index does not fit the track";
        return nullptr;
    }
    static const char *counterShapeProblem(const CounterTrack &c)
    {
        const std::size_t blocks = (c.value.size() + CounterTrack::kBlock - 1) / CounterTrack::kBlock;
        if (c.time.size() != c.value.size() || c.m_blockStart.size() != blocks || c.m_blockLargest.size() != blocks
            || c.m_superBlockLargest.size() != (blocks + CounterTrack::kBlock - 1) / CounterTrack::kBlock)
            return "a counter's columns do not fit together";
        return nullptr;
    }

    // Texts as one block with offsets (mapped as they are), and the lookup
    // slots, which are only valid with the hash function that filled them.
    template <class V, class T>
    static void strings(V &v, T &t)
    {
        if constexpr (V::kWriting) {
            Column<std::uint64_t> offsets;
            Column<char> texts;
            offsets.reserve(t.size() + 1);
            for (StringId id = 0; id < t.size(); ++id) {
                offsets.push_back(texts.size());
                const std::string_view text = t.view(id);
                texts.insert(texts.end(), text.begin(), text.end());
                texts.push_back('\0');
            }
            offsets.push_back(texts.size());
            // Released after the load (StringTable::releaseLookup()): built
            // again for the cache, whose reader looks strings up.
            const Column<std::uint32_t> builtSlots = t.m_slots.empty() ? t.buildSlots(T::slotCountFor(t.size())) : Column<std::uint32_t>();
            v(offsets);
            v(texts);
            v(t.m_slots.empty() ? builtSlots : t.m_slots);
            v(std::uint64_t(StringTable::hashOf("rankscope")));
        } else {
            v(t.m_mappedOffset);
            v(t.m_mappedText);
            v(t.m_slots);
            std::uint64_t hashProbe = 0;
            v(hashProbe);
            t.m_address.clear();
            t.m_blockEnd.clear();
            t.m_blocks.clear();
            v.checkStrings(t.m_mappedOffset, t.m_mappedText, t.m_slots);
            if (hashProbe != std::uint64_t(StringTable::hashOf("rankscope")))
                t.rebuildSlots(t.m_slots.size());
        }
    }
};

} // namespace rankscope
