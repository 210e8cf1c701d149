#pragma once
// Interned strings for one report: events store a 32-bit id, not the text.
#include <QString>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>

namespace rankscope {

using StringId = std::uint32_t;

class StringTable {
public:
    static constexpr StringId kEmpty = 0;

    StringTable();

    // Returns the id of `text`, adding it on first sight. O(1) average.
    StringId intern(std::string_view text);
    std::string_view view(StringId id) const;
    QString string(StringId id) const;
    std::size_t size() const { return m_strings.size(); }
    std::size_t memoryBytes() const;

private:
    // A deque never moves its elements on push_back, so the views used as
    // hash keys stay valid.
    std::deque<std::string> m_strings;
    std::unordered_map<std::string_view, StringId> m_ids;
};

} // namespace rankscope
