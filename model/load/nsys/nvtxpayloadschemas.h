#pragma once
// NVTX extended payloads: the schemas an export describes in
// NVTX_PAYLOAD_SCHEMAS / NVTX_PAYLOAD_SCHEMA_ENTRIES and the decoding of
// an NVTX row's binaryData with them (entry types and sizes as NVTX's
// payload extension header nvToolsExtPayload.h defines them). NCCL
// annotates its calls this way: communicator, message size, peer, root.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rankscope {

class SqliteDatabase;

struct PayloadField {
    std::string name;       // the schema entry's label ("Message size [bytes]")
    std::uint64_t bits = 0; // the value: integers sign-extended, floats as double bits
    enum class Kind : std::uint8_t { Signed, Unsigned, Double, Enum, Address } kind = Kind::Unsigned;

    std::int64_t asInt() const { return std::int64_t(bits); }
    double asDouble() const;
    // "4096", "-1", "0x7f3a…" (addresses and communicator ids), enum
    // values by name when the schema's domain is NCCL's.
    std::string text() const;
};

class NvtxPayloadSchemas {
public:
    // Reads the schema tables when present; an export without them decodes nothing.
    void read(SqliteDatabase &db);
    bool isEmpty() const { return m_schemas.empty(); }

    // The fields of one row's binary payload in domain `domainId`. The blob
    // is either the bare struct of one schema, or NVTX's payload data record
    // (schema id, size, then the struct); when several schemas fit the
    // bare struct, the one whose entries suit the range's name wins (NCCL's
    // send and receive carry a peer, broadcast and reduce a root). Empty
    // when no schema fits.
    std::vector<PayloadField> decode(std::int64_t domainId, std::string_view blob, std::string_view rangeName) const;

    struct Entry {
        std::uint64_t type = 0;
        std::string name;
        std::uint64_t offset = 0;
        bool hasOffset = false;
    };
    struct Schema {
        std::uint64_t id = 0;
        std::uint64_t payloadSize = 0;
        std::vector<Entry> entries; // by index
    };

private:
    const Schema *pick(std::int64_t domainId, std::string_view &blob, std::string_view rangeName) const;
    // (domainId, schemaId) -> schema; an export repeats them per process.
    std::map<std::pair<std::int64_t, std::uint64_t>, Schema> m_schemas;
};

// One line per field, "name: value", joined by '\n' (the Details dock shows one row each).
std::string formatPayloadFields(const std::vector<PayloadField> &fields);

// The value of the field labelled `name`, if the payload has it.
std::optional<std::int64_t> payloadValue(const std::vector<PayloadField> &fields, std::string_view name);

} // namespace rankscope
