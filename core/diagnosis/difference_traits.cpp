#include "core/diagnosis/difference_traits.h"

#include <cmath>
#include <limits>

#include "core/provenance.h"
#include "core/scalar.h"

namespace stridescope {
namespace {

// A property every differing element has, or not.
class AllOf {
 public:
  void see(bool value) { all_ = all_ && value; }
  bool all() const { return all_; }

 private:
  bool all_ = true;
};

void add_part_traits(const Operation& op, std::span<const DifferingElement> differing, std::vector<std::string>& out) {
  if (!op.output_indices()) return;
  AllOf indices, values;
  for (const DifferingElement& e : differing) {
    indices.see(e.indices);
    values.see(!e.indices);
  }
  if (indices.all()) out.push_back("only indices (the output values agree)");
  if (values.all()) out.push_back("only output values (the indices agree)");
}

void add_axis_traits(std::span<const DifferingElement> differing, std::vector<std::string>& out) {
  const Coord& first = differing.front().coord;
  std::vector<std::size_t> varying;
  for (std::size_t d = 0; d < first.size(); ++d) {
    for (const DifferingElement& e : differing) {
      if (e.coord[d] != first[d]) {
        varying.push_back(d);
        break;
      }
    }
  }
  if (varying.empty()) {
    out.push_back("only one position: " + format_coord(first));
  } else if (varying.size() == 1) {
    out.push_back("only one axis: the coordinates differ along axis " + std::to_string(varying.front()) +
                  " alone");
  }
}

void add_padding_traits(const Operation& op, std::span<const DifferingElement> differing,
                        std::vector<std::string>& out) {
  AllOf padded, inside;
  std::optional<std::size_t> one_axis;
  AllOf same_axis;
  for (const DifferingElement& e : differing) {
    const Expected<Provenance> why = explain(op, e.coord);
    if (!why) return;
    std::vector<std::size_t> axes;
    for (std::size_t d = 0; d < why->unfolded.size(); ++d) {
      if (why->unfolded[d] < 0 || why->unfolded[d] >= static_cast<int64_t>(op.input().sizes()[d])) axes.push_back(d);
    }
    padded.see(!axes.empty());
    inside.see(axes.empty());
    same_axis.see(axes.size() == 1 && (!one_axis || *one_axis == axes.front()));
    if (axes.size() == 1) one_axis = axes.front();
  }
  if (padded.all()) out.push_back("only padded positions");
  if (padded.all() && same_axis.all() && one_axis) {
    out.push_back("only the padding of axis " + std::to_string(*one_axis));
  }
  if (inside.all()) out.push_back("only positions inside the input (none in padding)");
}

void add_pooling_traits(const Operation& op, std::span<const std::byte> input,
                        std::span<const DifferingElement> differing, std::vector<std::string>& out) {
  AllOf padded, tied, nan;
  const DataType type = op.input().data_type();
  for (const DifferingElement& e : differing) {
    const Expected<Provenance> why = explain(op, e.coord, input);
    if (!why) return;
    bool has_padding = why->window_taps > why->window.size();  // unlisted taps: assume none padded
    double best = -std::numeric_limits<double>::infinity();
    int at_best = 0;
    bool has_nan = false;
    for (const PoolingTap& tap : why->window) {
      has_padding = has_padding || tap.padded;
      if (tap.padded) continue;
      const double value = to_double(read_element(type, input.data() + tap.offset * element_size(type)));
      if (std::isnan(value)) {
        has_nan = true;
      } else if (value > best || at_best == 0) {
        best = value;
        at_best = 1;
      } else if (value == best) {
        ++at_best;
      }
    }
    padded.see(has_padding);
    tied.see(at_best > 1);
    nan.see(has_nan);
  }
  if (padded.all()) out.push_back("only windows that include padding");
  if (tied.all()) out.push_back("only windows with tied maxima");
  if (nan.all()) out.push_back("only windows holding a NaN");
}

// Is the exact value one only a particular data type's range explains?
void add_value_traits(const Operation& op, std::span<const std::byte> exact_output,
                      std::span<const DifferingElement> differing, std::vector<std::string>& out) {
  const TensorDesc& desc = op.output();
  const DataType type = desc.data_type();
  AllOf beyond_double, beyond_float, extreme, nan, infinite;
  bool any = false;
  for (const DifferingElement& e : differing) {
    if (e.indices) continue;
    any = true;
    const Scalar value = read_element(type, exact_output.data() + desc.offset_of(e.coord) * desc.element_size());
    const double d = to_double(value);
    const auto* i = std::get_if<int64_t>(&value);
    const auto* u = std::get_if<uint64_t>(&value);
    beyond_double.see((i && (*i > (int64_t{1} << 53) || *i < -(int64_t{1} << 53))) || (u && *u > (uint64_t{1} << 53)));
    beyond_float.see(type == DataType::Float64 && std::isfinite(d) && static_cast<double>(static_cast<float>(d)) != d);
    const uint64_t bits = read_element_bits(type, exact_output.data() + desc.offset_of(e.coord) * desc.element_size());
    const unsigned width = static_cast<unsigned>(element_size(type) * 8);
    const uint64_t mask = width == 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
    const uint64_t sign = uint64_t{1} << (width - 1);
    extreme.see(!is_floating(type) && (is_signed_integer(type) ? (bits == sign || bits == (mask ^ sign))
                                                               : (bits == 0 || bits == mask)));
    nan.see(std::isnan(d));
    infinite.see(std::isinf(d));
  }
  if (!any) return;
  const std::string name(to_string(type));
  if (beyond_double.all()) out.push_back("only " + name + " values beyond 2^53, which a double cannot hold exactly");
  if (beyond_float.all()) out.push_back("only FLOAT64 values FLOAT32 cannot hold exactly");
  if (extreme.all()) out.push_back("only " + name + "'s extreme values");
  if (nan.all()) out.push_back("only NaN values");
  if (infinite.all()) out.push_back("only infinities");
}

}  // namespace

std::vector<std::string> describe_differences(const Operation& op, std::span<const std::byte> input,
                                              std::span<const std::byte> exact_output,
                                              std::span<const DifferingElement> differing) {
  std::vector<std::string> traits;
  if (differing.empty()) return traits;
  add_part_traits(op, differing, traits);
  add_axis_traits(differing, traits);
  if (op.kind() == OpKind::Padding) add_padding_traits(op, differing, traits);
  if (op.kind() == OpKind::MaxPooling2) add_pooling_traits(op, input, differing, traits);
  add_value_traits(op, exact_output, differing, traits);
  if (traits.empty()) traits.push_back("nothing StrideScope recognises");
  return traits;
}

}  // namespace stridescope
