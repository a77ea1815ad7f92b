#include "core/io/random_spec.h"

#include <string>
#include <vector>

#include "core/io/random_request.h"
#include "core/io/random_values.h"
#include "core/operation.h"
#include "core/split_mix64.h"

namespace stridescope {
namespace {

// Each draw is cheap; this many refusals in a row would mean a generator bug.
constexpr int kMaxDraws = 10000;

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
      if (padding->padding_mode != PaddingMode::Constant) padding->padding_value = PaddingRequest{}.padding_value;
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
