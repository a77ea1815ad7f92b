#include "core/io/random_spec.h"

#include <cmath>
#include <limits>
#include <string>
#include <variant>
#include <vector>

#include "core/io/random_request.h"
#include "core/io/random_values.h"
#include "core/operation.h"
#include "core/split_mix64.h"

namespace stridescope {
namespace {

// Each draw is cheap; this many refusals in a row would mean a generator bug.
constexpr int kMaxDraws = 10000;

// Whether a FLOAT holds `value` exactly: DML_PADDING's PaddingValue is one.
bool float_holds(const Scalar& value) {
  if (const auto* d = std::get_if<double>(&value)) {
    if (std::isnan(*d) || std::isinf(*d)) return true;
    return std::abs(*d) <= std::numeric_limits<float>::max() && static_cast<double>(static_cast<float>(*d)) == *d;
  }
  if (const auto* i = std::get_if<int64_t>(&value)) {
    const auto f = static_cast<float>(*i);
    return f < 0x1p63f && static_cast<int64_t>(f) == *i;
  }
  if (const auto* u = std::get_if<uint64_t>(&value)) {
    const auto f = static_cast<float>(*u);
    return f < 0x1p64f && static_cast<uint64_t>(f) == *u;
  }
  return false;
}

// A CONSTANT padding's value as a person writes one: a value of the type
// that DML_PADDING's FLOAT carries too, so every corpus case maps to the
// operator most implementations have. The shared generator's harder values
// (fractions, values a FLOAT rounds, values outside the type) are for the
// validator and backend tests.
Scalar constant_padding_value(SplitMix64& rng, DataType type) {
  while (true) {
    Scalar value = random::random_value(rng, type);
    if (float_holds(value)) return value;
  }
}

}  // namespace

Expected<Spec> random_spec(uint64_t seed, const RandomSpecOptions& options) {
  if (options.max_elements == 0) return Error{ErrorCode::InvalidSpec, "", "max_elements must be at least 1"};
  SplitMix64 rng(seed);
  random::DrawOptions draw;
  draw.op = options.op;
  draw.max_elements = options.max_elements;
  draw.max_output_elements = options.max_elements;
  for (int attempt = 0; attempt < kMaxDraws; ++attempt) {
    OpRequest request = random::random_request(rng, draw);
    Expected<Operation> operation = Operation::make(request);
    if (!operation || operation->input().buffer_elements() > options.max_elements ||
        operation->output().buffer_elements() > options.max_elements) {
      continue;
    }
    // Only CONSTANT reads the value; the others keep the default, as a person would write them.
    if (auto* padding = std::get_if<PaddingRequest>(&request.params)) {
      const bool constant = padding->padding_mode == PaddingMode::Constant;
      padding->padding_value = constant ? constant_padding_value(rng, *request.input.data_type)
                                        : PaddingRequest{}.padding_value;
    }
    std::vector<Scalar> data(operation->input().buffer_elements());
    for (Scalar& value : data) value = random::random_value(rng, operation->input().data_type());
    Spec spec;
    spec.request = std::move(request);
    spec.input_source.emplace<std::vector<Scalar>>(std::move(data));
    return spec;
  }
  return Error{ErrorCode::InvalidSpec, "", "no valid spec within " + std::to_string(kMaxDraws) + " draws"};
}

}  // namespace stridescope
