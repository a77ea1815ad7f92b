// Affine runs of a per-dimension offset table: how both backends compress
// core's index tables (core/index_plan.h) before they walk them. A slice is
// one run per dimension, CONSTANT padding three (padding, data, padding),
// EDGE/REFLECTION/SYMMETRIC a few, so a loop or a shader can follow runs
// instead of reading a table entry per element.
//
//   offsets[i] = the input element read at index i along the dimension
//                (source index * input stride), or `padding_marker`.
//
// The runs are maximal from left to right: a run of padding entries, or the
// longest stretch of data entries with one constant difference (a single
// entry has step 0). They cover [0, offsets.size()) in order, exactly:
//   offsets[begin + k] = first + k * step  for k < length (data runs).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace stridescope {

struct OffsetRun {
  uint64_t begin = 0;  // first index of the run
  uint64_t length = 0;
  bool padding = false;  // no input element: CONSTANT padding supplies these
  int64_t first = 0;     // data runs: the offset at `begin`
  int64_t step = 0;      // data runs: offset change per index
  friend bool operator==(const OffsetRun&, const OffsetRun&) = default;
};

std::vector<OffsetRun> affine_runs(std::span<const int64_t> offsets, int64_t padding_marker);

}  // namespace stridescope
