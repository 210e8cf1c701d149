#pragma once
// What the analysis workspace keeps of its results, under one policy. Each
// result has a typed key: its kind, the scope, the clock and what else it
// reads besides the settings (a map's bins, a gap rule, a path's options).
// Each kind is declared once (resultstore.cpp) with the settings it reads
// and how long it is kept: for the workspace's life (a session-wide result
// many panels read: the matches, the waits, the diagnosis) or while among
// the last kKeptResults of the others asked for. A workspace for other
// settings takes over every result whose kind reads none of the settings
// that changed.
#include "analysis/sharedresult.h"
#include "stats/analysissettings.h"
#include "stats/statsscope.h"

#include <QStringList>

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <typeindex>
#include <vector>

namespace rankscope {

// Which clocks a collective match is on.
enum class MatchClock {
    Recorded, // as the traces recorded them
    Aligned,  // each rank shifted where the collectives' ends say its clock is off (stats::alignedOnCollectives)
};

enum class ResultKind : std::uint8_t {
    CollectiveMatch,
    RankWaits,
    Diagnosis,
    RunAnchorDelta,
    StepStretch,
    CriticalPathSolutions,
    RankComparison,
    CpuSamplingByRank,
    GpuBusyMap,
    GpuBusyWithoutWaitMap,
    CollectiveWaitMap,
    MemoryTransfers,
    GpuGaps,
};

struct ResultKindDeclaration {
    ResultKind kind;
    const char *name;
    unsigned settings = 0; // the stats::ReportSetting flags it reads
    bool keptForTheSession = false;
};
const ResultKindDeclaration &declarationOf(ResultKind kind);

struct ResultKey {
    ResultKind kind;
    stats::StatsScope scope{}; // all ranks over all time unless set
    std::optional<MatchClock> clock{};
    std::vector<std::int64_t> numbers{}; // bins, a gap rule, a step, a range...
    QStringList texts{};                 // step names, what-ifs...
    bool operator==(const ResultKey &) const = default;
};

class ResultStore {
public:
    static constexpr std::size_t kKeptResults = 16;

    // The result under `key`: computed by the first asker, waited for by
    // the others meanwhile, then shared (analysis/sharedresult.h).
    template <class T, class Compute>
    std::shared_ptr<const T> get(const ResultKey &key, Compute &&compute) const
    {
        return slotOf<T>(key)->get(std::forward<Compute>(compute));
    }
    // The result if it is there, else null: never computes, never waits.
    template <class T>
    std::shared_ptr<const T> ready(const ResultKey &key) const
    {
        const std::lock_guard lock(m_mutex);
        const auto it = find(key);
        return it == m_entries.end() ? nullptr : std::static_pointer_cast<SharedResult<T>>(it->slot)->ready();
    }
    // Takes over a result computed with other inputs that give the same.
    template <class T>
    void adopt(const ResultKey &key, std::shared_ptr<const T> value) const
    {
        slotOf<T>(key)->adopt(std::move(value));
    }
    // The results of `other` whose kinds read none of `changedSettings`.
    void takeOver(const ResultStore &other, unsigned changedSettings);

private:
    struct Entry {
        ResultKey key;
        std::type_index type;
        std::shared_ptr<void> slot; // a SharedResult<type>
    };
    std::vector<Entry>::iterator find(const ResultKey &key) const;
    template <class T>
    std::shared_ptr<SharedResult<T>> slotOf(const ResultKey &key) const
    {
        const std::lock_guard lock(m_mutex);
        auto it = find(key);
        if (it == m_entries.end()) {
            m_entries.insert(m_entries.begin(), Entry{key, std::type_index(typeid(T)), std::make_shared<SharedResult<T>>()});
            evictBeyondTheKept();
            it = m_entries.begin();
        } else if (it->type != std::type_index(typeid(T))) {
            throw std::logic_error(std::string("result kind asked as two types: ") + declarationOf(key.kind).name);
        } else {
            std::rotate(m_entries.begin(), it, it + 1); // the most recent first
            it = m_entries.begin();
        }
        return std::static_pointer_cast<SharedResult<T>>(it->slot);
    }
    void evictBeyondTheKept() const;

    mutable std::mutex m_mutex;
    mutable std::vector<Entry> m_entries; // the most recently asked first
};

} // namespace rankscope
