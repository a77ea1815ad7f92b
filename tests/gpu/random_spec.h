// Random operator specs for the differential tests: every op, data type,
// rank and layout class, drawn from a seeded generator so a failing spec can
// be reproduced from its seed. Draws that core refuses (Operation::make) are
// simply drawn again.
#pragma once

#include <optional>
#include <string_view>

#include "core/operation.h"
#include "gpu_test_support.h"

namespace stridescope::test {

enum class InputLayout { Packed, Broadcast, Gapped, Permuted, GappedPermuted, Overlapping };
enum class OutputLayout { Packed, Gapped, Permuted, GappedPermuted };

std::string_view to_string(InputLayout layout);
std::string_view to_string(OutputLayout layout);

struct RandomSpec {
  OpRequest request;
  InputLayout input_layout = InputLayout::Packed;
  OutputLayout output_layout = OutputLayout::Packed;
};

// One draw for `kind` and `type`; `rank` is used as is except for
// max_pooling2, which takes 4 or 5. Tensors stay small (hundreds of elements).
RandomSpec random_spec(OpKind kind, DataType type, std::size_t rank, Rng& rng);

// Draws until core accepts one, up to `attempts`; nullopt if none was valid.
std::optional<Operation> random_operation(OpKind kind, DataType type, std::size_t rank, Rng& rng,
                                          RandomSpec* spec = nullptr, int attempts = 50);

}  // namespace stridescope::test
