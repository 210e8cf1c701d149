#pragma once
// A slice's payload is its row in its kind's side table (kernel records,
// API calls, ...). Rows are appended as the trace is read, so the slices of
// one stream or thread read rows scattered among the others', and each
// slice needs its 4 B row number. Stored in track order instead, a track's
// slices read rows base, base + 1, ... and the row column is implied
// (SliceTrack::payload()).
#include "core/report.h"

namespace rankscope {

// For each side table whose every row is read by exactly one slice of its
// track kind (kernels, memcpys, memsets, syncs, CUDA API calls, NVTX
// projections): reorders it into track order and makes the tracks' rows
// implied. Call once the tracks are final, before anything keeps a row
// number (NCCL lanes copy kernel rows: build them after).
void storeSideTablesInTrackOrder(Report &report);
// The same for one kind's table (NVTX projections, built after the rest).
void storeSideTableInTrackOrder(Report &report, TrackKind kind);

} // namespace rankscope
