#include "worked_arithmetic.h"

#include <cstdlib>

#include "max_pooling.h"
#include "padding.h"
#include "slice.h"

namespace stridescope {
namespace {

std::string num(uint64_t v) { return std::to_string(v); }
std::string num(int64_t v) { return std::to_string(v); }
// A factor of a product: a negative number in parentheses, "3 + (-2)·1".
std::string factor(int64_t v) { return v < 0 ? "(" + num(v) + ")" : num(v); }

constexpr const char* kTimes = "\u00b7";  // the middle dot of the DirectML pages' formulas

// A pooling dimension as DirectML's pooling page names it.
std::string dim_name(const Operation& op, std::size_t d) {
  const char* names = op.input().rank() == 5 ? "NCDHW" : "NCHW";
  return std::string(1, names[d]);
}

WorkedStep size_step(const Operation& op, std::size_t d) {
  const uint64_t in = op.input().sizes()[d];
  const uint64_t out = op.output().sizes()[d];
  WorkedStep step{"out[" + num(uint64_t{d}) + "]", "", "", num(out), ""};
  switch (op.kind()) {
    case OpKind::Identity:
      step.formula = "in[" + num(uint64_t{d}) + "]";
      break;
    case OpKind::Slice: {
      const auto& p = op.params_as<SliceParams>();
      step.formula = "sizes[" + num(uint64_t{d}) + "]";
      step.note = "(the last index read, offset + (size - 1)" + std::string(kTimes) + "stride = " + num(p.offsets[d]) +
                  " + (" + num(out) + " - 1)" + kTimes + num(p.strides[d]) + " = " +
                  num(uint64_t(slice_source_index(p, d, out - 1))) + ", lies inside the input's " + num(in) + ")";
      break;
    }
    case OpKind::Slice1: {
      const auto& p = op.params_as<Slice1Params>();
      const uint64_t most = slice1_max_copied(p.window_sizes[d], p.window_strides[d]);
      const std::string max_copied = "1 + (" + num(p.window_sizes[d]) + " - 1) / |" + num(p.window_strides[d]) + "|";
      if (out == most) {
        step.formula = "MaxCopiedElements = 1 + (windowSize - 1) / |stride|";
        step.numbers = max_copied;
      } else {
        step.note = "(the spec's output size; at most MaxCopiedElements = " + max_copied + " = " + num(most) + ")";
      }
      break;
    }
    case OpKind::Padding: {
      const auto& p = op.params_as<PaddingParams>();
      step.formula = "in + start + end";
      step.numbers = num(in) + " + " + num(p.start_padding[d]) + " + " + num(p.end_padding[d]);
      break;
    }
    case OpKind::MaxPooling2: {
      const auto& p = op.params_as<MaxPooling2Params>();
      const std::string name = dim_name(op, d);
      step.symbol = name + "_out";
      const std::size_t first_spatial = op.input().rank() - p.spatial_rank();
      if (d < first_spatial) {
        step.formula = name + "_in";
        break;
      }
      const std::size_t s = d - first_spatial;
      step.formula = "floor((in + start + end - ((window - 1)" + std::string(kTimes) +
                     "dilation + 1)) / stride) + 1";
      step.numbers = "floor((" + num(in) + " + " + num(p.start_padding[s]) + " + " + num(p.end_padding[s]) + " - ((" +
                     num(p.window_size[s]) + " - 1)" + kTimes + num(p.dilations[s]) + " + 1)) / " +
                     num(p.strides[s]) + ") + 1";
      break;
    }
  }
  return step;
}

// offset = Σ coordinate·stride, with the numbers.
WorkedStep offset_step(std::string symbol, const TensorDesc& desc, const Coord& coord, uint64_t offset) {
  std::string formula;
  std::string numbers;
  for (std::size_t d = 0; d < coord.size(); ++d) {
    const std::string plus = d == 0 ? "" : " + ";
    formula += plus + "c" + num(uint64_t{d}) + kTimes + "s" + num(uint64_t{d});
    numbers += plus + num(coord[d]) + kTimes + num(desc.strides()[d]);
  }
  return {std::move(symbol), formula, numbers, num(offset), "(c: coordinate, s: strides " +
                                                                  format_coord(desc.strides()) + ")"};
}

void slice_steps(const Operation& op, const Coord& out, std::vector<WorkedStep>& steps) {
  const auto& p = op.params_as<SliceParams>();
  for (std::size_t d = 0; d < out.size(); ++d) {
    if (p.offsets[d] == 0 && p.strides[d] == 1) continue;  // in = out: nothing to show
    steps.push_back({"in[" + num(uint64_t{d}) + "]", "offset + stride" + std::string(kTimes) + "o",
                     num(p.offsets[d]) + " + " + num(p.strides[d]) + kTimes + num(out[d]),
                     num(slice_source_index(p, d, out[d])), ""});
  }
}

void slice1_steps(const Operation& op, const Coord& out, std::vector<WorkedStep>& steps) {
  const auto& p = op.params_as<Slice1Params>();
  for (std::size_t d = 0; d < out.size(); ++d) {
    const int64_t stride = p.window_strides[d];
    const std::string axis = "[" + num(uint64_t{d}) + "]";
    if (p.window_offsets[d] == 0 && stride == 1) continue;
    if (stride < 0) {
      steps.push_back({"start" + axis, "offset + size - 1",
                       num(p.window_offsets[d]) + " + " + num(p.window_sizes[d]) + " - 1", num(p.copy_start(d)),
                       "(stride " + num(stride) + " is negative: the copy starts at the window's end)"});
    }
    steps.push_back({"in" + axis, std::string(stride < 0 ? "start" : "offset") + " + stride" + kTimes + "o",
                     num(p.copy_start(d)) + " + " + factor(stride) + kTimes + num(out[d]),
                     num(slice1_source_index(p, d, out[d])), ""});
  }
}

// The fold of one padded index, as padding.h's fold_padded_index does it.
void fold_steps(PaddingMode mode, int64_t i, int64_t n, const std::string& axis, std::vector<WorkedStep>& steps) {
  const std::string in = "in" + axis;
  const std::string folded = num(fold_padded_index(mode, i, n));
  switch (mode) {
    case PaddingMode::Constant:
      steps.push_back({in, "", "", "paddingValue", "(" + num(i) + " lies outside [0, " + num(n) + "))"});
      return;
    case PaddingMode::Edge:
      steps.push_back({in, "clamp(i, 0, n - 1)", "clamp(" + num(i) + ", 0, " + num(n - 1) + ")", folded, ""});
      return;
    case PaddingMode::Reflection:
    case PaddingMode::Symmetric: {
      const bool reflection = mode == PaddingMode::Reflection;
      if (reflection && n == 1) {
        steps.push_back({in, "", "", "0", "(a size-1 dimension repeats its one element)"});
        return;
      }
      const int64_t period = fold_period(mode, n);
      const int64_t m = floor_mod(i, period);
      steps.push_back({"m" + axis, reflection ? "i mod (2n - 2)" : "i mod 2n", num(i) + " mod " + num(period), num(m),
                       "(the floor modulo: never negative)"});
      if (m < n) {
        steps.push_back({in, "m", "", folded, "(m < n = " + num(n) + ")"});
      } else {
        steps.push_back({in, reflection ? "2n - 2 - m" : "2n - 1 - m",
                         num(2 * n) + (reflection ? " - 2 - " : " - 1 - ") + num(m), folded,
                         "(m >= n = " + num(n) + ": the mirror" +
                             (reflection ? ", not repeating the edge)" : ", repeating the edge)")});
      }
      return;
    }
  }
}

void padding_steps(const Operation& op, const Coord& out, std::vector<WorkedStep>& steps) {
  const auto& p = op.params_as<PaddingParams>();
  for (std::size_t d = 0; d < out.size(); ++d) {
    if (p.start_padding[d] == 0 && p.end_padding[d] == 0) continue;
    const std::string axis = "[" + num(uint64_t{d}) + "]";
    const int64_t i = unfolded_padding_index(p, d, out[d]);
    const auto n = static_cast<int64_t>(op.input().sizes()[d]);
    steps.push_back({"i" + axis, "o - start", num(out[d]) + " - " + num(p.start_padding[d]), num(i),
                     i >= 0 && i < n ? "(inside [0, " + num(n) + "): copied)" : ""});
    if (i < 0 || i >= n) fold_steps(p.mode, i, n, axis, steps);
  }
}

void pooling_steps(const Operation& op, const Provenance& prov, std::vector<WorkedStep>& steps) {
  const auto& p = op.params_as<MaxPooling2Params>();
  const std::size_t first = op.input().rank() - p.spatial_rank();
  constexpr uint64_t kListed = 12;
  for (std::size_t s = 0; s < p.spatial_rank(); ++s) {
    const uint64_t o = prov.output_coord[first + s];
    const auto n = static_cast<int64_t>(op.input().sizes()[first + s]);
    std::string taps;
    std::string padded;
    for (uint64_t k = 0; k < p.window_size[s] && k < kListed; ++k) {
      const int64_t at = pooling_tap_index(p, s, o, k);
      taps += (k == 0 ? "" : ", ") + num(at);
      if (at < 0 || at >= n) padded += (padded.empty() ? "" : ", ") + num(at);
    }
    if (p.window_size[s] > kListed) taps += ", ...";
    const std::string name = dim_name(op, first + s);
    steps.push_back({name + " taps", "o" + std::string(kTimes) + "stride - start + k" + kTimes + "dilation",
                     num(o) + kTimes + num(p.strides[s]) + " - " + num(p.start_padding[s]) + " + k" + kTimes +
                         num(p.dilations[s]) + " for k = 0.." + num(p.window_size[s] - 1),
                     taps, padded.empty() ? "" : "(" + padded + " in padding: never read, never wins)"});
  }
  if (!prov.winner || !prov.winner_index || !prov.source) return;
  steps.push_back({"winner", "", "", "in" + format_coord(*prov.source),
                   "(tap #" + num(uint64_t{*prov.winner}) +
                       " in row-major window order: the first maximum wins ties, a NaN wins over every number, "
                       "padded taps never win)"});
  const bool five = op.input().rank() == 5;
  const std::string formula = five ? "(((n" + std::string(kTimes) + "C + c)" + kTimes + "D + d)" + kTimes + "H + h)" +
                                         kTimes + "W + w"
                                   : "((n" + std::string(kTimes) + "C + c)" + kTimes + "H + h)" + kTimes + "W + w";
  const Coord& at = *prov.source;
  const Sizes& sizes = op.input().sizes();
  std::string numbers = num(at[0]) + kTimes + num(sizes[1]) + " + " + num(at[1]);
  for (std::size_t d = 2; d < at.size(); ++d) numbers = "(" + numbers + ")" + kTimes + num(sizes[d]) + " + " + num(at[d]);
  steps.push_back({"index", formula, numbers, num(*prov.winner_index),
                   "(the flat row-major position in the whole logical input, whatever its strides)"});
}

}  // namespace

std::string WorkedStep::text() const {
  std::string line = symbol;
  for (const std::string* part : {&formula, &numbers, &value}) {
    if (!part->empty()) line += " = " + *part;
  }
  return note.empty() ? line : line + "  " + note;
}

std::vector<WorkedStep> output_size_steps(const Operation& op) {
  std::vector<WorkedStep> steps;
  for (std::size_t d = 0; d < op.output().rank(); ++d) steps.push_back(size_step(op, d));
  return steps;
}

std::vector<WorkedStep> element_steps(const Operation& op, const Provenance& p) {
  std::vector<WorkedStep> steps;
  switch (op.kind()) {
    case OpKind::Identity: break;
    case OpKind::Slice: slice_steps(op, p.output_coord, steps); break;
    case OpKind::Slice1: slice1_steps(op, p.output_coord, steps); break;
    case OpKind::Padding: padding_steps(op, p.output_coord, steps); break;
    case OpKind::MaxPooling2: pooling_steps(op, p, steps); break;
  }
  if (p.source && p.kind != SourceKind::Pooled) {
    steps.push_back(offset_step("input offset", op.input(), *p.source, p.source_offset));
  }
  steps.push_back(offset_step("output offset", op.output(), p.output_coord, p.output_offset));
  return steps;
}

}  // namespace stridescope
