#include "core/animation_order.h"

#include <algorithm>
#include <numeric>

namespace stridescope {

std::string_view to_string(VisitOrder order) {
  return order == VisitOrder::Logical ? "logical" : "buffer";
}

std::optional<VisitOrder> parse_visit_order(std::string_view text) {
  if (text == "logical") return VisitOrder::Logical;
  if (text == "buffer") return VisitOrder::Buffer;
  return std::nullopt;
}

AnimationSteps animation_steps(uint64_t elements, uint64_t max_frames) {
  max_frames = std::max<uint64_t>(max_frames, 1);
  AnimationSteps steps;
  steps.elements = elements;
  steps.every = elements <= max_frames ? 1 : (elements + max_frames - 1) / max_frames;
  steps.frames = (elements + steps.every - 1) / steps.every;
  return steps;
}

std::vector<uint64_t> visit_sequence(const TensorDesc& desc, VisitOrder order) {
  std::vector<uint64_t> flat(desc.element_count());
  std::iota(flat.begin(), flat.end(), uint64_t{0});
  if (order == VisitOrder::Logical || flat.empty()) return flat;
  // Offsets in logical order, then a stable sort: equal offsets (broadcast)
  // keep their row-major order.
  std::vector<uint64_t> offsets(flat.size());
  Coord coord(desc.rank(), 0);
  for (uint64_t i = 0; i < offsets.size(); ++i) {
    offsets[i] = desc.offset_of(coord);
    next_coord(coord, desc.sizes());
  }
  std::stable_sort(flat.begin(), flat.end(), [&](uint64_t a, uint64_t b) { return offsets[a] < offsets[b]; });
  return flat;
}

std::vector<Coord> animation_frames(const TensorDesc& desc, VisitOrder order, uint64_t max_frames) {
  const AnimationSteps steps = animation_steps(desc.element_count(), max_frames);
  std::vector<Coord> frames;
  frames.reserve(steps.frames);
  if (order == VisitOrder::Logical) {
    // No table needed: step through row-major indices directly.
    for (uint64_t i = 0; i < steps.elements; i += steps.every) frames.push_back(desc.coord_of_flat_index(i));
    return frames;
  }
  const std::vector<uint64_t> sequence = visit_sequence(desc, order);
  for (uint64_t i = 0; i < sequence.size(); i += steps.every) frames.push_back(desc.coord_of_flat_index(sequence[i]));
  return frames;
}

}  // namespace stridescope
