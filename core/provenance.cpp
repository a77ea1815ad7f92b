#include "provenance.h"

#include <cmath>
#include <string>

#include "scalar.h"

namespace stridescope {
namespace {

std::string element_ref(const char* tensor, const Coord& coord, uint64_t offset) {
  return std::string(tensor) + format_coord(coord) + " (offset " + std::to_string(offset) + ")";
}

std::string join_axes(const std::vector<std::size_t>& axes) {
  std::string text;
  for (std::size_t i = 0; i < axes.size(); ++i) {
    if (i) text += i + 1 == axes.size() ? " and " : ", ";
    text += std::to_string(axes[i]);
  }
  return text;
}

std::string copy_rule(const Operation& op) {
  switch (op.kind()) {
    case OpKind::Identity:
      return "identity copies every element through both tensors' strides";
    case OpKind::Slice:
      return "slice reads input index offsets + strides * output index in every axis";
    case OpKind::Slice1: {
      const auto& p = op.params_as<Slice1Params>();
      std::vector<std::size_t> reversed;
      for (std::size_t d = 0; d < p.window_strides.size(); ++d) {
        if (p.window_strides[d] < 0) reversed.push_back(d);
      }
      if (reversed.empty()) return "slice1 reads window offset + stride * output index in every axis";
      return std::string("slice1 ") + (reversed.size() > 1 ? "axes " : "axis ") + join_axes(reversed) +
             (reversed.size() > 1 ? " start" : " starts") + " at the window end because " +
             (reversed.size() > 1 ? "their strides are" : "its stride is") + " negative";
    }
    case OpKind::Padding:
      return "padding: inside the input, output index - startPadding";
    case OpKind::MaxPooling2: break;
  }
  return {};
}

Provenance explain_gather(const Operation& op, const GatherPlan& plan, const Coord& out) {
  Provenance result;
  result.output_coord = out;
  result.output_offset = op.output().offset_of(out);

  Coord source;
  std::vector<std::size_t> constant_axes;
  std::vector<std::size_t> folded_axes;
  for (std::size_t d = 0; d < plan.rank; ++d) {
    const int64_t index = plan.source[d][out[d]];
    if (op.kind() == OpKind::Padding) {
      const int64_t unfolded = plan.unfolded[d][out[d]];
      result.unfolded.push_back(unfolded);
      if (index == kPaddingIndex) {
        constant_axes.push_back(d);
      } else if (index != unfolded) {
        folded_axes.push_back(d);
      }
    }
    source.push_back(index == kPaddingIndex ? 0 : static_cast<uint64_t>(index));
  }

  const std::string out_ref = "out" + format_coord(out);
  if (!constant_axes.empty()) {
    const auto& p = op.params_as<PaddingParams>();
    result.kind = SourceKind::PaddingConstant;
    result.rule = out_ref + " = " + format_scalar(p.value) + " -- CONSTANT padding: input coordinate " +
                  format_coord(result.unfolded) + " lies outside the input on " +
                  (constant_axes.size() > 1 ? "axes " : "axis ") + join_axes(constant_axes);
    return result;
  }
  result.source = source;
  result.source_offset = op.input().offset_of(source);
  const std::string in_ref = element_ref("in", source, result.source_offset);
  if (!folded_axes.empty()) {
    const auto& p = op.params_as<PaddingParams>();
    result.kind = SourceKind::PaddingFolded;
    std::string folds;
    for (std::size_t d : folded_axes) {
      if (!folds.empty()) folds += ", ";
      folds += std::to_string(result.unfolded[d]) + " to " + std::to_string(source[d]) + " on axis " +
               std::to_string(d);
    }
    result.rule = out_ref + " = " + in_ref + " -- " + std::string(to_string(p.mode)) + " padding folds " + folds;
    return result;
  }
  result.kind = SourceKind::Copied;
  result.rule = out_ref + " = " + in_ref + " -- " + copy_rule(op);
  return result;
}

// Whether `value` beats `best` under max_pooling.h's rule (pooling_prefers).
// Elements read as Scalars: a float's double and an integer's 64 bits
// compare exactly as stored.
bool beats(const Scalar& value, const Scalar& best) {
  return std::visit(
      [&](auto candidate) {
        if constexpr (std::is_same_v<decltype(candidate), Decimal>) {
          return false;  // read_element never makes one
        } else {
          return pooling_prefers(candidate, std::get<decltype(candidate)>(best));
        }
      },
      value);
}

// Why the winner won, in the words a reader checks it by: a NaN beats
// every number whatever the maximum, so naming the first-maximum rule
// there would point at the wrong tap.
std::string winning_reason(const Scalar& winner) {
  const double* value = std::get_if<double>(&winner);
  if (value != nullptr && std::isnan(*value)) return "a NaN beats every number, and the first NaN in window order wins";
  return "the first maximum in row-major window order wins";
}

// Tap `tap` (one index per spatial axis) of output `out`'s window, with its
// buffer offset when it lies inside the input.
PoolingTap window_tap(const Operation& op, const PoolingPlan& plan, const Coord& out, const Coord& tap) {
  const auto& p = op.params_as<MaxPooling2Params>();
  PoolingTap t;
  t.coord = {static_cast<int64_t>(out[0]), static_cast<int64_t>(out[1])};
  Coord in_coord{out[0], out[1]};
  for (std::size_t s = 0; s < plan.spatial_rank; ++s) {
    const int64_t index = plan.axes[s].taps[out[s + 2] * plan.axes[s].window + tap[s]];
    if (index == kPaddingIndex) {
      t.padded = true;
      // Show where the tap lies in padding: the unclamped input index.
      t.coord.push_back(pooling_tap_index(p, s, out[s + 2], tap[s]));
    } else {
      t.coord.push_back(index);
    }
    in_coord.push_back(index == kPaddingIndex ? 0 : static_cast<uint64_t>(index));
  }
  if (!t.padded) t.offset = op.input().offset_of(in_coord);
  return t;
}

// "3x3"
std::string window_shape(const PoolingPlan& plan) {
  std::string shape;
  for (std::size_t s = 0; s < plan.spatial_rank; ++s) {
    if (s) shape += "x";
    shape += std::to_string(plan.axes[s].window);
  }
  return shape;
}

// Streams over every tap, so the winner of a window of any size is found
// while only the first `max_listed_taps` are kept.
Provenance explain_pooling(const Operation& op, const PoolingPlan& plan, const Coord& out,
                           std::span<const std::byte> input, std::size_t max_listed_taps) {
  Provenance result;
  result.kind = SourceKind::Pooled;
  result.output_coord = out;
  result.output_offset = op.output().offset_of(out);

  Sizes extent;
  for (std::size_t s = 0; s < plan.spatial_rank; ++s) extent.push_back(plan.axes[s].window);
  const bool with_data = input.size() >= op.input().buffer_bytes();
  const DataType type = op.input().data_type();
  Coord tap(plan.spatial_rank, 0);
  uint64_t ordinal = 0;
  uint64_t padded_taps = 0;
  Scalar best;
  std::optional<PoolingTap> winner;
  do {
    PoolingTap t = window_tap(op, plan, out, tap);
    if (t.padded) {
      ++padded_taps;
    } else if (with_data) {
      const Scalar value = read_element(type, input.data() + t.offset * element_size(type));
      if (!winner || beats(value, best)) {
        best = value;
        winner = t;
        result.winner = ordinal;
      }
    }
    if (result.window.size() < std::max<std::size_t>(max_listed_taps, 1)) result.window.push_back(std::move(t));
    ++ordinal;
  } while (next_coord(tap, extent));
  result.window_taps = ordinal;

  result.rule = "out" + format_coord(out) + " = max over the " + window_shape(plan) + " window from in" +
                format_coord(result.window.front().coord);
  if (padded_taps == 1) result.rule += " (1 tap in padding never wins)";
  if (padded_taps > 1) result.rule += " (" + std::to_string(padded_taps) + " taps in padding never win)";
  if (winner) {
    Coord winner_coord;
    for (int64_t c : winner->coord) winner_coord.push_back(static_cast<uint64_t>(c));
    result.source = winner_coord;
    result.source_offset = winner->offset;
    result.winner_index = op.input().flat_index_of(winner_coord);
    result.rule += " -- winner " + element_ref("in", winner_coord, winner->offset) + ", index " +
                   std::to_string(*result.winner_index) + "; " + winning_reason(best);
  }
  return result;
}

}  // namespace

Expected<Provenance> explain(const Operation& op, const ReaderIndex& index, const Coord& output_coord,
                             std::span<const std::byte> input, std::size_t max_listed_taps) {
  const Sizes& sizes = op.output().sizes();
  if (output_coord.size() != sizes.size()) {
    return invalid("--at", "has " + std::to_string(output_coord.size()) + " entries but the output has " +
                               std::to_string(sizes.size()) + " dimensions");
  }
  for (std::size_t d = 0; d < sizes.size(); ++d) {
    if (output_coord[d] >= sizes[d]) {
      return invalid("--at[" + std::to_string(d) + "]", std::to_string(output_coord[d]) +
                                                            " is outside output size " + std::to_string(sizes[d]));
    }
  }
  // An index of another operation would read the wrong tables.
  if (index.kind() != op.kind() || index.rank() != op.input().rank()) return explain(op, output_coord, input, max_listed_taps);
  if (op.kind() == OpKind::MaxPooling2) {
    return explain_pooling(op, index.pooling(), output_coord, input, max_listed_taps);
  }
  return explain_gather(op, index.gather(), output_coord);
}

Expected<Provenance> explain(const Operation& op, const Coord& output_coord, std::span<const std::byte> input,
                             std::size_t max_listed_taps) {
  return explain(op, ReaderIndex::build(op, 0), output_coord, input, max_listed_taps);
}

AxisReaderLists readers_per_axis(const Operation& op, const Coord& in) {
  // The full tables, not a scan: the randomized tests then check the
  // inversion the app relies on against the reference implementation.
  return ReaderIndex::build(op).readers_of(in);
}

}  // namespace stridescope
