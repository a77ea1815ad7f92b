// The order in which an animation visits a tensor's elements (the app's
// step-through and `stridescope-cli render --animate` share it):
//   - logical: row-major over the sizes, the order the op's definition
//     enumerates output coordinates in;
//   - buffer: by buffer offset, the order the elements lie in memory (for a
//     column-major or NHWC output this differs from the logical order);
//     coordinates that share an offset keep their logical order.
// A large tensor is visited every k-th element (see animation_steps), so an
// animation stays a few hundred frames long and still crosses the whole tensor.
#pragma once

#include <cstdint>
#include <string_view>
#include <optional>
#include <vector>

#include "core/tensor_desc.h"

namespace stridescope {

enum class VisitOrder { Logical, Buffer };

std::string_view to_string(VisitOrder order);
std::optional<VisitOrder> parse_visit_order(std::string_view text);  // "logical" or "buffer"

// Animations of at most this many elements show every element.
inline constexpr uint64_t kMaxAnimationFrames = 256;

struct AnimationSteps {
  uint64_t elements = 0;  // elements in the tensor
  uint64_t every = 1;     // visit every `every`-th element of the order
  uint64_t frames = 0;    // ceil(elements / every)
};

// Every element when there are at most `max_frames`; else the smallest step k
// with ceil(elements / k) <= max_frames. With max_frames >= 128 that leaves
// more than max_frames / 2 >= 64 frames, so a large output still animates in
// many small steps. `max_frames` is at least 1.
AnimationSteps animation_steps(uint64_t elements, uint64_t max_frames = kMaxAnimationFrames);

// The row-major flat indices of all of `desc`'s elements in `order`.
std::vector<uint64_t> visit_sequence(const TensorDesc& desc, VisitOrder order);

// The coordinates an animation of `desc` shows, one per frame: every
// steps.every-th element of visit_sequence, starting with the first.
std::vector<Coord> animation_frames(const TensorDesc& desc, VisitOrder order,
                                    uint64_t max_frames = kMaxAnimationFrames);

}  // namespace stridescope
