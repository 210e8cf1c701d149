#include "core/stringtable.h"

namespace rankscope {

StringTable::StringTable()
{
    intern({});
}

StringId StringTable::intern(std::string_view text)
{
    if (auto it = m_ids.find(text); it != m_ids.end())
        return it->second;
    const auto id = static_cast<StringId>(m_strings.size());
    const std::string &stored = m_strings.emplace_back(text);
    m_ids.emplace(std::string_view(stored), id);
    return id;
}

std::string_view StringTable::view(StringId id) const
{
    return id < m_strings.size() ? std::string_view(m_strings[id]) : std::string_view();
}

QString StringTable::string(StringId id) const
{
    const std::string_view text = view(id);
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

std::size_t StringTable::memoryBytes() const
{
    std::size_t bytes = m_strings.size() * (sizeof(std::string) + sizeof(std::string_view) + 16);
    for (const std::string &s : m_strings)
        if (s.capacity() > 15)
            bytes += s.capacity() + 1;
    return bytes;
}

} // namespace rankscope
