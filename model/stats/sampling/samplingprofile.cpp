#include "stats/sampling/samplingprofile.h"
#include "stats/reportcatalog.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <numeric>
#include <string>
#include <unordered_map>

namespace rankscope::stats {

namespace {

const QString kUnresolved = QStringLiteral("[unresolved]");

// Interns the functions of every report of a profile by their text, and
// turns each report's callchains into stacks of those functions under the filter.
class ProfileBuilder {
public:
    ProfileBuilder(SamplingProfile &profile, const SamplingFilter &filter) : m_profile(profile), m_filter(filter) { }

    void add(const Report &report, const std::vector<std::uint64_t> &samplesPerChain)
    {
        const CpuSampling &sampling = report.sampling;
        std::vector<std::uint32_t> functionOfFrame(sampling.frames.size(), kUnmapped);
        std::vector<std::uint32_t> stack;
        for (std::uint32_t chain = 0; chain < samplesPerChain.size(); ++chain) {
            const std::uint64_t count = samplesPerChain[chain];
            if (count == 0)
                continue;
            stack.clear();
            bool inUnresolvedRun = false;
            StringId runModule = 0;
            for (const std::uint32_t frameRow : sampling.callchain(chain)) {
                const CallFrame &frame = sampling.frames[frameRow];
                if (m_filter.hideKernelFrames && frame.has(CallFrame::KernelMode))
                    continue;
                if (m_filter.collapseUnresolved && frame.has(CallFrame::Unresolved) && !m_filter.groupByModule) {
                    if (inUnresolvedRun && frame.module == runModule)
                        continue;
                    inUnresolvedRun = true;
                    runModule = frame.module;
                    stack.push_back(function(kUnresolved.toUtf8().toStdString(), report.strings.view(frame.module), frame));
                    continue;
                }
                inUnresolvedRun = false;
                if (functionOfFrame[frameRow] == kUnmapped)
                    functionOfFrame[frameRow] = m_filter.groupByModule
                                                    ? function(report.strings.view(frame.module), report.strings.view(frame.module), frame)
                                                    : function(report.strings.view(frame.function), report.strings.view(frame.module), frame);
                const std::uint32_t f = functionOfFrame[frameRow];
                // Grouped by module, a run of one module's frames is one frame.
                if (m_filter.groupByModule && !stack.empty() && stack.back() == f)
                    continue;
                stack.push_back(f);
            }
            if (stack.empty()) {
                m_profile.withoutCallchain += count;
                continue;
            }
            m_profile.samples += count;
            std::string key(stack.size() * sizeof(std::uint32_t), '\0');
            std::memcpy(key.data(), stack.data(), key.size());
            const auto [it, added] = m_stacks.try_emplace(std::move(key), std::uint32_t(m_profile.stacks.size()));
            if (added) {
                m_profile.stacks.push_back(stack);
                m_profile.stackSamples.push_back(0);
            }
            m_profile.stackSamples[it->second] += count;
        }
    }

private:
    static constexpr std::uint32_t kUnmapped = 0xFFFFFFFFu;

    std::uint32_t function(std::string_view name, std::string_view module, const CallFrame &frame)
    {
        std::string key;
        key.reserve(name.size() + module.size() + 1);
        key.append(name).push_back('\0');
        key.append(module);
        const auto [it, added] = m_functions.try_emplace(std::move(key), std::uint32_t(m_profile.functions.size()));
        if (added) {
            SampledFunction f;
            f.function = QString::fromUtf8(name.data(), qsizetype(name.size()));
            f.module = QString::fromUtf8(module.data(), qsizetype(module.size()));
            f.kernelMode = frame.has(CallFrame::KernelMode);
            f.unresolved = frame.has(CallFrame::Unresolved);
            f.python = frame.has(CallFrame::Python);
            m_profile.functions.push_back(std::move(f));
        }
        return it->second;
    }

