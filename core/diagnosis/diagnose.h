// Why does another implementation's result differ from StrideScope's? Runs
// every catalogued mistake (mistake_catalogue.h) on the op and keeps those
// whose result matches the other one: bit for bit (a complete explanation),
// or failing that on some of the differing elements. When no mistake
// explains any, says what the differing elements have in common
// (difference_traits.h). What `stridescope-cli check --diagnose` prints.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/diagnosis/mistake_catalogue.h"
#include "core/diagnosis/mistaken_variants.h"
#include "core/operation.h"

namespace stridescope {

// A result's buffers: output, and indices (empty when the op has none).
struct ResultBuffers {
  std::span<const std::byte> output;
  std::span<const std::byte> indices;
};

struct DiagnoseOptions {
  // A result document writes every NaN as "NaN": there a NaN matches any NaN.
  bool nan_matches_any_nan = false;
};

struct Finding {
  MistakeId id;
  bool complete = false;  // the mistake reproduces the result bit for bit
  uint64_t explained = 0;  // differing elements (output and indices) where it gives the result's value
  uint64_t broken = 0;     // elements the result has right that the mistake gets wrong
};

struct Diagnosis {
  uint64_t differing = 0;  // elements (output and indices counted apart) where the result differs
  // Best first: complete explanations (then only those), in catalogue order;
  // else partial ones, the most explained first.
  std::vector<Finding> findings;
  // When findings is empty and the result differs: what the differing
  // elements have in common, one phrase each ("only padded positions").
  std::vector<std::string> in_common;
};

// `exact` is StrideScope's result for `op` on `input`, `result` the other
// implementation's; both shaped as `op`'s tensors (buffer_bytes() long).
Diagnosis diagnose(const Operation& op, std::span<const std::byte> input, ResultBuffers exact, ResultBuffers result,
                   const DiagnoseOptions& options = {});

// For a result shaped as `shape` instead of the op's (mistaken_shapes):
// whether `shape`'s mistake reproduces it bit for bit.
bool reproduces(const Operation& op, std::span<const std::byte> input, const Reshape& shape, ResultBuffers result,
                const DiagnoseOptions& options = {});

}  // namespace stridescope
