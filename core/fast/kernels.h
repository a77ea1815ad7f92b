// The fast CPU backend's kernels, compiled once per instruction set
// (kernels_baseline.cpp, kernels_avx2.cpp, kernels_avx512.cpp include
// kernels.inc with different compiler flags) and picked at run time.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/fast/kernel_plan.h"
#include "core/fast/simd_level.h"

namespace stridescope::fast {

struct KernelTable {
  SimdLevel level;
  // Writes work items [item_begin, item_end) of a gather: item i is piece
  // i % row_pieces of row i / row_pieces.
  void (*gather_rows)(const GatherKernel& kernel, const std::byte* input, std::byte* output,
                      uint64_t item_begin, uint64_t item_end);
  // Writes work items [item_begin, item_end) of a batch of transposes.
  void (*transpose_items)(const TransposeKernel& kernel, const std::byte* input, std::byte* output,
                          uint64_t item_begin, uint64_t item_end);
  // Pools work units [unit_begin, unit_end) (unit = plane * band_count + band).
  // `scratch` (64-byte aligned) holds one interior output's tap list
  // (max_row_taps * 16 bytes, rounded up to 64) followed by the split rows of
  // the largest band (fast_plan.cpp sizes it).
  void (*pool_units)(const PoolKernel& kernel, const std::byte* input, std::byte* output,
                     std::byte* indices, void* scratch, uint64_t unit_begin, uint64_t unit_end);
  // The vector path this copy takes for an element type, index width, taps
  // per interior output and interior width.
  PoolShape (*pool_shape)(PoolType type, uint32_t index_bytes, uint64_t taps, uint64_t interior);
};

// The kernels for `level`; precondition: simd_level_supported(level).
const KernelTable& kernels_for(SimdLevel level);

}  // namespace stridescope::fast
