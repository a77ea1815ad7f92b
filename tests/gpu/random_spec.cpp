#include "random_spec.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace stridescope::test {

namespace {

using U64s = std::vector<uint64_t>;

constexpr uint64_t kMaxInputElements = 600;
constexpr uint64_t kMaxOutputElements = 20000;  // paddings multiply sizes: keep runs quick

U64s random_sizes(std::size_t rank, Rng& rng, uint64_t largest) {
  U64s sizes(rank);
  for (uint64_t& s : sizes) s = 1 + rng.below(largest);
  // Shrink the biggest dimension until the tensor is small.
  auto product = [&] { return std::accumulate(sizes.begin(), sizes.end(), uint64_t{1}, std::multiplies<>()); };
  while (product() > kMaxInputElements) {
    auto biggest = std::max_element(sizes.begin(), sizes.end());
    *biggest = std::max<uint64_t>(1, *biggest / 2);
  }
  return sizes;
}

uint64_t largest_size_for(std::size_t rank) {
  static constexpr uint64_t kLargest[] = {0, 40, 14, 8, 6, 4, 3, 3, 3};
  return kLargest[rank];
}

// Packed strides over dimensions visited in `order` (innermost last), each
// stride stepping over the previous dimension plus `gap(d)` elements.
template <class Gap>
U64s strides_in_order(const U64s& sizes, const std::vector<std::size_t>& order, Gap gap) {
  U64s strides(sizes.size(), 0);
  uint64_t next = 1;
  for (std::size_t i = order.size(); i-- > 0;) {
    const std::size_t d = order[i];
    strides[d] = next + gap(d);
    next = strides[d] * sizes[d];
  }
  return strides;
}

std::vector<std::size_t> shuffled_order(std::size_t rank, Rng& rng) {
  std::vector<std::size_t> order(rank);
  std::iota(order.begin(), order.end(), 0);
  for (std::size_t i = rank; i > 1; --i) std::swap(order[i - 1], order[rng.below(i)]);
  return order;
}

std::vector<std::size_t> row_major_order(std::size_t rank) {
  std::vector<std::size_t> order(rank);
  std::iota(order.begin(), order.end(), 0);
  return order;
}

std::optional<U64s> input_strides(const U64s& sizes, InputLayout layout, Rng& rng) {
  const std::size_t rank = sizes.size();
  auto no_gap = [](std::size_t) { return uint64_t{0}; };
  auto some_gap = [&](std::size_t) { return rng.chance(60) ? rng.below(4) : uint64_t{0}; };
  switch (layout) {
    case InputLayout::Packed:
      if (rng.chance(50)) return std::nullopt;
      return strides_in_order(sizes, row_major_order(rank), no_gap);
    case InputLayout::Broadcast: {
      U64s strides = strides_in_order(sizes, row_major_order(rank), no_gap);
      bool any = false;
      for (std::size_t d = 0; d < rank; ++d) {
        if (sizes[d] > 1 && rng.chance(50)) {
          strides[d] = 0;
          any = true;
        }
      }
      if (!any) strides[rng.below(rank)] = 0;
      return strides;
    }
    case InputLayout::Gapped: return strides_in_order(sizes, row_major_order(rank), some_gap);
    case InputLayout::Permuted: return strides_in_order(sizes, shuffled_order(rank, rng), no_gap);
    case InputLayout::GappedPermuted: return strides_in_order(sizes, shuffled_order(rank, rng), some_gap);
    case InputLayout::Overlapping: {
      U64s strides(rank);
      for (uint64_t& s : strides) s = rng.below(4);
      return strides;
    }
  }
  return std::nullopt;
}

std::optional<U64s> output_strides(const U64s& sizes, OutputLayout layout, Rng& rng) {
  const std::size_t rank = sizes.size();
  auto no_gap = [](std::size_t) { return uint64_t{0}; };
  auto some_gap = [&](std::size_t) { return rng.chance(60) ? rng.below(4) : uint64_t{0}; };
  switch (layout) {
    case OutputLayout::Packed:
      if (rng.chance(50)) return std::nullopt;
      return strides_in_order(sizes, row_major_order(rank), no_gap);
    case OutputLayout::Gapped: return strides_in_order(sizes, row_major_order(rank), some_gap);
    case OutputLayout::Permuted: return strides_in_order(sizes, shuffled_order(rank, rng), no_gap);
    case OutputLayout::GappedPermuted: return strides_in_order(sizes, shuffled_order(rank, rng), some_gap);
  }
  return std::nullopt;
}

Scalar random_padding_value(DataType type, Rng& rng) {
  if (is_floating(type)) {
    static const double kValues[] = {0.0, -0.0, 9.0, -2.5, 1.0 / 3.0, 65504.0, 1e-7, 1e-40, 6e-8,
                                     std::numeric_limits<double>::infinity(),
                                     -std::numeric_limits<double>::infinity(),
                                     std::numeric_limits<double>::quiet_NaN(), 1e300, 123456.789};
    return Scalar{kValues[rng.below(std::size(kValues))]};
  }
  switch (rng.below(6)) {
    case 0: return Scalar{10.6};
    case 1: return Scalar{-10.6};
    case 2: return Scalar{int64_t{std::numeric_limits<int64_t>::min()}};
    case 3: return Scalar{uint64_t{std::numeric_limits<uint64_t>::max()}};
    case 4: return Scalar{int64_t{(int64_t{1} << 53) + 1}};
    default: return Scalar{static_cast<int64_t>(rng.between(-300, 300))};
  }
}

}  // namespace