    SamplingProfile &m_profile;
    const SamplingFilter &m_filter;
    std::unordered_map<std::string, std::uint32_t> m_functions;
    std::unordered_map<std::string, std::uint32_t> m_stacks;
};

// The samples per callchain of one slice's threads in its range.
std::vector<std::uint64_t> samplesPerChain(const ReportSlice &slice, std::size_t sliceIndex, const SamplingScope &scope,
                                           std::uint64_t &withoutCallchain)
{
    const CpuSampling &sampling = slice.report->sampling;
    std::vector<std::uint64_t> counts(sampling.chainCount(), 0);
    for (const SampledThread &thread : sampling.threads) {
        if (!slice.acceptsProcess(thread.pid))
            continue;
        const int rank = slice.rankIndex >= 0 ? slice.rankIndex : int(sliceIndex);
        if (scope.threads && !scope.threads->count({rank, thread.pid, thread.tid}))
            continue;
        const std::span<const CpuSample> samples = sampling.samplesOf(thread);
        const auto first =
            std::lower_bound(samples.begin(), samples.end(), slice.range.start, [](const CpuSample &s, TimeNs t) { return s.time < t; });
        const auto last = std::upper_bound(first, samples.end(), slice.range.end, [](TimeNs t, const CpuSample &s) { return t < s.time; });
        for (auto it = first; it != last; ++it) {
            if (it->callchain < counts.size())
                ++counts[it->callchain];
            else
                ++withoutCallchain;
        }
    }
    return counts;
}

bool byNameThenModule(const SamplingProfile &p, std::uint32_t a, std::uint32_t b)
{
    const SampledFunction &fa = p.functions[a], &fb = p.functions[b];
    if (const int c = fa.function.compare(fb.function); c != 0)
        return c < 0;
    return fa.module < fb.module;
}

void sortChildren(CallTree &tree, const SamplingProfile &profile)
{
    for (CallTree::Node &node : tree.nodes)
        std::sort(node.children.begin(), node.children.end(), [&](std::uint32_t a, std::uint32_t b) {
            const CallTree::Node &na = tree.nodes[a], &nb = tree.nodes[b];
            if (na.total != nb.total)
                return na.total > nb.total;
            return byNameThenModule(profile, na.function, nb.function);
        });
}

// Adds `count` samples along `path` (function rows, from the root down).
template <class Path>
void addPath(CallTree &tree, std::unordered_map<std::uint64_t, std::uint32_t> &childOf, const Path &path, std::uint64_t count, bool selfAtEnd)
{
    std::uint32_t node = 0;
    tree.nodes[0].total += count;
    for (std::size_t i = 0; i < path.size(); ++i) {
        const std::uint64_t key = (std::uint64_t(node) << 32) | path[i];
        auto it = childOf.find(key);
        if (it == childOf.end()) {
            const auto child = std::uint32_t(tree.nodes.size());
            CallTree::Node n;
            n.function = path[i];
            n.parent = node;
            n.depth = std::uint32_t(i);
            tree.nodes.push_back(std::move(n));
            tree.nodes[node].children.push_back(child);
            it = childOf.emplace(key, child).first;
        }
        node = it->second;
        tree.nodes[node].total += count;
    }
    if (selfAtEnd)
        tree.nodes[node].self += count;
}

} // namespace

std::vector<std::uint32_t> CallTree::preorder() const
{
    std::vector<std::uint32_t> order;
    if (nodes.empty())
        return order;
    order.reserve(nodes.size());
    std::vector<std::uint32_t> pending(nodes[0].children.rbegin(), nodes[0].children.rend());
    while (!pending.empty()) {
        const std::uint32_t n = pending.back();
        pending.pop_back();
        order.push_back(n);
        pending.insert(pending.end(), nodes[n].children.rbegin(), nodes[n].children.rend());
    }
    return order;
}

std::vector<FlatFunction> SamplingProfile::flat() const
{
    std::vector<FlatFunction> rows(functions.size());
    for (std::uint32_t f = 0; f < functions.size(); ++f)
        rows[f].function = f;
    std::vector<std::uint32_t> seenIn(functions.size(), 0xFFFFFFFFu); // the stack that last counted it
    for (std::uint32_t s = 0; s < stacks.size(); ++s) {
        const std::vector<std::uint32_t> &stack = stacks[s];
        rows[stack.front()].self += stackSamples[s];
        for (const std::uint32_t f : stack) {
            if (seenIn[f] == s)
                continue; // recursion: once per sample
            seenIn[f] = s;
            rows[f].total += stackSamples[s];
        }
    }
    std::erase_if(rows, [](const FlatFunction &r) { return r.total == 0; });
    std::sort(rows.begin(), rows.end(), [&](const FlatFunction &a, const FlatFunction &b) {
        if (a.self != b.self)
            return a.self > b.self;
        if (a.total != b.total)
            return a.total > b.total;
        return byNameThenModule(*this, a.function, b.function);
    });
    return rows;
}

CallTree SamplingProfile::topDown() const
{
    CallTree tree;
    tree.nodes.emplace_back();
    std::unordered_map<std::uint64_t, std::uint32_t> childOf;
    std::vector<std::uint32_t> outermostFirst;
    for (std::size_t s = 0; s < stacks.size(); ++s) {
        outermostFirst.assign(stacks[s].rbegin(), stacks[s].rend());
        addPath(tree, childOf, outermostFirst, stackSamples[s], true);
    }
    sortChildren(tree, *this);
    return tree;
}

CallTree SamplingProfile::bottomUp() const
{
    CallTree tree;
    tree.nodes.emplace_back();
    std::unordered_map<std::uint64_t, std::uint32_t> childOf;
    for (std::size_t s = 0; s < stacks.size(); ++s)
        addPath(tree, childOf, stacks[s], stackSamples[s], false);
    // A function at the top is where its samples were: its self is its total.
    for (const std::uint32_t child : tree.nodes[0].children)
        tree.nodes[child].self = tree.nodes[child].total;
    sortChildren(tree, *this);
    return tree;
}

std::optional<std::uint32_t> SamplingProfile::find(const QString &function, const QString &module) const
{
    for (std::uint32_t f = 0; f < functions.size(); ++f)
        if (functions[f].function == function && functions[f].module == module)
            return f;
    return std::nullopt;
}

SamplingProfile samplingProfile(const SamplingScope &scope, const SamplingFilter &filter)
{
    SamplingProfile profile;
    ProfileBuilder builder(profile, filter);
    for (std::size_t i = 0; i < scope.slices.size(); ++i) {
        const ReportSlice &slice = scope.slices[i];
        if (!slice.report || slice.report->sampling.samples.empty())
            continue;
        builder.add(*slice.report, samplesPerChain(slice, i, scope, profile.withoutCallchain));
    }
    return profile;
}

SamplingProfile samplingProfile(const Session &session, const StatsScope &scope, const SamplingFilter &filter)
{
    return samplingProfile(SamplingScope{slicesOf(session, scope), std::nullopt}, filter);
}

SamplingProfile samplingProfile(const Report &report, TimeRange range, const SamplingFilter &filter)
{
    ReportSlice slice = wholeReport(report);
    slice.range = range;
    return samplingProfile(SamplingScope{{slice}, std::nullopt}, filter);
}

std::vector<SampledShare> topSampledFunctions(const Report &report, std::optional<std::uint32_t> pid, TimeRange range, std::size_t count)
{
    return topSampledFunctions({SampledSpans{&report, pid, {range}}}, count);
}

std::vector<SampledShare> topSampledFunctions(const std::vector<SampledSpans> &spans, std::size_t count)
{
    std::map<std::pair<QString, QString>, std::uint64_t> byText; // across reports
    std::uint64_t withChain = 0;
    for (const SampledSpans &span : spans) {
        const CpuSampling &s = span.report->sampling;
        std::unordered_map<std::uint64_t, std::uint64_t> byFunction; // (function, module) string ids -> samples
        for (const SampledThread &thread : s.threads) {
            if (span.pid && thread.pid != *span.pid)
                continue;
            const std::span<const CpuSample> samples = s.samplesOf(thread);
            auto it = samples.begin();
            for (const TimeRange &range : span.ranges) {
                it = std::lower_bound(it, samples.end(), range.start, [](const CpuSample &x, TimeNs t) { return x.time < t; });
                for (; it != samples.end() && it->time <= range.end; ++it) {
                    const auto frames = s.callchain(it->callchain);
                    if (frames.empty())
                        continue;
                    const CallFrame &inner = s.frames[frames.front()];
                    ++byFunction[(std::uint64_t(inner.function) << 32) | inner.module];
                    ++withChain;
                }
            }
        }
        for (const auto &[key, samples] : byFunction)
            byText[{span.report->strings.string(StringId(key >> 32)), span.report->strings.string(StringId(key & 0xFFFFFFFFu))}] += samples;
    }
    std::vector<SampledShare> all;
    for (const auto &[key, samples] : byText)
        all.push_back({key.first, key.second, samples, double(samples) / double(withChain)});
    std::stable_sort(all.begin(), all.end(), [](const SampledShare &a, const SampledShare &b) { return a.samples > b.samples; });
    if (all.size() > count)
        all.resize(count);
    return all;
}

QString sampledSharesText(const std::vector<SampledShare> &shares)
{
    QStringList parts;
    for (const SampledShare &s : shares)
        parts << QStringLiteral("%1 %2 %").arg(sampledFunctionText(s)).arg(std::lround(s.share * 100));
    return parts.join(QStringLiteral(", "));
}

QString sampledFunctionText(const SampledShare &s)
{
    const QString module = s.module.section(QLatin1Char('/'), -1); // the file, not its folder
    return (s.function.isEmpty() ? QStringLiteral("[unknown]") : s.function)
           + (module.isEmpty() ? QString() : QStringLiteral(" (") + module + QLatin1Char(')'));
}

QString functionLabel(const SampledFunction &f)
{
    return f.function.isEmpty() ? QStringLiteral("[unknown]") : f.function;
}

namespace {

void setFunctionCells(ResultTable &t, std::size_t row, std::size_t column, const SampledFunction &f)
{
    t.setText(row, column, QStringView(functionLabel(f)));
    t.setText(row, column + 1, QStringView(f.module));
}

// `t`: the empty table, named.
ResultTable treeTable(const SamplingProfile &profile, const CallTree &tree, ResultTable t)
{
    // A node names its parent by row number (Node, Parent: 0 for a root),
    // not by the path of names above it: a path per node would make the
    // table quadratic in the stacks' depth (1,024 frames of long names:
    // gigabytes from a file of one megabyte).
    t.headers = {QStringLiteral("Self Samples"), QStringLiteral("Self (%)"), QStringLiteral("Total Samples"),
                 QStringLiteral("Total (%)"),    QStringLiteral("Depth"),    QStringLiteral("Function"),
                 QStringLiteral("Module"),       QStringLiteral("Node"),     QStringLiteral("Parent")};
    const std::vector<std::uint32_t> order = tree.preorder();
    t.reserveRows(order.size());
    std::vector<std::uint32_t> rowOf(tree.nodes.size(), 0);
    for (const std::uint32_t n : order) {
        const CallTree::Node &node = tree.nodes[n];
        const SampledFunction &f = profile.functions[node.function];
        const std::size_t row = t.appendRow();
        rowOf[n] = std::uint32_t(row + 1);
        t.setInteger(row, 0, std::int64_t(node.self));
        t.setDecimal(row, 1, profile.percentOf(node.self), 2);
        t.setInteger(row, 2, std::int64_t(node.total));
        t.setDecimal(row, 3, profile.percentOf(node.total), 2);
        t.setInteger(row, 4, node.depth);
        setFunctionCells(t, row, 5, f);
        t.setInteger(row, 7, rowOf[n]);
        t.setInteger(row, 8, node.parent == 0 ? 0 : rowOf[node.parent]);
    }
    if (profile.withoutCallchain)
        t.notes << QStringLiteral("%1 samples in scope have no callchain and are not counted").arg(profile.withoutCallchain);
    return t;
}

} // namespace

ResultTable samplingFlatTable(const SamplingProfile &profile)
{
    ResultTable t = declaredTable(QStringLiteral("cpu_sampling_flat"));
    t.headers = {QStringLiteral("Self Samples"), QStringLiteral("Self (%)"), QStringLiteral("Total Samples"),
                 QStringLiteral("Total (%)"),    QStringLiteral("Function"), QStringLiteral("Module")};
    const std::vector<FlatFunction> rows = profile.flat();
    t.reserveRows(rows.size());
    for (const FlatFunction &r : rows) {
        const std::size_t row = t.appendRow();
        t.setInteger(row, 0, std::int64_t(r.self));
        t.setDecimal(row, 1, profile.percentOf(r.self), 2);
        t.setInteger(row, 2, std::int64_t(r.total));
        t.setDecimal(row, 3, profile.percentOf(r.total), 2);
        setFunctionCells(t, row, 4, profile.functions[r.function]);
    }
    if (profile.withoutCallchain)
        t.notes << QStringLiteral("%1 samples in scope have no callchain and are not counted").arg(profile.withoutCallchain);
    return t;
}

ResultTable samplingTopDownTable(const SamplingProfile &profile)
{
    return treeTable(profile, profile.topDown(), declaredTable(QStringLiteral("cpu_sampling_top_down")));
}

ResultTable samplingBottomUpTable(const SamplingProfile &profile)
{
    ResultTable t; // the viewer's, not a report of the command line
    t.name = QStringLiteral("cpu_sampling_bottom_up");
    t.title = QStringLiteral("CPU Sampling: Bottom-Up");
    return treeTable(profile, profile.bottomUp(), std::move(t));
}

} // namespace rankscope::stats
