#include "core/narrowing.h"
#include "load/nsys/nsysreaders.h"

namespace rankscope::nsys {

void readUnifiedMemoryFaults(NsysLoadContext &ctx)
{
    // The host's faults: instants, per process (the table names no thread).
    // sourceFile and sourceLine came with nsys 2024; older exports leave them out.
    if (static const char *table = "CUDA_UM_CPU_PAGE_FAULT_EVENTS"; ctx.db.hasTable(table)) {
        enum { Start, Pid, Address, Instruction, Module, SourceFile, SourceLine };
        const std::string sql =
            ctx.db.selectColumns(table, {"start", "globalPid", "address", "CpuInstruction", "module", "sourceFile", "sourceLine"});
        const StringId name = ctx.intern("CPU page fault");
        ctx.reserveFor(ctx.report.umCpuFaults, table);
        ctx.forEachRow(table, sql, [&](const SqliteStatement &row) {
            const TimeNs start = row.int64(Start);
            if (!ctx.checkedStart(table, start))
                return;
            UmCpuFaultRecord f;
            f.address = std::uint64_t(row.int64(Address));
            f.instruction = row.isNull(Instruction) ? StringTable::kEmpty : ctx.mapString(row.int64(Instruction));
            f.module = row.isNull(Module) ? StringTable::kEmpty : ctx.mapString(row.int64(Module));
            f.sourceFile = row.isNull(SourceFile) ? StringTable::kEmpty : ctx.mapString(row.int64(SourceFile));
            f.sourceLine = row.isNull(SourceLine) ? -1 : saturate<std::int32_t>(row.int64(SourceLine));
            // The process's own track: its globalPid's thread bits are 0.
            ctx.hostTrack(TrackKind::UmCpuPageFault, row.int64(Pid) & ~std::int64_t(0xFFFFFF))
                .slices.append(start, start, name, std::uint32_t(ctx.report.umCpuFaults.size()));
            ctx.report.umCpuFaults.push_back(f);
        });
    }
    // A GPU's faults: ranges on the device, each the faults it grouped on one page.
    if (static const char *table = "CUDA_UM_GPU_PAGE_FAULT_EVENTS"; ctx.isReadableEventTable(table)) {
        enum { Start, End, Pid, Device, Address, Faults, AccessType };
        const std::string sql =
            ctx.db.selectColumns(table, {"start", "end", "globalPid", "deviceId", "address", "numberOfPageFaults", "faultAccessType"});
        const StringId name = ctx.intern("GPU page fault");
        ctx.reserveFor(ctx.report.umGpuFaults, table);
        ctx.forEachRow(table, sql, [&](const SqliteStatement &row) {
            const std::optional<TimeRange> span = ctx.checkedSpan(table, row, Start, End);
            if (!span)
                return;
            UmGpuFaultRecord f;
            f.address = std::uint64_t(row.int64(Address));
            f.faults = saturate<std::uint32_t>(row.int64(Faults));
            f.accessType = saturate<std::uint32_t>(row.int64(AccessType));
            ctx.gpuTrack(TrackKind::UmGpuPageFault, pidOfGlobalId(row.int64(Pid)), saturate<std::int32_t>(row.int64(Device)), 0, 0)
                .slices.append(span->start, span->end, name, std::uint32_t(ctx.report.umGpuFaults.size()));
            ctx.report.umGpuFaults.push_back(f);
        });
    }
}

} // namespace rankscope::nsys
