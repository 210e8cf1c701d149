#pragma once
// Turns one track, a visible range and a width into rectangles to fill,
// apart from painting so it can be tested. When the range holds many more
// events than pixels it reads the track's level-of-detail summary, so the
// cost is about the number of pixels, not of events. Sub-pixel neighbours
// merge into one rectangle that remembers how many events it stands for:
// a busy row looks busy at every zoom.
#include "core/slicetrack.h"
#include "timeline/timescale.h"

#include <cstdint>
#include <vector>

namespace rankscope {

struct SliceRect {
    static constexpr std::uint32_t kNoEvent = 0xffffffffu;
    float x0 = 0, x1 = 0; // pixels from the left edge of the track area
    std::uint16_t lane = 0;
    std::uint32_t event = kNoEvent; // the event shown (the longest of a merge)
    std::uint32_t count = 0;        // events this rectangle stands for
    float coverage = 1.0f;          // busy share of the rectangle (summaries)
    std::uint8_t trackSlot = 0;     // which of the row's tracks
    bool isMerged() const { return count != 1; }
};

struct SliceGeometryInput {
    const SliceTrack *track = nullptr;
    TimeNs sessionOffset = 0; // report time + offset = session time
    int laneOffset = 0;
    bool flatten = false; // every event on laneOffset
    std::uint8_t trackSlot = 0;
    // The lanes on screen: a row of a hundred nested lanes taller than the
    // window builds only those it shows.
    int firstLane = 0, lastLane = 0xffff;
    // Only pixels [clipX0, clipX1) of the width (-1: to the right edge): one
    // piece of a stretched rank (DisplayTime), drawn with its own scale.
    int clipX0 = 0, clipX1 = -1;
};

// Rectangles for [scale.start, scale.start + widthPx * nsPerPixel], in
// order of x within each lane. Appends to `out`.
void buildSliceGeometry(const SliceGeometryInput &input, const TimeScale &scale, int widthPx, std::vector<SliceRect> &out);

} // namespace rankscope
