#pragma once
// The groups of a summary report (cuda_gpu_kern_sum, nvtx_sum, ...) and
// their labels, without building the labels' text: a group of one report
// is found by the string id of its name in an array, and its label names
// that string. An emit_nvtx export has a distinct NVTX text for nearly
// every range, 10^7 groups at 20M events: as QStringLists in a hash they
// cost more than the report. Labels are compared as text only where two
// ids can read the same: across reports, and for built labels.
#include "core/report.h"
#include "stats/resulttable.h"
#include "stats/summary.h"

#include <QByteArray>
#include <QHash>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace rankscope::stats {

enum class NvtxStyle : std::uint8_t { None, PushPop, StartEnd };

// A group's label: a report's string (an NVTX range: with its style and
// domain, two columns "Style","<domain>:<name>"), or a text built once.
struct GroupLabel {
    const Report *report = nullptr; // whose strings `name` and `domain` are; null: built text
    StringId name = 0;
    StringId domain = StringTable::kEmpty;
    NvtxStyle style = NvtxStyle::None;
    std::uint32_t built = 0; // index of a built text (no report)
};

// A label as the groups keep it: 12 bytes, the report named by its place
// among the index's reports (10^8 groups of an emit_nvtx export keep no
// 8-byte pointer and padding each).
struct PackedLabel {
    static constexpr std::uint32_t kBuilt = (std::uint32_t(1) << 30) - 1; // source of a built text

    StringId name = 0; // a built text's index when built
    StringId domain = StringTable::kEmpty;
    std::uint32_t sourceAndStyle = kBuilt << 2; // a report's place << 2 | NvtxStyle

    std::uint32_t source() const { return sourceAndStyle >> 2; }
    NvtxStyle style() const { return NvtxStyle(sourceAndStyle & 3); }
    bool isBuilt() const { return source() == kBuilt; }
};
static_assert(sizeof(PackedLabel) == 12);

// The groups' labels, taken out of a GroupIndex once its groups are made,
// for a table that computes its cells (ResultTable::computed) and reads
// them as text pieces, as GroupIndex::writeLabel() writes them.
class GroupLabels {
public:
    // Label column `column` (from 0) of `group`'s label, without an NVTX
    // range's style column unless `withStyle`; none past its columns.
    std::optional<ComputedCells::TextPieces> textAt(std::uint32_t group, std::size_t column, bool withStyle) const;
    // Fetches these groups' labels and texts side by side (ComputedCells::willRead).
    void willRead(std::span<const std::uint32_t> groups) const;

private:
    friend class GroupIndex;
    std::vector<PackedLabel> m_labels;
    std::vector<const Report *> m_reports;                                // by a label's source()
    std::vector<std::string> m_built;                                     // UTF-8
    std::map<std::pair<std::uint32_t, StringId>, std::string> m_prefixes; // an NVTX domain's "domain:", by source and domain
};

class GroupIndex {
public:
    // acrossReports: the groups come from more than one report, and those
    // whose labels read the same are one group.
    explicit GroupIndex(bool acrossReports) : m_acrossReports(acrossReports) { }

    // The group of `name` of `report` under `key` (a domain and style; 0
    // for none); makeLabel() gives a new one's label, once per name.
    template <class MakeLabel>
    std::uint32_t groupOf(const Report &report, std::uint64_t key, StringId name, MakeLabel &&makeLabel)
    {
        std::vector<std::uint32_t> &byName = m_byKey[{&report, key}];
        if (byName.size() <= name)
            byName.resize(std::max<std::size_t>(report.strings.size(), std::size_t(name) + 1), kNoGroup);
        std::uint32_t &group = byName[name];
        if (group == kNoGroup)
            group = add(makeLabel());
        return group;
    }
    // A label whose text is built, not a report's string.
    GroupLabel built(QString text);

    std::size_t size() const { return m_labels.size(); }
    void reserve(std::size_t groups) { m_labels.reserve(groups); }
    // The label columns the groups fill (two for NVTX ranges).
    static std::size_t labelColumns(const GroupLabel &label) { return label.style == NvtxStyle::None ? 1 : 2; }
    // Writes the group's label into the table, from `column` on; an NVTX
    // range's without its style column when `withStyle` is false (the
    // reports of one style).
    void writeLabel(ResultTable &table, std::size_t row, std::size_t column, std::uint32_t group, bool withStyle = true) const;
    // The labels, moved out: the index has no groups after it.
    GroupLabels takeLabels();

private:
    static constexpr std::uint32_t kNoGroup = ~std::uint32_t(0);
    std::uint32_t add(const GroupLabel &label);
    // The place of `report` among the reports the labels name, as
    // PackedLabel::source() gives it.
    std::uint32_t sourceOf(const Report &report);
    QByteArray textOf(const GroupLabel &label) const;

    bool m_acrossReports = false;
    std::map<std::pair<const Report *, std::uint64_t>, std::vector<std::uint32_t>> m_byKey;
    std::vector<PackedLabel> m_labels;     // per group
    std::vector<const Report *> m_reports; // by a label's source()
    std::vector<QString> m_built;
    QHash<QByteArray, std::uint32_t> m_byText; // where labels are compared as text
};

// The columns nsys' time summaries share: Time (%) in column 0, then
// Total, the count, Avg, Med, Min, Max and StdDev. writeSummaryCells fills
// a row's 1-7; fillTimeShares column 0 of every row once all are written.
void writeSummaryCells(ResultTable &table, std::size_t row, const Summary &summary);
// Column 1-7's cell of a summary, as writeSummaryCells writes it.
ComputedCells::Value summaryCell(const Summary &summary, std::size_t column);
// Column 0's: a total's share of all, in percent.
ComputedCells::Value timeShareCell(std::int64_t total, std::int64_t grandTotal);
// Those eight columns' headers, the count column named `countHeader`
// ("Instances", "Num Calls", "Count"), then `labelHeaders`.
QStringList timeSummaryHeaders(const QString &countHeader, const QStringList &labelHeaders);
void fillTimeShares(ResultTable &table, std::int64_t grandTotal);

// Orders a summary table as nsys does: largest total first, then fewer
// instances, then by the label columns.
void sortSummaryRows(ResultTable &table, std::size_t totalColumn, std::size_t countColumn, std::size_t firstLabelColumn);

} // namespace rankscope::stats
