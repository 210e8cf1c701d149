#include "core/stringtable.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <limits>
#include <stdexcept>

namespace rankscope {

namespace {

constexpr std::size_t kFirstBlockBytes = 4096, kLargestBlockBytes = std::size_t(1) << 20;

} // namespace

std::size_t StringTable::hashOf(std::string_view text)
{
    return std::hash<std::string_view>()(text);
}

StringTable::StringTable()
{
    m_slots.assign(16, 0);
    intern({});
}

const char *StringTable::store(std::string_view text)
{
    if (text.empty())
        return "";
    // Each text is followed by a NUL, as a std::string's is: a view's data()
    // stays a C string for whoever needs one, for 1 B a string.
    const std::size_t bytes = text.size() + 1;
    if (bytes > m_blockBytes - m_blockUsed) {
        // Blocks double up to 1 MiB, so a small trace holds little slack; a
        // longer text gets a block of its own.
        m_blockBytes = std::max(std::min(std::max(m_blockBytes * 2, kFirstBlockBytes), kLargestBlockBytes), bytes);
        m_blocks.push_back(std::make_unique_for_overwrite<char[]>(m_blockBytes));
        m_allocatedBytes += m_blockBytes;
        m_blockUsed = 0;
    }
    char *at = m_blocks.back().get() + m_blockUsed;
    std::memcpy(at, text.data(), text.size());
    at[text.size()] = '\0';
    m_blockUsed += bytes;
    return at;
}

std::size_t StringTable::slotOf(std::string_view text) const
{
    const std::size_t mask = m_slots.size() - 1;
    for (std::size_t slot = hashOf(text) & mask;; slot = (slot + 1) & mask) {
        const std::uint32_t entry = m_slots[slot];
        if (entry == 0 || view(entry - 1) == text)
            return slot;
    }
}

void StringTable::growSlots()
{
    rebuildSlots(m_slots.size() * 2);
}

void StringTable::rebuildSlots(std::size_t slotCount)
{
    Column<std::uint32_t> grown(slotCount, 0);
    const std::size_t mask = grown.size() - 1;
    for (StringId id = 0; id < size(); ++id) {
        std::size_t slot = hashOf(view(id)) & mask;
        while (grown[slot] != 0)
            slot = (slot + 1) & mask;
        grown[slot] = id + 1;
    }
    m_slots = std::move(grown);
}

void StringTable::copyMappedTexts()
{
    const std::size_t count = size();
    Column<std::uint64_t> offsets = std::move(m_mappedOffset);
    Column<char> texts = std::move(m_mappedText);
    m_mappedOffset = {};
    m_mappedText = {};
    m_begin.reserve(count);
    m_length.reserve(count);
    for (std::size_t id = 0; id < count; ++id) {
        const std::string_view text(texts.data() + offsets[id], offsets[id + 1] - offsets[id] - 1);
        m_begin.push_back(store(text));
        m_length.push_back(std::uint32_t(text.size()));
    }
    m_slots.reserve(m_slots.size()); // an own copy: intern() writes to it
}

StringId StringTable::intern(std::string_view text)
{
    if (isMapped())
        copyMappedTexts();
    const std::size_t slot = slotOf(text);
    if (m_slots[slot] != 0)
        return m_slots[slot] - 1;
    if (m_begin.size() >= std::numeric_limits<StringId>::max() - 1 || text.size() > std::numeric_limits<std::uint32_t>::max())
        throw std::length_error("string table full"); // 4 billion distinct strings, or one of 4 GiB
    const auto id = StringId(m_begin.size());
    m_begin.push_back(store(text));
    m_length.push_back(std::uint32_t(text.size()));
    m_slots[slot] = id + 1;
    if (2 * m_begin.size() > m_slots.size())
        growSlots();
    return id;
}

std::optional<StringId> StringTable::find(std::string_view text) const
{
    const std::uint32_t entry = m_slots[slotOf(text)];
    return entry != 0 ? std::optional<StringId>(entry - 1) : std::nullopt;
}

std::string_view StringTable::view(StringId id) const
{
    if (isMapped())
        return id + 1 < m_mappedOffset.size()
                   ? std::string_view(m_mappedText.data() + m_mappedOffset[id], m_mappedOffset[id + 1] - m_mappedOffset[id] - 1)
                   : std::string_view();
    return id < m_begin.size() ? std::string_view(m_begin[id], m_length[id]) : std::string_view();
}

QString StringTable::string(StringId id) const
{
    const std::string_view text = view(id);
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

std::size_t StringTable::memoryBytes() const
{
    return m_allocatedBytes + m_begin.capacity() * sizeof(const char *) + m_length.capacity() * sizeof(std::uint32_t)
           + m_slots.capacity() * sizeof(std::uint32_t) + m_mappedOffset.capacity() * sizeof(std::uint64_t) + m_mappedText.capacity() + m_blocks.capacity() * sizeof(std::unique_ptr<char[]>);
}

} // namespace rankscope
