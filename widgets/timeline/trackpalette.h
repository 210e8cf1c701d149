#pragma once
// Colours of events. Kernels and calls get a stable colour per name;
// memcpys are coloured by direction (HtoD green, DtoH red, DtoD amber,
// PtoP violet) and pageable copies are marked; NVTX uses the colour the
// application gave.
#include "core/report.h"

#include <QColor>

namespace rankscope {

class TrackPalette {
public:
    static QColor colorOf(const Report &report, const Track &track, std::uint32_t event);
    static QColor kindColor(TrackKind kind); // merged summaries
    static QColor memcpyColor(MemcpyKind kind);
    static bool isPageableCopy(const Report &report, const Track &track, std::uint32_t event);
    static QColor textColorOn(const QColor &background);
};

} // namespace rankscope
