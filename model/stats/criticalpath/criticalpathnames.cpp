#include "stats/criticalpath/criticalpathnames.h"

#include "stats/diagnosis/diagnosisloop.h"

namespace rankscope::stats {

PathNameClasses::PathNameClasses(const Session &session, KernelClassifier classes) : m_session(session), m_classes(std::move(classes))
{
    for (const RankEntry &entry : session.ranks()) {
        const std::size_t size = entry.report->strings.size();
        m_known.push_back(std::make_unique<std::atomic<std::uint8_t>[]>(size)); // zeroed: nothing known
        m_sizes.push_back(size);
    }
}

std::uint8_t PathNameClasses::decided(int rankIndex, StringId name, Bits known, Bits answer,
                                      bool (*decide)(const PathNameClasses &, std::string_view)) const
{
    const auto r = std::size_t(rankIndex);
    const auto text = [&] { return m_session.ranks()[r].report->strings.view(name); };
    if (name >= m_sizes[r]) // not in the table as it was when this was made
        return decide(*this, text()) ? answer : 0;
    std::atomic<std::uint8_t> &slot = m_known[r][name];
    std::uint8_t bits = slot.load(std::memory_order_relaxed);
    if (!(bits & known)) {
        bits = std::uint8_t(known | (decide(*this, text()) ? answer : 0));
        slot.fetch_or(bits, std::memory_order_relaxed);
    }
    return bits & answer;
}

bool PathNameClasses::isCommunication(int rankIndex, StringId name) const
{
    return decided(rankIndex, name, kClassKnown, kCommunication,
                   [](const PathNameClasses &self, std::string_view text) { return self.m_classes.classify(text) == KernelClass::Communication; });
}

bool PathNameClasses::isDataLoader(int rankIndex, StringId name) const
{
    return decided(rankIndex, name, kLoaderKnown, kLoader, [](const PathNameClasses &, std::string_view text) { return isDataLoadingName(text); });
}

} // namespace rankscope::stats
