#include "load/nsys/nvtxpayloadschemas.h"

#include "core/asciitext.h"
#include "load/nsys/sqlitedatabase.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <cstdio>
#include <cstring>

namespace rankscope {

namespace {

// nvToolsExtPayload.h, NVTX_PAYLOAD_ENTRY_TYPE_*: the predefined types.
enum EntryType : std::uint64_t {
    Char = 1,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    LongLong,
    ULongLong,
    Int8,
    UInt8,
    Int16,
    UInt16,
    Int32,
    UInt32,
    Int64,
    UInt64,
    Float,
    Double,
    LongDouble,
    Size,
    Address,
    WChar,
    Char8,
    Char16,
    Char32,
    Byte = 32,
};
// Below this, an entry type is predefined; from it on, it names a
// registered schema or enum (NVTX_PAYLOAD_ENTRY_TYPE_SCHEMA_ID_STATIC_START).
constexpr std::uint64_t kFirstSchemaId = std::uint64_t(1) << 24;
constexpr std::uint64_t kEnumSize = 4; // an enum's default size (nvtxPayloadEnumAttr_t)

struct TypeInfo {
    std::uint64_t size = 0;
    PayloadField::Kind kind = PayloadField::Kind::Unsigned;
};

// Sizes on LP64 (Linux x86-64 and aarch64, where the traces come from);
// self-aligned, as the header assumes for entries without an offset.
TypeInfo typeInfo(std::uint64_t type)
{
    using K = PayloadField::Kind;
    switch (type) {
    case Char:
    case Int8:
    case Char8:
        return {1, K::Signed};
    case UChar:
    case UInt8:
    case Byte:
        return {1, K::Unsigned};
    case Short:
    case Int16:
        return {2, K::Signed};
    case UShort:
    case UInt16:
    case Char16:
        return {2, K::Unsigned};
    case Int:
    case Int32:
    case WChar:
        return {4, K::Signed};
    case UInt:
    case UInt32:
    case Char32:
        return {4, K::Unsigned};
    case Long:
    case LongLong:
    case Int64:
        return {8, K::Signed};
    case ULong:
    case ULongLong:
    case UInt64:
    case Size:
        return {8, K::Unsigned};
    case Address:
        return {8, K::Address};
    case Float:
        return {4, K::Double};
    case Double:
        return {8, K::Double};
    default:
        break; // long double, arrays of unknown types: not decoded
    }
    if (type >= kFirstSchemaId)
        return {kEnumSize, K::Enum};
    return {};
}

std::uint64_t alignUp(std::uint64_t offset, std::uint64_t alignment)
{
    return alignment == 0 ? offset : (offset + alignment - 1) / alignment * alignment;
}

// Entry offsets the export left empty follow the self-alignment rule;
// returns the struct's end.
std::uint64_t layOut(NvtxPayloadSchemas::Schema &s)
{
    std::uint64_t end = 0;
    for (NvtxPayloadSchemas::Entry &e : s.entries) {
        const std::uint64_t size = typeInfo(e.type).size;
        if (!e.hasOffset)
            e.offset = alignUp(end, size);
        end = std::max(end, e.offset + size);
    }
    return end;
}

std::uint64_t readUnsigned(const char *at, std::uint64_t size)
{
    std::uint64_t v = 0;
    std::memcpy(&v, at, std::size_t(size)); // little-endian hosts and traces
    return v;
}

bool hasEntry(const NvtxPayloadSchemas::Schema &s, std::string_view name)
{
    return std::any_of(s.entries.begin(), s.entries.end(), [&](const auto &e) { return e.name == name; });
}

bool sameLayout(const NvtxPayloadSchemas::Schema &a, const NvtxPayloadSchemas::Schema &b)
{
    return std::equal(a.entries.begin(), a.entries.end(), b.entries.begin(), b.entries.end(),
                      [](const auto &x, const auto &y) { return x.type == y.type && x.name == y.name && x.offset == y.offset; });
}

// The entry a range of this name carries, in NCCL's schemas: the
// layouts of send/receive (peer) and broadcast/reduce (root) are alike.
std::string_view entryNamedBy(std::string_view rangeName)
{
    const std::string n = asciiLowered(rangeName);
    if (n.find("send") != std::string::npos || n.find("recv") != std::string::npos)
        return "Peer rank";
    if (n.find("allreduce") != std::string::npos || n.find("reducescatter") != std::string::npos)
        return "Reduction operation";
    if (n.find("broadcast") != std::string::npos || n.find("reduce") != std::string::npos)
        return "Root";
    if (n.find("comminit") != std::string::npos)
        return "No. of ranks";
    return {};
}

} // namespace

double PayloadField::asDouble() const
{
    return std::bit_cast<double>(bits);
}

std::string PayloadField::text() const
{
    char buffer[32];
    switch (kind) {
    case Kind::Signed:
        return std::to_string(asInt());
    case Kind::Unsigned:
        if (name.find("ID") != std::string::npos || name.find(" id") != std::string::npos) {
            std::snprintf(buffer, sizeof buffer, "0x%016llx", static_cast<unsigned long long>(bits));
            return buffer;
        }
        return std::to_string(bits);
    case Kind::Address:
        std::snprintf(buffer, sizeof buffer, "0x%llx", static_cast<unsigned long long>(bits));
        return buffer;
    case Kind::Double:
        std::snprintf(buffer, sizeof buffer, "%g", asDouble());
        return buffer;
    case Kind::Enum:
        if (name == "Reduction operation") { // ncclRedOp_t, NCCL's registered enum
            static const char *const ops[] = {"Sum", "Prod", "Max", "Min", "Avg"};
            if (bits < std::size(ops))
                return ops[bits];
        }
        return std::to_string(asInt());
    }
    return {};
}

void NvtxPayloadSchemas::read(SqliteDatabase &db)
{
    m_schemas.clear();
    if (!db.hasTable("NVTX_PAYLOAD_SCHEMAS") || !db.hasTable("NVTX_PAYLOAD_SCHEMA_ENTRIES"))
        return;
    QString error;
    SqliteStatement schemas = db.prepare(db.selectColumns("NVTX_PAYLOAD_SCHEMAS", {"domainId", "schemaId", "payloadSize"}), &error);
    while (schemas.isValid() && schemas.step()) {
        Schema &s = m_schemas[{schemas.int64(0), std::uint64_t(schemas.int64(1))}];
        s.id = std::uint64_t(schemas.int64(1));
        s.payloadSize = std::uint64_t(std::max<std::int64_t>(schemas.int64(2), 0));
    }
    SqliteStatement entries =
        db.prepare(db.selectColumns("NVTX_PAYLOAD_SCHEMA_ENTRIES", {"domainId", "schemaId", "idx", "flags", "type", "name", "offset"}), &error);
    while (entries.isValid() && entries.step()) {
        const auto it = m_schemas.find({entries.int64(0), std::uint64_t(entries.int64(1))});
        const std::int64_t idx = entries.int64(2, -1);
        if (it == m_schemas.end() || idx < 0 || idx > 4096)
            continue;
        std::vector<Entry> &list = it->second.entries;
        if (std::size_t(idx) < list.size() && !list[std::size_t(idx)].name.empty())
            continue; // the same schema registered by another process
        if (list.size() <= std::size_t(idx))
            list.resize(std::size_t(idx) + 1);
        Entry &e = list[std::size_t(idx)];
        // Flagged entries (arrays, pointers, deep copies) have layouts this
        // decoder does not follow: type 0 leaves them out.
        e.type = entries.int64(3) != 0 ? 0 : std::uint64_t(entries.int64(4));
        e.name = std::string(entries.text(5));
        e.hasOffset = !entries.isNull(6) && entries.int64(6) > 0;
        e.offset = std::uint64_t(std::max<std::int64_t>(entries.int64(6), 0));
    }
    for (auto &[key, s] : m_schemas) {
        const std::uint64_t end = layOut(s);
        if (s.payloadSize == 0)
            s.payloadSize = alignUp(end, 8);
    }
}

const NvtxPayloadSchemas::Schema *NvtxPayloadSchemas::pick(std::int64_t domainId, std::string_view &blob, std::string_view rangeName) const
{
    const auto first = m_schemas.lower_bound({domainId, 0});
    const auto last = m_schemas.lower_bound({domainId + 1, 0});
    // NVTX's payload data record: schema id, size, then the struct.
    if (blob.size() >= 16) {
        const std::uint64_t id = readUnsigned(blob.data(), 8), size = readUnsigned(blob.data() + 8, 8);
        const auto it = m_schemas.find({domainId, id});
        if (it != m_schemas.end() && size == blob.size() - 16 && size >= it->second.payloadSize) {
            blob.remove_prefix(16);
            return &it->second;
        }
    }
    std::vector<const Schema *> fitting;
    for (auto it = first; it != last; ++it)
        if (it->second.payloadSize == blob.size() && !it->second.entries.empty())
            fitting.push_back(&it->second);
    if (fitting.size() > 1) {
        const std::string_view wanted = entryNamedBy(rangeName);
        std::vector<const Schema *> suited;
        for (const Schema *s : fitting)
            if (!wanted.empty() && hasEntry(*s, wanted))
                suited.push_back(s);
        if (!suited.empty())
            fitting = std::move(suited);
    }
    if (fitting.empty())
        return nullptr;
    // Several left: only if they read the bytes alike (no guess between layouts).
    for (const Schema *s : fitting)
        if (!sameLayout(*s, *fitting.front()))
            return nullptr;
    return fitting.front();
}

std::vector<PayloadField> NvtxPayloadSchemas::decode(std::int64_t domainId, std::string_view blob, std::string_view rangeName) const
{
    std::vector<PayloadField> fields;
    const Schema *schema = blob.empty() ? nullptr : pick(domainId, blob, rangeName);
    if (!schema)
        return fields;
    for (const Entry &e : schema->entries) {
        const TypeInfo info = typeInfo(e.type);
        if (info.size == 0 || e.offset > blob.size() || info.size > blob.size() - e.offset) // a crafted offset cannot overflow
            continue;
        PayloadField f;
        f.name = e.name;
        f.kind = info.kind;
        const std::uint64_t raw = readUnsigned(blob.data() + e.offset, info.size);
        if (info.kind == PayloadField::Kind::Signed || info.kind == PayloadField::Kind::Enum) {
            const unsigned shift = unsigned(64 - 8 * info.size);
            f.bits = std::uint64_t(std::int64_t(raw << shift) >> shift);
        } else if (info.kind == PayloadField::Kind::Double) {
            f.bits = info.size == 4 ? std::bit_cast<std::uint64_t>(double(std::bit_cast<float>(std::uint32_t(raw)))) : raw;
        } else {
            f.bits = raw;
        }
        fields.push_back(std::move(f));
    }
    return fields;
}

std::string formatPayloadFields(const std::vector<PayloadField> &fields)
{
    std::string out;
    for (const PayloadField &f : fields) {
        if (!out.empty())
            out += '\n';
        out += f.name.empty() ? std::string("(unnamed)") : f.name;
        out += ": ";
        out += f.text();
    }
    return out;
}

std::optional<std::int64_t> payloadValue(const std::vector<PayloadField> &fields, std::string_view name)
{
    for (const PayloadField &f : fields)
        if (f.name == name)
            return f.asInt();
    return std::nullopt;
}

} // namespace rankscope
