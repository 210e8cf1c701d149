#pragma once
// Interned strings: each distinct text once, named by a dense 32-bit id.
//
// Real traces can hold a distinct text for nearly every event (emit_nvtx
// writes "aten::linear, seq = 12, op_id = 345, sizes = [...]" per op), so a
// string costs its bytes and a NUL plus 12 B of index and a 4 B hash slot:
// the texts lie back to back in blocks that never move, and the hash set
// holds ids only, comparing against the stored text. A std::string and a hash node
// per text cost about 110 B more.
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
    std::size_t size() const { return isMapped() ? m_mappedOffset.size() - 1 : m_begin.size(); }
    std::size_t memoryBytes() const;

    // The index cache (load/cache/) writes and maps every member.
    friend struct ReportCacheAccess;

private:
    // Texts mapped from an index cache: id i is bytes [offset[i], offset[i + 1] - 1)
    // of `mappedText`, each followed by its NUL. intern() copies them into
    // blocks first (a loaded report never interns).
    bool isMapped() const { return !m_mappedOffset.empty(); }
    void copyMappedTexts();

    const char *store(std::string_view text);
    void growSlots();
    void rebuildSlots(std::size_t slotCount); // a power of two
    // Where a text goes in the slots; an index cache built with another hash
    // function has its slots rebuilt.
    static std::size_t hashOf(std::string_view text);
    std::size_t slotOf(std::string_view text) const; // where text is or goes

    std::vector<std::unique_ptr<char[]>> m_blocks;
    std::size_t m_blockBytes = 0, m_blockUsed = 0, m_allocatedBytes = 0;
    std::vector<const char *> m_begin;  // per id
    std::vector<std::uint32_t> m_length; // per id
    Column<std::uint32_t> m_slots; // id + 1, 0 empty; a power of two, at most half full
    Column<std::uint64_t> m_mappedOffset; // per id, and one past the last
    Column<char> m_mappedText;
};

} // namespace rankscope
