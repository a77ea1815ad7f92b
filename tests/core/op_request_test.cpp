// spec-format.md: the spec's `op` is one of slice, slice1, padding, identity,
// max_pooling2; which params a request carries decides its op.
#include "core/op_request.h"

#include <gtest/gtest.h>

namespace stridescope {
namespace {

TEST(OpRequest, OpNamesRoundTrip) {
  for (OpKind kind : {OpKind::Identity, OpKind::Slice, OpKind::Slice1, OpKind::Padding, OpKind::MaxPooling2}) {
    EXPECT_EQ(parse_op_kind(to_string(kind)), kind) << to_string(kind);
  }
  EXPECT_EQ(to_string(OpKind::MaxPooling2), "max_pooling2");
  EXPECT_EQ(to_string(OpKind::Slice1), "slice1");
  EXPECT_EQ(to_string(OpKind::Identity), "identity");
}

TEST(OpRequest, UnknownOpNamesAreRefused) {
  EXPECT_FALSE(parse_op_kind("max_pooling").has_value());
  EXPECT_FALSE(parse_op_kind("SLICE").has_value());
  EXPECT_FALSE(parse_op_kind("").has_value());
}

TEST(OpRequest, TheParamsAlternativeDecidesTheKind) {
  OpRequest request;
  EXPECT_EQ(request.kind(), OpKind::Identity);
  request.params = Slice1Request{};
  EXPECT_EQ(request.kind(), OpKind::Slice1);
  request.params = PaddingRequest{};
  EXPECT_EQ(request.kind(), OpKind::Padding);
  request.params = MaxPooling2Request{};
  EXPECT_EQ(request.kind(), OpKind::MaxPooling2);
  request.params = SliceRequest{};
  EXPECT_EQ(request.kind(), OpKind::Slice);
}

TEST(OpRequest, PaddingDefaultsAreConstantZero) {
  const PaddingRequest padding;
  EXPECT_EQ(padding.padding_mode, PaddingMode::Constant);
  EXPECT_EQ(padding.padding_value, Scalar{int64_t{0}});
}

}  // namespace
}  // namespace stridescope
