#include "stats/storedtimetable.h"

#include <atomic>
#include <numeric>

namespace rankscope::stats {

namespace {

constexpr std::size_t kFirstLabelColumn = 8;

class StoredTimeCells final : public ComputedCells {
public:
    StoredTimeCells(std::shared_ptr<const StoredGroupParts> parts, GroupLabels labels, std::size_t labelColumns, bool withStyle)
        : m_parts(std::move(parts)), m_labels(std::move(labels)), m_labelColumns(labelColumns), m_withStyle(withStyle)
    {
        for (std::uint32_t group = 0; group < m_parts->groupCount(); ++group)
            m_grandTotal += m_parts->totalOf(group); // as timeTable() sums its rows' totals
    }

    std::size_t columnCount() const override { return kFirstLabelColumn + m_labelColumns; }

    Value valueAt(std::uint32_t group, std::size_t column) const override
    {
        if (column >= kFirstLabelColumn) {
            m_parts->countRead(); // a label's text is a report's string, mapped
            const std::optional<TextPieces> text = m_labels.textAt(group, column - kFirstLabelColumn, m_withStyle);
            return text ? Value{Cell::Type::Text, 0, 0, 0.0, *text} : Value{};
        }
        const Summary &summary = summaryOf(group);
        return column == 0 ? timeShareCell(summary.total, m_grandTotal) : summaryCell(summary, column);
    }

    void willRead(std::span<const std::uint32_t> groups) const override
    {
        m_parts->willRead(groups);
        m_labels.willRead(groups);
    }

private:
    // A row's cells are read one after another (CSV, sorting by total and
    // count): its summary is merged once, kept per thread for the next.
    const Summary &summaryOf(std::uint32_t group) const
    {
        thread_local struct {
            std::uint64_t table = 0;
            std::uint32_t group = 0;
            Summary summary;
        } last;
        if (last.table != m_id || last.group != group) {
            last.summary = m_parts->summaryOf(group);
            last.table = m_id;
            last.group = group;
        }
        return last.summary;
    }

    static std::uint64_t nextId()
    {
        static std::atomic<std::uint64_t> tables{0};
        return ++tables; // never 0: a thread's memo starts empty
    }

    std::shared_ptr<const StoredGroupParts> m_parts;
    GroupLabels m_labels;
    std::size_t m_labelColumns;
    bool m_withStyle;
    std::int64_t m_grandTotal = 0;
    const std::uint64_t m_id = nextId(); // names this table in the threads' memos, never reused
};

} // namespace

ResultTable storedTimeTable(std::shared_ptr<const StoredGroupParts> parts, GroupLabels labels, std::size_t labelColumns, bool withStyle)
{
    std::vector<std::uint32_t> keys(parts->groupCount());
    std::iota(keys.begin(), keys.end(), 0u);
    return ResultTable::computed(std::make_shared<StoredTimeCells>(std::move(parts), std::move(labels), labelColumns, withStyle), std::move(keys));
}

} // namespace rankscope::stats
