#include "theme/theme.h"

namespace rankscope {

using stats::Direction;
using stats::directionOf;

namespace {

// A stable colour per name within a band of hues, so that kernels look
// alike (blues), API calls alike (oranges), and so on.
// A colour from the name's text (FNV-1a), not its id: ids differ between
// reports, and "forward" must look the same on every rank and in every
// session.
QColor hashed(std::string_view name, int saturation, int value, int hueStart, int hueSpan)
{
    std::uint32_t h = 2166136261u;
    for (const char c : name)
        h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
    h ^= h >> 16;
    return QColor::fromHsv(hueStart + int(h % std::uint32_t(hueSpan)), saturation, value);
}

const QColor kUnknown(0x80, 0x80, 0x80);

bool isPageableCopy(const Report &report, const Track &track, std::uint32_t event)
{
    if (track.kind != TrackKind::Memcpy)
        return false;
    return report.memcpys[track.slices.payload(event)].isPageable();
}

} // namespace

QColor Theme::memcpyColor(MemcpyKind kind)
{
    return transferColor(directionOf(kind));
}

QColor Theme::transferColor(Direction direction)
{
    switch (direction) {
    case Direction::HtoD:
        return QColor(0x2e, 0xa0, 0x43);
    case Direction::DtoH:
        return QColor(0xd6, 0x3b, 0x2f);
    case Direction::DtoD:
        return QColor(0xe0, 0x9b, 0x1a);
    case Direction::PtoP:
        return QColor(0x8e, 0x5c, 0xc8);
    case Direction::Other:
        return kUnknown;
    }
    return kUnknown;
}

QColor Theme::pageableTransferColor(Direction direction)
{
    // Another hue, not a shade: beside the pinned colour in a legend a
    // darker green read as the same series.
    switch (direction) {
    case Direction::HtoD:
        return QColor(0xb8, 0xc9, 0x1e); // yellow-green
    case Direction::DtoH:
        return QColor(0xe8, 0x7c, 0xa8); // pink
    default:
        return transferColor(direction).lighter(140);
    }
}

QColor Theme::mpiColor(MpiCallKind kind)
{
    // Paraver's MPI view colours calls by kind; so does Nsight Systems.
    switch (kind) {
    case MpiCallKind::PointToPoint:
        return QColor(0x2a, 0x9d, 0x8f); // teal
    case MpiCallKind::Collective:
        return QColor(0xc0, 0x39, 0x5e); // raspberry
    case MpiCallKind::StartWait:
        return QColor(0xd6, 0x8a, 0x3c); // amber: a rank waiting
    case MpiCallKind::Other:
        return QColor(0x8d, 0x99, 0xae);
    }
    return kUnknown;
}

QColor Theme::kindColor(TrackKind kind)
{
    switch (kind) {
    case TrackKind::OsRuntime:
        return QColor(0x9c, 0x8c, 0x7c);
    case TrackKind::CudaApi:
        return QColor(0xd9, 0xa4, 0x41);
    case TrackKind::CudaLibrary:
        return QColor(0x5f, 0xa8, 0x6b);
    case TrackKind::OpenAcc:
        return QColor(0x4f, 0x9d, 0xa6);
    case TrackKind::OpenMp:
        return QColor(0xa8, 0x7f, 0x5f);
    case TrackKind::Nvtx:
    case TrackKind::CpuOp:
        return QColor(0x6a, 0x8f, 0xc7);
    case TrackKind::Kernel:
        return QColor(0x3b, 0x7d, 0xd8);
    case TrackKind::Memcpy:
        return transferColor(Direction::HtoD);
    case TrackKind::Memset:
        return QColor(0x6b, 0x9a, 0xa8);
    case TrackKind::Sync:
        return QColor(0xb0, 0x4a, 0x4a);
    case TrackKind::NvtxGpuProjection:
        return QColor(0x7b, 0x9b, 0xd0);
    case TrackKind::NcclKernels:
        return QColor(0xa3, 0x4d, 0xb8);
    case TrackKind::Mpi:
        return mpiColor(MpiCallKind::PointToPoint);
    case TrackKind::UmCpuPageFault: // reds: a fault stalls whoever touched the page
        return QColor(0xc8, 0x5a, 0x54);
    case TrackKind::UmGpuPageFault:
        return QColor(0xd0, 0x6e, 0x3a);
    case TrackKind::CudaGraph: // the kernels' blue, lighter: a graph holds kernels
        return QColor(0x6f, 0xa2, 0xe4);
    }
    return kUnknown;
}

QBrush Theme::eventPattern(const Report &report, const Track &track, std::uint32_t event)
{
    return isPageableCopy(report, track, event) ? QBrush(Qt::black, Qt::BDiagPattern) : QBrush(Qt::NoBrush);
}

QColor Theme::eventColor(const Report &report, const Track &track, std::uint32_t event)
{
    switch (track.kind) {
    case TrackKind::Memcpy:
        return memcpyColor(report.memcpys[track.slices.payload(event)].copyKind);
    case TrackKind::Nvtx: {
        const NvtxRecord &n = report.nvtxRecord(track.slices.payload(event));
        if (n.hasColor)
            return QColor::fromRgb(n.color | 0xFF000000u);
        return hashed(report.strings.view(track.slices.name(event)), 90, 215, 190, 80);
    }
    case TrackKind::Mpi:
        return mpiColor(report.mpiCalls[track.slices.payload(event)].kind);
    case TrackKind::CpuOp: // as the NVTX ranges emit_nvtx would have recorded for them
        return hashed(report.strings.view(track.slices.name(event)), 90, 215, 190, 80);
    case TrackKind::NvtxGpuProjection: {
        const NvtxRecord &n = report.nvtxRecord(report.nvtxProjections[track.slices.payload(event)].nvtxRow);
        if (n.hasColor)
            return QColor::fromRgb(n.color | 0xFF000000u).lighter(115);
        return hashed(report.strings.view(track.slices.name(event)), 70, 225, 190, 80);
    }
    case TrackKind::Kernel:
        return hashed(report.strings.view(track.slices.name(event)), 150, 210, 195, 50);
    case TrackKind::NcclKernels:
        return hashed(report.strings.view(track.slices.name(event)), 140, 200, 270, 40);
    case TrackKind::CudaApi:
        return hashed(report.strings.view(track.slices.name(event)), 150, 225, 30, 25);
    case TrackKind::OsRuntime:
        return hashed(report.strings.view(track.slices.name(event)), 40, 190, 20, 30);
    case TrackKind::CudaLibrary: // greens: cuDNN and cuBLAS beside the CUDA API's ambers
        return hashed(report.strings.view(track.slices.name(event)), 110, 200, 115, 40);
    case TrackKind::OpenAcc: // teals
        return hashed(report.strings.view(track.slices.name(event)), 110, 200, 170, 30);
    case TrackKind::OpenMp: // browns
        return hashed(report.strings.view(track.slices.name(event)), 90, 200, 20, 25);
    case TrackKind::CudaGraph: // each graph its own blue
        return hashed(report.strings.view(track.slices.name(event)), 150, 220, 200, 40);
    default:
        return kindColor(track.kind);
    }
}

QColor Theme::moduleColor(std::string_view module)
{
    return module.empty() ? kUnknown : hashed(module, 110, 200, 0, 360);
}

QColor Theme::threadStateColor(std::uint8_t state)
{
    switch (state) {
    case 1:
        return QColor(0x3c, 0xa0, 0x50); // Running
    case 2:                              // Interruptible
    case 7:
        return QColor(0x8a, 0x9a, 0xb0); // Waiting
    case 3:
        return QColor(0xd0, 0x60, 0x40); // Uninterruptible (I/O)
    case 8:
        return QColor(0xc0, 0x90, 0x30); // in an OS runtime call
    default:
        return kUnknown;
    }
}

QColor Theme::textColorOn(const QColor &background)
{
    return background.lightnessF() > 0.55 ? Qt::black : Qt::white;
}

QColor Theme::selectionShade(int alpha) const
{
    QColor shade = m_palette.color(QPalette::Highlight);
    shade.setAlpha(alpha);
    return shade;
}

QColor Theme::standoutCellBackground() const
{
    // A salmon that keeps the palette's text readable: pale on a light
    // base, deep on a dark one.
    return isDark() ? QColor(0x8a, 0x3a, 0x2e) : QColor(0xf2, 0x9e, 0x8e);
}

QColor Theme::adviceBackground() const
{
    return isDark() ? QColor(0x4d, 0x3d, 0x00) : QColor(0xff, 0xf3, 0xcd);
}

QColor Theme::adviceText() const
{
    return isDark() ? QColor(0xff, 0xe6, 0x9c) : QColor(0x66, 0x4d, 0x03);
}

QColor Theme::errorText() const
{
    return isDark() ? QColor(0xff, 0x6b, 0x6b) : QColor(0xc0, 0x1c, 0x1c);
}

QColor Theme::seriesColor(int index)
{
    static const QColor colours[] = {kindColor(TrackKind::Kernel), QColor(0xe0, 0x7b, 0x1a), transferColor(Direction::HtoD),
                                     transferColor(Direction::PtoP)};
    return colours[index % 4];
}

QColor Theme::neutralSeriesColor()
{
    return kindColor(TrackKind::OsRuntime);
}

QColor EventColorCache::color(const Report &report, const Track &track, std::uint32_t event)
{
    // Copies are coloured by direction and NVTX ranges may carry their own
    // colour: both are cheap and per event, not per name.
    if (track.kind == TrackKind::Memcpy)
        return Theme::eventColor(report, track, event);
    if (track.kind == TrackKind::Nvtx && report.nvtxRecord(track.slices.payload(event)).hasColor)
        return Theme::eventColor(report, track, event);
    if (track.kind == TrackKind::NvtxGpuProjection && report.nvtxRecord(report.nvtxProjections[track.slices.payload(event)].nvtxRow).hasColor)
        return Theme::eventColor(report, track, event);
    if (m_lastReport != &report || !m_last) {
        m_last = &m_reports[&report];
        m_lastReport = &report;
    }
    QHash<StringId, QRgb> &names = track.kind == TrackKind::NvtxGpuProjection ? m_last->projected : m_last->other;
    const StringId name = track.slices.name(event);
    if (const auto known = names.constFind(name); known != names.constEnd())
        return QColor::fromRgba(*known);
    if (names.size() >= kMostNames)
        names.clear();
    const QRgb color = Theme::eventColor(report, track, event).rgba();
    names.insert(name, color);
    return QColor::fromRgba(color);
}

QColor Theme::pathKindColor(stats::PathKind kind)
{
    // Tableau's ten, one per kind: compute green, communication red, idle grey.
    switch (kind) {
    case stats::PathKind::Cpu:
        return QColor(0x4e, 0x79, 0xa7);
    case stats::PathKind::Launch:
        return QColor(0xf2, 0x8e, 0x2b);
    case stats::PathKind::Kernel:
        return QColor(0x59, 0xa1, 0x4f);
    case stats::PathKind::Memcpy:
        return QColor(0xb0, 0x7a, 0xa1);
    case stats::PathKind::Memset:
        return QColor(0x9c, 0x75, 0x5f);
    case stats::PathKind::Communication:
        return QColor(0xe1, 0x57, 0x59);
    case stats::PathKind::Wait:
        return QColor(0xff, 0x9d, 0xa7);
    case stats::PathKind::Sync:
        return QColor(0xed, 0xc9, 0x48);
    case stats::PathKind::Idle:
        return QColor(0xba, 0xb0, 0xac);
    }
    return neutralSeriesColor();
}

} // namespace rankscope
