// max_pooling2's interior: the outputs that the quad path (quad_path,
// shaders/pooling_quads.glsl) pools in whole groups of SS_PQ_GROUP and
// stores as whole quads, run by a pipeline with no other path compiled in
// (the shader's PIPELINE constant, kPoolingPipeline). The general pipeline
// carries the table walks, the element stores and the edge and fit tests,
// and llvmpipe runs every path compiled into a shader for each SIMD batch,
// under a lane mask, taken or not: a loop no lane enters still runs its
// body once. The 1x64x256x256 3x3 stride-2 pooling bench on lavapipe (its
// interior then all but the padded top rows), the build before alternating
// with the first interior pipeline: 16-output chunks 5.5 -> 4.0-4.3 ms,
// 64-output chunks 4.3 -> 3.5-3.7 ms; bench/README has the later steps.
//
// The interior is one region: every N and C; along D and H the outputs
// around their runs (PoolingProgram::d_inner, h_inner) whose real taps step
// by the run's step_k, padded ones or not (the shader repeats a real tap
// in place of a padded one); and W from the left edge group (or the W run's
// start) in whole groups up to the run's end. The rest, up to six
// regions around it, runs the general pipeline; so does any interior box
// whose windows break what the interior pipeline takes for granted
// (interior_variant).
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
  // Per output of D and of H, the pair (first real tap, real taps - 1)
  // (SS_P_D_REAL, shaders/meta_layout.h); 0, 0 outside the interior.
  std::vector<uint32_t> d_real;
  std::vector<uint32_t> h_real;
};

// The regions of `program` on the quad path `quads` (quad_path(program)),
// with its left edge group `edge` (quad_edge), `chunk` outputs an
// invocation. No interior unless quads != 0 and chunk is whole groups.
PoolingRegions pooling_regions(const PoolingProgram& program, uint32_t quads, const QuadEdge& edge, uint64_t chunk);

// The pipeline for `box`, a box of the interior region with its windows
// (shaders/meta_layout.h). SS_GENERAL unless every invocation may run the
// interior one: its groups, from its first column on, leave the left edge
// group where it is (the split may cut W); outputs and indices packed along
// W and quad-aligned at every group (relative to their windows); the first
// real word of the box's first row inside the input window (the left edge
// group's padded words may lie before it); and every word the last group of
// its last row uses inside the input window's whole quads (the shader
// clamps the quads past them). Then SS_INTERIOR_AT + k where the input's
// strides along N, C, D and H are whole quads, as every span then starts
// at word k of a quad; else SS_INTERIOR.
uint32_t interior_variant(const PoolingProgram& program, uint32_t quads, const QuadEdge& edge,
                          const PoolingRegions& regions, const WorkBox& box);

}  // namespace stridescope::gpu
