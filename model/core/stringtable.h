#pragma once
// Interned strings: each distinct text once, named by a dense 32-bit id.
//
// Real traces can hold a distinct text for nearly every event (emit_nvtx
// writes "aten::linear, seq = 12, op_id = 345, sizes = [...]" per op), so a
// string costs its bytes and a NUL plus 12 B of index and a 4 B hash slot:
// the texts lie back to back in blocks that never move, and the hash set
// holds ids only, comparing against the stored text. A std::string and a hash node
// per text cost about 110 B more.
#include <QString>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace rankscope {

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
    std::size_t size() const { return m_begin.size(); }
    std::size_t memoryBytes() const;

private:
    const char *store(std::string_view text);
    void growSlots();
    std::size_t slotOf(std::string_view text) const; // where text is or goes

    std::vector<std::unique_ptr<char[]>> m_blocks;
    std::size_t m_blockBytes = 0, m_blockUsed = 0, m_allocatedBytes = 0;
    std::vector<const char *> m_begin;  // per id
    std::vector<std::uint32_t> m_length; // per id
    std::vector<std::uint32_t> m_slots; // id + 1, 0 empty; a power of two, at most half full
};

} // namespace rankscope
