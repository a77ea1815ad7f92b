#include "shared_spec_draws.h"

#include <algorithm>

namespace stridescope::test {

reference::Generator generator_for(OpKind kind) {
  switch (kind) {
    case OpKind::Identity: return reference::random_identity;
    case OpKind::Slice: return reference::random_slice;
    case OpKind::Slice1: return reference::random_slice1;
    case OpKind::Padding: return reference::random_padding;
    case OpKind::MaxPooling2: return reference::random_pooling;
  }
  return reference::random_identity;
}

std::optional<Operation> draw_valid(reference::Generator generate, DataType type, reference::Rng& rng,
                                    OpRequest* request, int attempts) {
  for (int i = 0; i < attempts; ++i) {
    OpRequest drawn = generate(rng, type);
    auto op = Operation::make(drawn);
    if (!op) continue;
    if (request != nullptr) *request = std::move(drawn);
    return std::move(*op);
  }
  return std::nullopt;
}

std::optional<OpRequest> widen(const OpRequest& request, const Operation& op, reference::Rng& rng) {
  const bool pooling = op.kind() == OpKind::MaxPooling2;
  if (op.kind() != OpKind::Identity && !pooling) return std::nullopt;
  // The dimension with the largest output stride: growing it appends whole
  // copies of the rest of the output after the existing elements.
  const auto strides = op.output().strides();
  const std::size_t candidates = pooling ? 2 : op.output().rank();
  std::size_t d = 0;
  for (std::size_t i = 1; i < candidates; ++i) d = strides[i] > strides[d] ? i : d;
  // 4 to 16 workgroups' worth of 64 outputs, more or less.
  const uint64_t count = op.output().element_count();
  const uint64_t factor = std::max<uint64_t>(2, rng.range(256, 1024) / count);
  OpRequest wide = request;
  if (!wide.input.sizes || wide.input.sizes->size() != op.output().rank()) return std::nullopt;
  (*wide.input.sizes)[d] *= factor;
  for (TensorRequest* t : {&wide.output, wide.output_indices ? &*wide.output_indices : nullptr}) {
    if (t != nullptr && t->sizes) (*t->sizes)[d] *= factor;
  }
  if (!Operation::make(wide)) return std::nullopt;
  return wide;
}

std::optional<Operation> draw_for_gpu(OpKind kind, DataType type, reference::Rng& rng, OpRequest* request) {
  OpRequest drawn;
  auto op = draw_valid(generator_for(kind), type, rng, &drawn);
  if (!op) return std::nullopt;
  if ((kind == OpKind::Identity || kind == OpKind::MaxPooling2) && rng.chance(1.0 / 3.0)) {
    if (auto wide = widen(drawn, *op, rng)) {
      drawn = std::move(*wide);
      op = Operation::make(drawn).value();
    }
  }
  if (request != nullptr) *request = std::move(drawn);
  return op;
}

std::vector<std::byte> special_input(const TensorDesc& desc, reference::Rng& rng) {
  std::vector<std::byte> bytes(desc.buffer_bytes(), std::byte{0});
  reference::fill_special(rng, desc.data_type(), bytes);
  return bytes;
}

}  // namespace stridescope::test
