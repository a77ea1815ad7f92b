// A refusal says how far the value may go with the other numbers of the spec
// (the nearest valid value); the expected values are computed here by hand.
#include "core/operation.h"

#include <gtest/gtest.h>

#include <string>

#include "test_support.h"
#include "validation_requests.h"

namespace stridescope {
namespace {

using test::F32;
using test::pooling_basic;
using test::slice1_page;
using test::slice_page;
using test::tensor;
using test::U64s;

std::string refusal_message(const OpRequest& request) {
  auto refused = Operation::make(request);
  return refused.has_value() ? std::string("accepted") : refused.error().message;
}

TEST(RefusalNamesTheNearestValidValue, SliceSizeWithThisOffsetAndStride) {
  // Axis 3 of the page's slice: offset 1, stride 3 over 4 elements reads 1 and
  // 4; the largest size is (4 - 1 - 1) / 3 + 1 = 1.
  OpRequest request = slice_page();
  std::get<SliceRequest>(request.params).offsets = {0, 0, 1, 1};
  EXPECT_NE(refusal_message(request).find("size at most 1 with this offset and stride"), std::string::npos)
      << refusal_message(request);
  // Axis 2: offset 0, stride 2, size 3 reads 0, 2, 4 of 4: at most (4 - 1 - 0) / 2 + 1 = 2.
  request = slice_page();
  std::get<SliceRequest>(request.params).offsets = {0, 0, 0, 0};
  std::get<SliceRequest>(request.params).sizes = {1, 1, 3, 2};
  request.output.sizes = U64s{1, 1, 3, 2};
  EXPECT_NE(refusal_message(request).find("size at most 2 with this offset and stride"), std::string::npos)
      << refusal_message(request);
}

TEST(RefusalNamesTheNearestValidValue, OffsetsAtMostTheLastIndex) {
  OpRequest request = slice_page();
  std::get<SliceRequest>(request.params).offsets = {0, 0, 1, 4};
  std::get<SliceRequest>(request.params).sizes = {1, 1, 2, 1};
  request.output.sizes = U64s{1, 1, 2, 1};
  EXPECT_NE(refusal_message(request).find("outside input size 4 (at most 3 here)"), std::string::npos)
      << refusal_message(request);
}

TEST(RefusalNamesTheNearestValidValue, Slice1WindowSizeAndOutputSize) {
  // Window offset 2 on a 4-wide axis: the window holds at most 4 - 2 = 2.
  OpRequest request = slice1_page();
  std::get<Slice1Request>(request.params).input_window_offsets = {0, 0, 0, 2};
  EXPECT_NE(refusal_message(request).find("window size at most 2 with this offset"), std::string::npos)
      << refusal_message(request);
  // Window 4 with |stride| 2 supplies 1 + (4 - 1) / 2 = 2 elements; 3 asked.
  request = slice1_page();
  request.output.sizes = U64s{1, 1, 3, 2};
  EXPECT_NE(refusal_message(request).find("exceeds the 2 elements the window can supply"), std::string::npos)
      << refusal_message(request);
}

TEST(RefusalNamesTheNearestValidValue, PoolingWindowWithThisDilation) {
  // Padded size 4 + 0 + 0; dilation 2 spans (k - 1) * 2 + 1 <= 4, so k <= 2.
  OpRequest request{tensor(F32, {1, 1, 4, 4}), TensorRequest{}, std::nullopt,
                    MaxPooling2Request{{3, 1}, std::nullopt, std::nullopt, std::nullopt, U64s{2, 1}}};
  EXPECT_NE(refusal_message(request).find("window size at most 2 with dilation 2"), std::string::npos)
      << refusal_message(request);
  // Output sizes that disagree with the formula are told the size it gives:
  // (4 + 0 + 0 - 2) / 2 + 1 = 2.
  request = pooling_basic();
  request.output.sizes = U64s{1, 1, 3, 2};
  EXPECT_NE(refusal_message(request).find("is 3 but the op produces 2"), std::string::npos)
      << refusal_message(request);
}

}  // namespace
}  // namespace stridescope
