#include "core/codegen/python_text.h"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <variant>

#include "core/float16.h"
#include "core/scalar.h"

namespace stridescope::codegen {
namespace {

// A float literal must look like one: "-0" would read as the integer 0 and lose its sign.
std::string as_float_literal(std::string text) {
  if (text.find_first_of(".en") == std::string::npos) text += ".0";
  return text;
}

template <class T>
std::string shortest(T value) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return as_float_literal(std::string(buffer, result.ptr));
}

std::optional<std::string> special_float(double value, bool canonical_nan) {
  if (std::isnan(value)) return canonical_nan ? std::optional<std::string>("math.nan") : std::nullopt;
  if (std::isinf(value)) return std::string(value < 0 ? "-math.inf" : "math.inf");
  return std::nullopt;
}

// Python reads a literal as a double and the framework rounds that to float32
// once: the float's shortest text is used only where that gives its bits back.
std::string float32_literal(float value) {
  const std::string short_text = shortest(value);
  const double read = std::strtod(short_text.c_str(), nullptr);
  if (std::bit_cast<uint32_t>(static_cast<float>(read)) == std::bit_cast<uint32_t>(value)) return short_text;
  return shortest(static_cast<double>(value));
}

int64_t sign_extend(uint64_t bits, std::size_t bytes) {
  if (bytes == 8) return static_cast<int64_t>(bits);
  const unsigned shift = 64 - 8 * static_cast<unsigned>(bytes);
  return static_cast<int64_t>(bits << shift) >> shift;
}

}  // namespace

std::optional<std::string> python_element(DataType type, uint64_t bits, bool exact) {
  switch (type) {
    case DataType::Float16: {
      const double value = half_to_double(static_cast<uint16_t>(bits));
      if (std::isnan(value) || std::isinf(value)) return special_float(value, bits == 0x7E00);
      // Exact as a double: PyTorch may round a double to half through float.
      return shortest(value);
    }
    case DataType::Float32: {
      const float value = std::bit_cast<float>(static_cast<uint32_t>(bits));
      if (std::isnan(value) || std::isinf(value)) return special_float(value, bits == 0x7FC00000u);
      return exact ? shortest(static_cast<double>(value)) : float32_literal(value);
    }
    case DataType::Float64: {
      const double value = std::bit_cast<double>(bits);
      if (std::isnan(value) || std::isinf(value)) return special_float(value, bits == 0x7FF8000000000000ull);
      return shortest(value);
    }
    default:
      break;
  }
  if (is_signed_integer(type)) return std::to_string(sign_extend(bits, element_size(type)));
  return std::to_string(bits);
}

PythonValues python_values(DataType type, std::span<const std::byte> buffer, uint64_t count, bool for_torch) {
  PythonValues values;
  values.items.reserve(count);
  const std::size_t size = element_size(type);
  for (uint64_t i = 0; i < count; ++i) {
    std::optional<std::string> item =
        python_element(type, read_element_bits(type, buffer.data() + i * size), for_torch);
    if (!item) {
      values.as_bits = true;
      break;
    }
    values.items.push_back(std::move(*item));
  }
  if (!values.as_bits) return values;
  values.items.clear();
  for (uint64_t i = 0; i < count; ++i) {
    const uint64_t bits = read_element_bits(type, buffer.data() + i * size);
    values.items.push_back(for_torch ? std::to_string(sign_extend(bits, size)) : std::to_string(bits));
  }
  return values;
}

std::string python_list(const std::vector<std::string>& items, std::size_t indent) {
  std::string text = "[";
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) {
      text += ',';
      if (text.size() - line_start + items[i].size() > 96) {
        text += '\n';
        line_start = text.size();
        text.append(indent, ' ');
      } else {
        text += ' ';
      }
    }
    text += items[i];
  }
  return text + "]";
}