std::string_view to_string(InputLayout layout) {
  switch (layout) {
    case InputLayout::Packed: return "packed";
    case InputLayout::Broadcast: return "broadcast";
    case InputLayout::Gapped: return "gapped";
    case InputLayout::Permuted: return "permuted";
    case InputLayout::GappedPermuted: return "gapped+permuted";
    case InputLayout::Overlapping: return "overlapping";
  }
  return "?";
}

std::string_view to_string(OutputLayout layout) {
  switch (layout) {
    case OutputLayout::Packed: return "packed";
    case OutputLayout::Gapped: return "gapped";
    case OutputLayout::Permuted: return "permuted";
    case OutputLayout::GappedPermuted: return "gapped+permuted";
  }
  return "?";
}

RandomSpec random_spec(OpKind kind, DataType type, std::size_t rank, Rng& rng) {
  RandomSpec spec;
  if (kind == OpKind::MaxPooling2) rank = rank % 2 == 0 ? 4 : 5;
  const U64s in_sizes = random_sizes(rank, rng, largest_size_for(rank));
  spec.input_layout = static_cast<InputLayout>(rng.below(6));
  spec.output_layout = static_cast<OutputLayout>(rng.below(4));
  OpRequest& r = spec.request;
  r.input = TensorRequest{type, in_sizes, input_strides(in_sizes, spec.input_layout, rng)};
  r.output.data_type = type;

  std::optional<U64s> out_sizes;  // set where the spec chooses them
  switch (kind) {
    case OpKind::Identity: r.params = IdentityRequest{}; break;
    case OpKind::Slice: {
      SliceRequest p;
      for (uint64_t n : in_sizes) {
        const uint64_t stride = 1 + rng.below(3);
        const uint64_t offset = rng.below(n);
        const uint64_t reachable = (n - 1 - offset) / stride + 1;
        p.offsets.push_back(offset);
        p.strides.push_back(stride);
        p.sizes.push_back(1 + rng.below(reachable));
      }
      r.params = p;
      break;
    }
    case OpKind::Slice1: {
      Slice1Request p;
      U64s sizes;
      for (uint64_t n : in_sizes) {
        const uint64_t offset = rng.below(n);
        const uint64_t window = 1 + rng.below(n - offset);
        int64_t stride = rng.between(1, 3);
        if (rng.chance(50)) stride = -stride;
        const uint64_t most = slice1_max_copied(window, stride);
        p.input_window_offsets.push_back(offset);
        p.input_window_sizes.push_back(window);
        p.input_window_strides.push_back(stride);
        sizes.push_back(rng.chance(70) ? most : 1 + rng.below(most));
      }
      r.params = p;
      out_sizes = sizes;
      break;
    }
    case OpKind::Padding: {
      PaddingRequest p;
      p.padding_mode = static_cast<PaddingMode>(rng.below(4));
      p.padding_value = random_padding_value(type, rng);
      for (uint64_t n : in_sizes) {
        // Beyond the input size now and then: reflection and symmetric fold again.
        const uint64_t most = rng.chance(30) ? 2 * n + 2 : 2;
        p.start_padding.push_back(rng.below(most + 1));
        p.end_padding.push_back(rng.below(most + 1));
      }
      r.params = p;
      break;
    }
    case OpKind::MaxPooling2: {
      MaxPooling2Request p;
      U64s strides, start, end, dilations;
      for (std::size_t s = 0; s + 2 < rank; ++s) {
        const uint64_t window = 1 + rng.below(3);
        p.window_size.push_back(window);
        strides.push_back(1 + rng.below(3));
        dilations.push_back(rng.chance(70) ? 1 : 2 + rng.below(2));
        start.push_back(rng.below(window + 1));
        end.push_back(rng.below(window + 1));
      }
      if (rng.chance(80)) p.strides = strides;
      if (rng.chance(80)) p.start_padding = start;
      if (rng.chance(80)) p.end_padding = end;
      if (rng.chance(80)) p.dilations = dilations;
      r.params = p;
      if (rng.chance(70)) {
        r.output_indices = TensorRequest{rng.chance(50) ? DataType::UInt32 : DataType::UInt64, std::nullopt,
                                         std::nullopt};
      }
      break;
    }
  }

  if (!out_sizes) {
    auto inferred = infer_output_sizes(r);
    if (inferred && *inferred) out_sizes = U64s((*inferred)->begin(), (*inferred)->end());
  }
  if (out_sizes) {
    r.output.sizes = out_sizes;
    r.output.strides = output_strides(*out_sizes, spec.output_layout, rng);
    if (r.output_indices) {
      r.output_indices->strides = output_strides(*out_sizes, static_cast<OutputLayout>(rng.below(4)), rng);
    }
  }
  return spec;
}

std::optional<Operation> random_operation(OpKind kind, DataType type, std::size_t rank, Rng& rng, RandomSpec* spec,
                                          int attempts) {
  for (int i = 0; i < attempts; ++i) {
    RandomSpec drawn = random_spec(kind, type, rank, rng);
    auto op = Operation::make(drawn.request);
    if (!op || op->output().element_count() > kMaxOutputElements) continue;
    if (spec != nullptr) *spec = drawn;
    return *op;
  }
  return std::nullopt;
}

}  // namespace stridescope::test
