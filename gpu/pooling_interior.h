// max_pooling2's interior: the outputs that the quad path (quad_path,
// shaders/pooling_quads.glsl) pools in whole groups of SS_PQ_GROUP and
// stores as whole quads, run by a pipeline with no other path compiled in
// (the shader's INTERIOR constant, kPoolingInterior). The general pipeline
// carries the table walks, the element stores and the edge and fit tests,
// and llvmpipe runs every path compiled into a shader for each SIMD batch,
// under a lane mask, taken or not: a loop no lane enters still runs its
// body once. Without them the 3x3 stride-2 pooling bench took 4.2 instead
// of 5.6 ms (16-output chunks), 3.3 instead of 4.3 ms (64).
//
// The interior is one region: every N and C, D and H inside their runs
// (PoolingProgram::d_inner, h_inner), and W from the left edge group (or the
// W run's start) in whole groups up to the run's end. The rest, up to six
// regions around it, runs the general pipeline; so does any interior box
// whose windows break what the interior pipeline takes for granted
// (interior_box_ok).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "gpu/pooling_program.h"
#include "gpu/work_split.h"

namespace stridescope::gpu {

struct PoolingRegions {
  std::optional<Region> interior;
  std::vector<Region> rest;  // empty when there is no interior: the whole output then
};

// The regions of `program` on the quad path `quads` (quad_path(program)),
// with its left edge group `edge` (quad_edge), `chunk` outputs an
// invocation. No interior unless quads != 0 and chunk is whole groups.
PoolingRegions pooling_regions(const PoolingProgram& program, uint32_t quads, const QuadEdge& edge, uint64_t chunk);

// Whether every invocation of `box`, a box of the interior region with its
// windows, may run the interior pipeline: its groups, from its first
// column on, leave the left edge group where it is (the split may cut W);
// outputs and indices packed along W and quad-aligned at every group
// (relative to their windows); the first
// group of the box's first row starting inside the input window (the left
// edge group's padded words may lie before it); and every word the last
// group of its last row uses inside the input window's whole quads (the
// shader clamps the quads past them).
bool interior_box_ok(const PoolingProgram& program, uint32_t quads, const QuadEdge& edge, const WorkBox& box);

}  // namespace stridescope::gpu