std::string tensor_comment(const std::string& name, const TensorDesc& desc) {
  const LayoutTraits& layout = desc.layout();
  std::string traits;
  const auto add = [&](bool on, const char* word) {
    if (!on) return;
    if (!traits.empty()) traits += ", ";
    traits += word;
  };
  add(layout.packed && layout.row_major, "packed row-major");
  add(layout.packed && !layout.row_major, "packed");
  add(layout.broadcast, "broadcast");
  add(layout.gapped, "gapped");
  add(layout.permuted, "permuted");
  add(layout.overlapping, "overlapping");
  std::string text = "# " + name + ": " + std::string(to_string(desc.data_type())) + ", sizes " +
                     bracket_list(desc.sizes()) + ", strides " + bracket_list(desc.strides()) + " (elements)";
  if (!traits.empty()) text += ", " + traits;
  text += "\n# buffer: " + std::to_string(desc.buffer_elements()) + " elements, " +
          std::to_string(desc.buffer_bytes()) + " bytes (DMLCalcBufferTensorSize)\n";
  return text;
}

std::string input_source_comment(const InputSource& source) {
  if (const auto* fill = std::get_if<Fill>(&source)) {
    if (std::holds_alternative<FillIota>(*fill)) return "iota: 1, 2, 3, ... in buffer order";
    if (std::holds_alternative<FillLogicalIota>(*fill)) {
      return "logical iota: 1, 2, 3, ... in logical order, each at its element's offset, written out";
    }
    if (std::holds_alternative<FillZeros>(*fill)) return "zeros";
    const auto& random = std::get<FillRandom>(*fill);
    return "random fill, seed " + std::to_string(random.seed) + " in [" + format_scalar(Scalar{random.min}) + ", " +
           format_scalar(Scalar{random.max}) + "]" + (random.integers ? ", integers" : "") +
           ": the values StrideScope's generator (SplitMix64) draws, written out";
  }
  if (std::holds_alternative<std::vector<Scalar>>(source)) {
    return "the spec's data, in buffer order, converted to the data type";
  }
  return "the spec's .npy file, its first buffer-size elements in order";
}

std::vector<int64_t> padding_sources(const PaddingParams& params, const Sizes& input_sizes, std::size_t dim,
                                     uint64_t output_size) {
  std::vector<int64_t> sources(output_size);
  for (uint64_t o = 0; o < output_size; ++o) sources[o] = padding_source_index(params, input_sizes, dim, o);
  return sources;
}

}  // namespace stridescope::codegen

namespace stridescope::codegen {

std::string python_string(const std::string& text) {
  std::string out = "'";
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\\' || c == '\'') {
      out += '\\';
      out += c;
    } else if (u < 0x20 || u == 0x7F) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", u);
      out += escaped;
    } else {
      out += c;
    }
  }
  return out + "'";
}

std::string python_slice(int64_t start, int64_t step, uint64_t count) {
  const int64_t last = start + step * static_cast<int64_t>(count - 1);
  const int64_t stop = last + (step > 0 ? 1 : -1);
  std::string text = std::to_string(start) + ":";
  if (stop >= 0) text += std::to_string(stop);  // a stop of -1 would mean "the last element"
  if (step != 1) text += ":" + std::to_string(step);
  return text;
}

std::string python_header(const std::string& framework, const Operation& op) {
  std::string text = "#!/usr/bin/env python3\n";
  text += "\"\"\"A StrideScope spec (" + std::string(to_string(op.kind())) + ") in " + framework + ", exactly.\n\n";
  text += "Leaves the logical result in `output`";
  if (op.output_indices()) text += " and DirectML's flat pooling indices in `indices`";
  text += ".\nRun with --print to print ";
  text += op.output_indices() ? "them" : "it";
  text += "; otherwise it prints nothing.\n\"\"\"\n";
  return text;
}

std::string python_slice_code(const Operation& op) {
  const auto& p = op.params_as<SliceParams>();
  std::string text = "# slice: Output[o] = Input[Offsets + Strides * o]; Offsets " + bracket_list(p.offsets) +
                     ", Sizes " + bracket_list(p.sizes) + ", Strides " + bracket_list(p.strides) + "\nresult = x[";
  for (std::size_t d = 0; d < p.offsets.size(); ++d) {
    if (d > 0) text += ", ";
    text += python_slice(static_cast<int64_t>(p.offsets[d]), static_cast<int64_t>(p.strides[d]), p.sizes[d]);
  }
  return text + "]\n";
}

}  // namespace stridescope::codegen
