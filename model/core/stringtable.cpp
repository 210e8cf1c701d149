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

void StringTable::store(std::string_view text)
{
    // Each text is followed by a NUL, as a std::string's is: a view's data()
    // stays a C string for whoever needs one, for 1 B a string.
    const std::size_t bytes = text.size() + 1;
    if (m_blocks.empty() || bytes > m_blockBytes - m_blockEnd.back()) {
        // Blocks double up to 1 MiB, so a small trace holds little slack; a
        // longer text gets a block of its own.
        m_blockBytes = std::max(std::min(std::max(m_blockBytes * 2, kFirstBlockBytes), kLargestBlockBytes), bytes);
        m_blocks.push_back(std::make_unique_for_overwrite<char[]>(m_blockBytes));
        m_blockEnd.push_back(0);
        m_allocatedBytes += m_blockBytes;
    }
    const std::size_t block = m_blocks.size() - 1, at = m_blockEnd.back();
    char *to = m_blocks.back().get() + at;
    if (!text.empty()) // an empty view's data() may be null, which memcpy must not get
        std::memcpy(to, text.data(), text.size());
    to[text.size()] = '\0';
    m_blockEnd.back() += bytes;
    m_address.push_back((std::uint64_t(block) << 32) | std::uint64_t(at));
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

Column<std::uint32_t> StringTable::buildSlots(std::size_t slotCount) const
{
    Column<std::uint32_t> lookup(slotCount, 0);
    const std::size_t mask = lookup.size() - 1;
    for (StringId id = 0; id < size(); ++id) {
        std::size_t slot = hashOf(view(id)) & mask;
        while (lookup[slot] != 0)
            slot = (slot + 1) & mask;
        lookup[slot] = id + 1;
    }
    return lookup;
}

void StringTable::rebuildSlots(std::size_t slotCount)
{
    m_slots = buildSlots(slotCount);
}

std::size_t StringTable::slotCountFor(std::size_t strings)
{
    std::size_t count = 16;
    while (count < 2 * strings)
        count *= 2;
    return count;
}

void StringTable::releaseLookup()
{
    if (isMapped()) // a mapped table's slots are pages of its cache, not this process's memory
        return;
    m_slots = {};
    m_address.shrink_to_fit();
    m_blockEnd.shrink_to_fit();
}

void StringTable::copyMappedTexts()
{
    const std::size_t count = size();
    Column<std::uint64_t> offsets = std::move(m_mappedOffset);
    Column<char> texts = std::move(m_mappedText);
    m_mappedOffset = {};
    m_mappedText = {};
    m_address.reserve(count);
    for (std::size_t id = 0; id < count; ++id)
        store(std::string_view(texts.data() + offsets[id], offsets[id + 1] - offsets[id] - 1));
    m_slots.reserve(m_slots.size()); // an own copy: intern() writes to it
}

StringId StringTable::intern(std::string_view text)
{
    if (isMapped())
        copyMappedTexts();
    if (m_slots.empty()) // released: a report interns after its load
        rebuildSlots(slotCountFor(size() + 1));
    const std::size_t slot = slotOf(text);
    if (m_slots[slot] != 0)
        return m_slots[slot] - 1;
    if (m_address.size() >= std::numeric_limits<StringId>::max() - 1 || m_blocks.size() >= std::numeric_limits<std::uint32_t>::max()
        || text.size() >= std::numeric_limits<std::uint32_t>::max())
        throw std::length_error("string table full"); // 4 billion distinct strings, or one of 4 GiB
    const auto id = StringId(m_address.size());
    store(text);
    m_slots[slot] = id + 1;
    if (2 * m_address.size() > m_slots.size())
        growSlots();
    return id;
}

std::optional<StringId> StringTable::find(std::string_view text) const
{
    if (m_slots.empty()) {
        for (StringId id = 0; id < size(); ++id)
            if (view(id) == text)
                return id;
        return std::nullopt;
    }
    const std::uint32_t entry = m_slots[slotOf(text)];
    return entry != 0 ? std::optional<StringId>(entry - 1) : std::nullopt;
}

std::string_view StringTable::view(StringId id) const
{
    if (isMapped())
        return id + 1 < m_mappedOffset.size()
                   ? std::string_view(m_mappedText.data() + m_mappedOffset[id], m_mappedOffset[id + 1] - m_mappedOffset[id] - 1)
                   : std::string_view();
    if (id >= m_address.size())
        return {};
    const std::uint64_t address = m_address[id];
    const std::size_t block = std::size_t(address >> 32), at = std::uint32_t(address);
    const std::size_t end = id + 1 < m_address.size() && (m_address[id + 1] >> 32) == block ? std::uint32_t(m_address[id + 1]) : m_blockEnd[block];
    return {m_blocks[block].get() + at, end - at - 1};
}

QString StringTable::string(StringId id) const
{
    const std::string_view text = view(id);
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

std::size_t StringTable::memoryBytes() const
{
    return m_allocatedBytes + m_address.capacity() * sizeof(std::uint64_t) + m_blockEnd.capacity() * sizeof(std::size_t)
           + m_slots.capacity() * sizeof(std::uint32_t) + m_mappedOffset.capacity() * sizeof(std::uint64_t) + m_mappedText.capacity()
           + m_blocks.capacity() * sizeof(std::unique_ptr<char[]>);
}

} // namespace rankscope
