#include "timeline/trackpalette.h"

namespace rankscope {

namespace {

QColor hashed(StringId id, int saturation, int value, int hueStart, int hueSpan)
{
    std::uint32_t h = id * 2654435761u;
    h ^= h >> 16;
    return QColor::fromHsv(hueStart + int(h % std::uint32_t(hueSpan)), saturation, value);
}

} // namespace

QColor TrackPalette::memcpyColor(MemcpyKind kind)
{
    switch (kind) {
    case MemcpyKind::HtoD:
    case MemcpyKind::UvmHtoD: return QColor(0x2e, 0xa0, 0x43);
    case MemcpyKind::DtoH:
    case MemcpyKind::UvmDtoH: return QColor(0xd6, 0x3b, 0x2f);
    case MemcpyKind::DtoD:
    case MemcpyKind::UvmDtoD: return QColor(0xe0, 0x9b, 0x1a);
    case MemcpyKind::PtoP: return QColor(0x8e, 0x5c, 0xc8);
    default: return QColor(0x80, 0x80, 0x80);
    }
}

QColor TrackPalette::kindColor(TrackKind kind)
{
    switch (kind) {
    case TrackKind::OsRuntime: return QColor(0x9c, 0x8c, 0x7c);
    case TrackKind::CudaApi: return QColor(0xd9, 0xa4, 0x41);
    case TrackKind::Nvtx: return QColor(0x6a, 0x8f, 0xc7);
    case TrackKind::Kernel: return QColor(0x3b, 0x7d, 0xd8);
    case TrackKind::Memcpy: return QColor(0x2e, 0xa0, 0x43);
    case TrackKind::Memset: return QColor(0x6b, 0x9a, 0xa8);
    case TrackKind::Sync: return QColor(0xb0, 0x4a, 0x4a);
    case TrackKind::NvtxGpuProjection: return QColor(0x7b, 0x9b, 0xd0);
    case TrackKind::NcclKernels: return QColor(0xa3, 0x4d, 0xb8);
    }
    return Qt::gray;
}

bool TrackPalette::isPageableCopy(const Report &report, const Track &track, std::uint32_t event)
{
    if (track.kind != TrackKind::Memcpy)
        return false;
    const MemcpyRecord &m = report.memcpys[track.slices.payload(event)];
    return m.srcKind == MemoryKind::Pageable || m.dstKind == MemoryKind::Pageable;
}

QColor TrackPalette::colorOf(const Report &report, const Track &track, std::uint32_t event)
{
    switch (track.kind) {
    case TrackKind::Memcpy: return memcpyColor(report.memcpys[track.slices.payload(event)].copyKind);
    case TrackKind::Nvtx: {
        const NvtxRecord &n = report.nvtx[track.slices.payload(event)];
        if (n.hasColor)
            return QColor::fromRgb(n.color | 0xFF000000u);
        return hashed(track.slices.name(event), 90, 215, 190, 80);
    }
    case TrackKind::NvtxGpuProjection: {
        const NvtxRecord &n = report.nvtx[report.nvtxProjections[track.slices.payload(event)].nvtxRow];
        if (n.hasColor)
            return QColor::fromRgb(n.color | 0xFF000000u).lighter(115);
        return hashed(track.slices.name(event), 70, 225, 190, 80);
    }
    case TrackKind::Kernel: return hashed(track.slices.name(event), 150, 210, 195, 50);
    case TrackKind::NcclKernels: return hashed(track.slices.name(event), 140, 200, 270, 40);
    case TrackKind::CudaApi: return hashed(track.slices.name(event), 150, 225, 30, 25);
    case TrackKind::OsRuntime: return hashed(track.slices.name(event), 40, 190, 20, 30);
    default: return kindColor(track.kind);
    }
}

QColor TrackPalette::textColorOn(const QColor &background)
{
    return background.lightnessF() > 0.55 ? Qt::black : Qt::white;
}

} // namespace rankscope
