#include "stats/nsys/umreports.h"
#include "stats/reportcatalog.h"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <tuple>
#include <vector>

namespace rankscope::stats {

namespace {

// nsys' copy kinds of a unified-memory migration (ENUM_CUDA_MEMCPY_OPER).
constexpr std::uint8_t kUnifiedHtoD = 11, kUnifiedDtoH = 12;

struct Migrated {
    std::int64_t bytes = 0;
    std::int64_t duration = 0;
};

// One direction's migrations by virtual address; a copy without one is
// kept apart, as SQL's GROUP BY puts NULL in a group no join matches.
struct Migrations {
    std::map<std::uint64_t, Migrated> byAddress;
    std::optional<Migrated> withoutAddress;
    std::int64_t rows = 0;
    Migrated &at(std::uint64_t address)
    {
        return address == MemcpyRecord::kNoAddress ? withoutAddress.emplace(withoutAddress.value_or(Migrated{})) : byAddress[address];
    }
};

struct UnifiedMemory {
    std::map<std::uint64_t, std::int64_t> cpuFaults, gpuFaults; // by address
    std::int64_t cpuFaultRows = 0, gpuFaultRows = 0;
    Migrations toDevice, toHost;
};

UnifiedMemory unifiedMemoryOf(const Report &report)
{
    UnifiedMemory um;
    for (const Track &track : report.tracks) {
        const SliceTrack &s = track.slices;
        for (std::size_t i = 0; i < s.size(); ++i) {
            switch (track.kind) {
            case TrackKind::UmCpuPageFault:
                ++um.cpuFaults[report.umCpuFaults[s.payload(i)].address];
                ++um.cpuFaultRows;
                break;
            case TrackKind::UmGpuPageFault: {
                const UmGpuFaultRecord &f = report.umGpuFaults[s.payload(i)];
                um.gpuFaults[f.address] += f.faults;
                ++um.gpuFaultRows;
                break;
            }
            case TrackKind::Memcpy: {
                const MemcpyRecord &m = report.memcpys[s.payload(i)];
                if (m.copyKindId != kUnifiedHtoD && m.copyKindId != kUnifiedDtoH)
                    break;
                Migrations &side = m.copyKindId == kUnifiedHtoD ? um.toDevice : um.toHost;
                Migrated &at = side.at(m.virtualAddress);
                at.bytes += std::int64_t(m.bytes);
                at.duration += s.duration(i);
                ++side.rows;
                break;
            }
            default:
                break;
            }
        }
    }
    return um;
}

Cell optionalInteger(const std::optional<std::int64_t> &v)
{
    return v ? Cell::ofInteger(*v) : Cell{};
}

Cell addressCell(std::uint64_t address)
{
    return Cell::ofInteger(std::int64_t(address)); // as SQLite stores it
}

// One um_sum row's migrations: bytes each way and their throughput, as
// nsys' query computes it in integers, (HtoD + DtoH) * (10^9 / total
// duration), the division truncating and NULL for a zero duration.
struct MigrationRow {
    std::optional<std::int64_t> toDevice, toHost, throughput;
};

MigrationRow migrationRow(const Migrated *toDevice, const Migrated *toHost)
{
    MigrationRow row;
    std::int64_t bytes = 0, duration = 0;
    if (toDevice)
        row.toDevice = toDevice->bytes, bytes += toDevice->bytes, duration += toDevice->duration;
    if (toHost)
        row.toHost = toHost->bytes, bytes += toHost->bytes, duration += toHost->duration;
    if (duration != 0)
        row.throughput = bytes * (1'000'000'000 / duration);
    return row;
}

template <class Map>
const typename Map::mapped_type *find(const Map &map, std::uint64_t key)
{
    const auto it = map.find(key);
    return it == map.end() ? nullptr : &it->second;
}

} // namespace

ResultTable umSum(const Report &report, int rows)
{
    ResultTable t = declaredTable(QStringLiteral("um_sum"));
    // nsys' query names the fifth column with a leading space.
    t.headers = QStringList{QStringLiteral("Virtual Address"), QStringLiteral("HtoD Migration size"), QStringLiteral("DtoH Migration size"),
                            QStringLiteral("CPU Page Faults"), QStringLiteral(" GPU Page Faults"),    QStringLiteral("Migration Throughput")};
    const UnifiedMemory um = unifiedMemoryOf(report);
    struct Row {
        std::optional<std::uint64_t> address;
        MigrationRow migration;
        std::optional<std::int64_t> cpuFaults, gpuFaults;
    };
    std::vector<Row> out;
    const auto faultsAt = [&](std::uint64_t address, Row &row) {
        if (const std::int64_t *n = find(um.cpuFaults, address))
            row.cpuFaults = *n;
        if (const std::int64_t *n = find(um.gpuFaults, address))
            row.gpuFaults = *n;
    };
    const auto migrationAt = [&](std::uint64_t address) -> std::optional<MigrationRow> {
        const Migrated *toDevice = find(um.toDevice.byAddress, address), *toHost = find(um.toHost.byAddress, address);
        if (!toDevice && !toHost)
            return std::nullopt;
        return migrationRow(toDevice, toHost);
    };
    // Addresses that faulted (on the CPU, then only on the GPU), each with
    // its migrations; then the addresses that only migrated.
    for (const auto &[address, n] : um.cpuFaults) {
        Row row{address, migrationAt(address).value_or(MigrationRow{}), {}, {}};
        faultsAt(address, row);
        out.push_back(row);
    }
    for (const auto &[address, n] : um.gpuFaults)
        if (!um.cpuFaults.count(address)) {
            Row row{address, migrationAt(address).value_or(MigrationRow{}), {}, {}};
            faultsAt(address, row);
            out.push_back(row);
        }
    const auto migratedOnly = [&](std::uint64_t address) { return !um.cpuFaults.count(address) && !um.gpuFaults.count(address); };
    if (um.toHost.withoutAddress)
        out.push_back({std::nullopt, migrationRow(nullptr, &*um.toHost.withoutAddress), {}, {}});
    for (const auto &[address, migrated] : um.toHost.byAddress)
        if (migratedOnly(address))
            out.push_back({address, *migrationAt(address), {}, {}});
    if (um.toDevice.withoutAddress)
        out.push_back({std::nullopt, migrationRow(&*um.toDevice.withoutAddress, nullptr), {}, {}});
    for (const auto &[address, migrated] : um.toDevice.byAddress)
        if (migratedOnly(address) && !um.toHost.byAddress.count(address))
            out.push_back({address, *migrationAt(address), {}, {}});
    // The highest throughput first; rows without one (no migration) last.
    std::stable_sort(out.begin(), out.end(), [](const Row &a, const Row &b) {
        return a.migration.throughput.value_or(std::numeric_limits<std::int64_t>::min())
               > b.migration.throughput.value_or(std::numeric_limits<std::int64_t>::min());
    });
    if (rows >= 0 && out.size() > std::size_t(rows))
        out.resize(std::size_t(rows));
    for (const Row &row : out)
        t.addRow({row.address ? addressCell(*row.address) : Cell{}, optionalInteger(row.migration.toDevice), optionalInteger(row.migration.toHost),
                  optionalInteger(row.cpuFaults), optionalInteger(row.gpuFaults), optionalInteger(row.migration.throughput)});
    return t;
}

ResultTable umTotalSum(const Report &report)
{
    ResultTable t = declaredTable(QStringLiteral("um_total_sum"));
    // nsys' query spells the fourth header without a space.
    t.headers = QStringList{QStringLiteral("Total HtoD Migration Size"), QStringLiteral("Total DtoH Migration Size"),
                            QStringLiteral("Total CPU Page Faults"),     QStringLiteral("Total GPU PageFaults"),
                            QStringLiteral("Minimum Virtual Address"),   QStringLiteral("Maximum Virtual Address")};
    const UnifiedMemory um = unifiedMemoryOf(report);
    if (um.cpuFaultRows == 0 && um.gpuFaultRows == 0 && um.toDevice.rows == 0 && um.toHost.rows == 0)
        return t; // nothing unified memory did: nsys prints no table either
    const auto total = [](const Migrations &m) -> std::optional<std::int64_t> {
        if (m.rows == 0)
            return std::nullopt;
        std::int64_t bytes = m.withoutAddress ? m.withoutAddress->bytes : 0;
        for (const auto &[address, migrated] : m.byAddress)
            bytes += migrated.bytes;
        return bytes;
    };
    std::optional<std::int64_t> gpuFaults;
    if (um.gpuFaultRows > 0) {
        gpuFaults = 0;
        for (const auto &[address, n] : um.gpuFaults)
            *gpuFaults += n;
    }
    // nsys takes SQL's min() and max() of the four sources' own extremes,
    // which are NULL when any source has none: the range then stays empty.
    std::optional<std::pair<std::uint64_t, std::uint64_t>> range;
    const auto extremes = [](const auto &byAddress) -> std::optional<std::pair<std::uint64_t, std::uint64_t>> {
        if (byAddress.empty())
            return std::nullopt;
        return std::pair(byAddress.begin()->first, byAddress.rbegin()->first);
    };
    const std::optional<std::pair<std::uint64_t, std::uint64_t>> sources[] = {extremes(um.cpuFaults), extremes(um.gpuFaults),
                                                                              extremes(um.toDevice.byAddress), extremes(um.toHost.byAddress)};
    if (std::all_of(std::begin(sources), std::end(sources), [](const auto &s) { return s.has_value(); })) {
        range = sources[0];
        for (const auto &s : sources) {
            // As stored: SQLite compares the addresses as signed 64-bit integers.
            range->first = std::int64_t(s->first) < std::int64_t(range->first) ? s->first : range->first;
            range->second = std::int64_t(s->second) > std::int64_t(range->second) ? s->second : range->second;
        }
    }
    t.addRow({optionalInteger(total(um.toDevice)), optionalInteger(total(um.toHost)), Cell::ofInteger(um.cpuFaultRows), optionalInteger(gpuFaults),
              range ? addressCell(range->first) : Cell{}, range ? addressCell(range->second) : Cell{}});
    return t;
}

ResultTable umCpuPageFaultsSum(const Report &report)
{
    ResultTable t = declaredTable(QStringLiteral("um_cpu_page_faults_sum"));
    t.headers = QStringList{QStringLiteral("CPU Page Faults"), QStringLiteral("CPU Instruction Address"), QStringLiteral("Source File"),
                            QStringLiteral("Source Line")};
    std::map<std::tuple<StringId, StringId, std::int32_t>, std::int64_t> faults; // by instruction, file and line
    for (const Track &track : report.tracks)
        if (track.kind == TrackKind::UmCpuPageFault)
            for (std::size_t i = 0; i < track.slices.size(); ++i) {
                const UmCpuFaultRecord &f = report.umCpuFaults[track.slices.payload(i)];
                ++faults[{f.instruction, f.sourceFile, f.sourceLine}];
            }
    using Group = std::pair<std::tuple<StringId, StringId, std::int32_t>, std::int64_t>;
    std::vector<Group> groups(faults.begin(), faults.end());
    // The most first; ties by instruction, file and line as text, so the order does not hang on string ids.
    std::sort(groups.begin(), groups.end(), [&](const Group &a, const Group &b) {
        if (a.second != b.second)
            return a.second > b.second;
        const auto &[ai, af, al] = a.first;
        const auto &[bi, bf, bl] = b.first;
        return std::tuple(report.strings.view(ai), report.strings.view(af), al) < std::tuple(report.strings.view(bi), report.strings.view(bf), bl);
    });
    for (const auto &[key, n] : groups) {
        const auto &[instruction, file, line] = key;
        const std::size_t row = t.appendRow();
        t.setInteger(row, 0, n);
        if (instruction != StringTable::kEmpty)
            t.setReportText(row, 1, report, instruction);
        if (file != StringTable::kEmpty)
            t.setReportText(row, 2, report, file);
        if (line >= 0)
            t.setInteger(row, 3, line);
    }
    return t;
}

} // namespace rankscope::stats
