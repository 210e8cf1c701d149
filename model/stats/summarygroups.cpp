#include "stats/summarygroups.h"

#include <algorithm>
#include <bit>
#include <limits>
#include <new>
#include <optional>
#include <utility>

namespace rankscope::stats {

namespace {

std::string_view styleName(NvtxStyle style)
{
    return style == NvtxStyle::PushPop ? "PushPop" : "StartEnd";
}

} // namespace

GroupLabel GroupIndex::built(QString text)
{
    GroupLabel label;
    label.built = std::uint32_t(m_built.size());
    m_built.push_back(std::move(text));
    return label;
}

QByteArray GroupIndex::textOf(const GroupLabel &label) const
{
    if (!label.report)
        return m_built[label.built].toUtf8();
    QByteArray text;
    if (label.style != NvtxStyle::None) {
        const std::string_view style = styleName(label.style), domain = label.report->strings.view(label.domain);
        text.append(style.data(), qsizetype(style.size())).append('\x1f');
        text.append(domain.data(), qsizetype(domain.size())).append(':');
    }
    const std::string_view name = label.report->strings.view(label.name);
    return text.append(name.data(), qsizetype(name.size()));
}

std::uint32_t GroupIndex::sourceOf(const Report &report)
{
    // Groups are made report after report: the last one found is the likely one.
    if (!m_reports.empty() && m_reports.back() == &report)
        return std::uint32_t(m_reports.size() - 1);
    const auto at = std::find(m_reports.begin(), m_reports.end(), &report);
    if (at != m_reports.end())
        return std::uint32_t(at - m_reports.begin());
    if (m_reports.size() >= PackedLabel::kBuilt)
        throw std::bad_alloc(); // 2^30 reports: far past what memory holds
    m_reports.push_back(&report);
    return std::uint32_t(m_reports.size() - 1);
}

std::uint32_t GroupIndex::add(const GroupLabel &label)
{
    const auto group = std::uint32_t(m_labels.size());
    if (m_acrossReports || !label.report) {
        QByteArray text = textOf(label);
        if (const auto it = m_byText.constFind(text); it != m_byText.cend()) {
            if (!label.report)
                m_built.pop_back(); // built() just added it
            return *it;
        }
        m_byText.insert(std::move(text), group);
    }
    PackedLabel packed;
    if (label.report) {
        packed.name = label.name;
        packed.domain = label.domain;
        packed.sourceAndStyle = sourceOf(*label.report) << 2 | std::uint32_t(label.style);
    } else {
        packed.name = label.built;
    }
    m_labels.push_back(packed);
    return group;
}

void GroupIndex::writeLabel(ResultTable &table, std::size_t row, std::size_t column, std::uint32_t group, bool withStyle) const
{
    const PackedLabel &label = m_labels[group];
    if (label.isBuilt()) {
        table.setText(row, column, QStringView(m_built[label.name]));
        return;
    }
    const Report &report = *m_reports[label.source()];
    if (label.style() == NvtxStyle::None) {
        table.setReportText(row, column, report, label.name);
        return;
    }
    if (withStyle)
        table.setText(row, column++, styleName(label.style()));
    std::string prefix(report.strings.view(label.domain));
    prefix += ':';
    table.setReportText(row, column, report, label.name, prefix);
}

GroupLabels GroupIndex::takeLabels()
{
    GroupLabels labels;
    for (const QString &text : m_built)
        labels.m_built.push_back(text.toStdString());
    for (const PackedLabel &label : m_labels)
        if (!label.isBuilt() && label.style() != NvtxStyle::None)
            if (auto [at, added] = labels.m_prefixes.try_emplace({label.source(), label.domain}); added) {
                at->second = m_reports[label.source()]->strings.view(label.domain);
                at->second += ':';
            }
    labels.m_labels = std::move(m_labels);
    labels.m_reports = std::move(m_reports);
    *this = GroupIndex(m_acrossReports);
    return labels;
}

std::optional<ComputedCells::TextPieces> GroupLabels::textAt(std::uint32_t group, std::size_t column, bool withStyle) const
{
    const PackedLabel &label = m_labels[group];
    if (label.isBuilt())
        return column == 0 ? std::optional(ComputedCells::TextPieces{{}, m_built[label.name]}) : std::nullopt;
    const std::string_view name = m_reports[label.source()]->strings.view(label.name);
    if (label.style() == NvtxStyle::None)
        return column == 0 ? std::optional(ComputedCells::TextPieces{{}, name}) : std::nullopt;
    if (withStyle && column == 0)
        return ComputedCells::TextPieces{{}, styleName(label.style())};
    if (column != (withStyle ? 1u : 0u))
        return std::nullopt;
    return ComputedCells::TextPieces{m_prefixes.at({label.source(), label.domain}), name};
}

void GroupLabels::willRead(std::span<const std::uint32_t> groups) const
{
    // In stages, each a loop whose reads do not wait for one another.
    for (const std::uint32_t group : groups)
        __builtin_prefetch(&m_labels[group]);
    for (const std::uint32_t group : groups)
        if (const PackedLabel &label = m_labels[group]; !label.isBuilt())
            __builtin_prefetch(m_reports[label.source()]->strings.view(label.name).data());
}

ComputedCells::Value summaryCell(const Summary &s, std::size_t column)
{
    auto integer = [](std::int64_t v) { return ComputedCells::Value{Cell::Type::Integer, 0, v, 0.0, {}}; };
    auto decimal = [](double v) { return ComputedCells::Value{Cell::Type::Decimal, 1, 0, v, {}}; };
    switch (column) {
    case 1:
        return integer(s.total);
    case 2:
        return integer(s.count);
    case 3:
        return decimal(s.average);
    case 4:
        return decimal(s.median);
    case 5:
        return integer(s.minimum);
    case 6:
        return integer(s.maximum);
    case 7:
        return decimal(s.stdDev);
    default:
        return {};
    }
}

ComputedCells::Value timeShareCell(std::int64_t total, std::int64_t grandTotal)
{
    return {Cell::Type::Decimal, 1, 0, grandTotal ? 100.0 * double(total) / double(grandTotal) : 0.0, {}};
}

void writeSummaryCells(ResultTable &table, std::size_t row, const Summary &s)
{
    for (std::size_t column = 1; column <= 7; ++column) {
        const ComputedCells::Value v = summaryCell(s, column);
        if (v.type == Cell::Type::Integer)
            table.setInteger(row, column, v.integer);
        else
            table.setDecimal(row, column, v.decimal, v.decimals);
    }
}

QStringList timeSummaryHeaders(const QString &countHeader, const QStringList &labelHeaders)
{
    return QStringList{QStringLiteral("Time (%)"), QStringLiteral("Total Time (ns)"), countHeader,
                       QStringLiteral("Avg (ns)"), QStringLiteral("Med (ns)"),        QStringLiteral("Min (ns)"),
                       QStringLiteral("Max (ns)"), QStringLiteral("StdDev (ns)")}
           + labelHeaders;
}

void fillTimeShares(ResultTable &table, std::int64_t grandTotal)
{
    for (std::size_t row = 0; row < table.rowCount(); ++row) {
        const ComputedCells::Value share = timeShareCell(table.integerAt(row, 1), grandTotal);
        table.setDecimal(row, 0, share.decimal, share.decimals);
    }
}

namespace {

// A double's bits as an integer in the double's order (negative values
// mirrored), so one 64-bit key serves integer and decimal totals.
std::int64_t orderedBits(double value)
{
    const auto bits = std::bit_cast<std::int64_t>(value);
    return bits < 0 ? std::numeric_limits<std::int64_t>::min() - bits - 1 : bits;
}

// The rows of a summary table in nsys' order. The numeric keys are copied
// out once and sorted first; labels are compared only within runs of equal
// totals and counts (an emit_nvtx table has runs of tens of one-instance
// ranges of equal length). With 32-bit counts a key takes 16 bytes (10^8
// groups: 1.6 GB, not 2.4); none when a count does not fit `Count`.
template <class Count>
std::optional<std::vector<std::uint32_t>> summaryRowOrder(const ResultTable &table, std::size_t totalColumn, std::size_t countColumn,
                                                          std::size_t firstLabelColumn)
{
    struct Key {
        std::int64_t total; // a decimal total as orderedBits()
        Count count;
        std::uint32_t row;
    };
    const std::size_t rows = table.rowCount();
    std::vector<Key> keys(rows);
    for (std::size_t row = 0; row < rows; ++row) {
        const bool integer = table.typeAt(row, totalColumn) == Cell::Type::Integer;
        const std::int64_t count = table.integerAt(row, countColumn);
        if (!std::in_range<Count>(count))
            return std::nullopt;
        keys[row] = {integer ? table.integerAt(row, totalColumn) : orderedBits(table.numberAt(row, totalColumn)), Count(count), std::uint32_t(row)};
    }
    auto sameNumbers = [](const Key &a, const Key &b) { return a.total == b.total && a.count == b.count; };
    std::sort(keys.begin(), keys.end(), [&](const Key &a, const Key &b) {
        if (a.total != b.total)
            return a.total > b.total;
        if (a.count != b.count)
            return a.count < b.count;
        return a.row < b.row;
    });
    // A run of ties by its labels, their texts looked up once (20M-event
    // emit_nvtx exports have runs of hundreds, labels alike for 30 bytes).
    const std::size_t labelColumns = table.columnCount() > firstLabelColumn ? table.columnCount() - firstLabelColumn : 0;
    std::vector<ResultTable::TextPieces> labels;
    std::vector<std::uint32_t> run;
    std::vector<Key> sorted;
    auto sortByLabels = [&](std::size_t begin, std::size_t end) {
        labels.resize((end - begin) * labelColumns);
        run.resize(end - begin);
        for (std::size_t i = begin; i < end; ++i) {
            run[i - begin] = std::uint32_t(i - begin);
            for (std::size_t c = 0; c < labelColumns; ++c)
                labels[(i - begin) * labelColumns + c] = table.textAt(keys[i].row, firstLabelColumn + c);
        }
        std::stable_sort(run.begin(), run.end(), [&](std::uint32_t a, std::uint32_t b) {
            for (std::size_t c = 0; c < labelColumns; ++c)
                if (const int order = ResultTable::compareTexts(labels[a * labelColumns + c], labels[b * labelColumns + c]); order != 0)
                    return order < 0;
            return false;
        });
        sorted.resize(end - begin);
        for (std::size_t i = 0; i < run.size(); ++i)
            sorted[i] = keys[begin + run[i]];
        std::copy(sorted.begin(), sorted.end(), keys.begin() + std::ptrdiff_t(begin));
    };
    for (std::size_t begin = 0; begin < rows;) {
        std::size_t end = begin + 1;
        while (end < rows && sameNumbers(keys[begin], keys[end]))
            ++end;
        if (end - begin > 1)
            sortByLabels(begin, end);
        begin = end;
    }
    std::vector<std::uint32_t> order(rows);
    for (std::size_t i = 0; i < rows; ++i)
        order[i] = keys[i].row;
    return order;
}

} // namespace

void sortSummaryRows(ResultTable &table, std::size_t totalColumn, std::size_t countColumn, std::size_t firstLabelColumn)
{
    // A count past 32 bits (a session of 10^10 events) is read again into wider keys.
    std::optional<std::vector<std::uint32_t>> order = summaryRowOrder<std::uint32_t>(table, totalColumn, countColumn, firstLabelColumn);
    if (!order)
        order = summaryRowOrder<std::int64_t>(table, totalColumn, countColumn, firstLabelColumn);
    table.reorderRows(*order);
}

} // namespace rankscope::stats
