#pragma once
// Interned strings: each distinct text once, named by a dense 32-bit id.
//
// Real traces can hold a distinct text for nearly every event (emit_nvtx
// writes "aten::linear, seq = 12, op_id = 345, sizes = [...]" per op), so a
// string costs its bytes and a NUL plus 8 B of address: the texts lie back
// to back in blocks that never move, in id order, so a text ends where the
// next one begins. While a table is built, a hash set of ids (4 B slots,
// at most half full, comparing against the stored text) finds repeats;
// a loaded report lets it go (releaseLookup()). A std::string and a hash
// node per text cost about 110 B more.
#include "core/column.h"

#include <QString>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace rankscope {

struct ReportCacheAccess;

using StringId = std::uint32_t;

class StringTable {
public:
    static constexpr StringId kEmpty = 0;

    StringTable();
    StringTable(StringTable &&) noexcept = default;
    StringTable &operator=(StringTable &&) noexcept = default;

    // Returns the id of `text`, adding it on first sight. O(1) average.
    // Views returned by view() stay valid while the table grows.
    StringId intern(std::string_view text);
    std::string_view view(StringId id) const;
    // The id of `text` if the table holds it; nothing is added.
    std::optional<StringId> find(std::string_view text) const;
    QString string(StringId id) const;
    std::size_t size() const { return isMapped() ? m_mappedOffset.size() - 1 : m_address.size(); }
    std::size_t memoryBytes() const;
    // Frees the lookup slots and spare capacity once nothing more is
    // interned (a loaded report); intern() builds them again if it is
    // called after all, and find() then reads every text.
    void releaseLookup();

    // The index cache (load/cache/) writes and maps every member.
    friend struct ReportCacheAccess;

private:
    // Texts mapped from an index cache: id i is bytes [offset[i], offset[i + 1] - 1)
    // of `mappedText`, each followed by its NUL. intern() copies them into
    // blocks first (a loaded report never interns).
    bool isMapped() const { return !m_mappedOffset.empty(); }
    void copyMappedTexts();

    void store(std::string_view text); // appends it as the next id
    void growSlots();
    void rebuildSlots(std::size_t slotCount); // a power of two
    Column<std::uint32_t> buildSlots(std::size_t slotCount) const;
    static std::size_t slotCountFor(std::size_t strings); // at most half full
    // Where a text goes in the slots; an index cache built with another hash
    // function has its slots rebuilt.
    static std::size_t hashOf(std::string_view text);
    std::size_t slotOf(std::string_view text) const; // where text is or goes

    std::vector<std::unique_ptr<char[]>> m_blocks;
    std::vector<std::size_t> m_blockEnd; // per block: bytes used
    std::size_t m_blockBytes = 0, m_allocatedBytes = 0;
    // Per id: (block << 32) | offset in the block. Its length is up to the
    // next id's offset in the same block, or the block's end.
    Column<std::uint64_t> m_address;
    Column<std::uint32_t> m_slots;        // id + 1, 0 empty; a power of two, at most half full; empty once released
    Column<std::uint64_t> m_mappedOffset; // per id, and one past the last
    Column<char> m_mappedText;
};

} // namespace rankscope
