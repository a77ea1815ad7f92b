// A max_pooling2 case for the backends' pooling tests: the shapes, window and
// padding a test varies, turned into a request for any data type.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/op_request.h"

namespace stridescope::test {

struct PoolingShape {
  std::vector<uint64_t> sizes;
  std::optional<std::vector<uint64_t>> in_strides;  // packed when absent
  std::vector<uint64_t> window;
  std::vector<uint64_t> pool_strides;
  std::vector<uint64_t> dilations;
  std::vector<uint64_t> start_padding;
  std::vector<uint64_t> end_padding;
  std::optional<std::vector<uint64_t>> out_strides = std::nullopt;  // output and indices; packed when absent
};

inline OpRequest pooling_request(const PoolingShape& s, DataType type, std::optional<DataType> index_type) {
  OpRequest r;
  r.input = TensorRequest{type, s.sizes, s.in_strides};
  r.output = TensorRequest{type, std::nullopt, s.out_strides};
  if (index_type) r.output_indices = TensorRequest{*index_type, std::nullopt, s.out_strides};
  MaxPooling2Request p;
  p.window_size = s.window;
  p.strides = s.pool_strides;
  p.dilations = s.dilations;
  p.start_padding = s.start_padding;
  p.end_padding = s.end_padding;
  r.params = p;
  return r;
}

}  // namespace stridescope::test
