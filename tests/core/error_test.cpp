// resources/docs/cli.md: an invalid spec prints one line naming the field by its JSON
// path, e.g. "error: params.inputWindowStrides[2]: stride must not be 0".
#include "core/error.h"

#include <gtest/gtest.h>

#include <string>

namespace stridescope {
namespace {

TEST(Error, ToStringIsPathColonMessage) {
  const Error error = invalid("params.inputWindowStrides[2]", "stride must not be 0");
  EXPECT_EQ(error.code, ErrorCode::InvalidSpec);
  EXPECT_EQ(error.to_string(), "params.inputWindowStrides[2]: stride must not be 0");
}

TEST(Error, ToStringWithoutPathIsJustTheMessage) {
  const Error error{ErrorCode::BackendUnavailable, "", "no vulkan device"};
  EXPECT_EQ(error.to_string(), "no vulkan device");
}

TEST(Error, ExpectedHoldsAValueOrAnError) {
  Expected<std::string> value(std::string("ok"));
  ASSERT_TRUE(value.has_value());
  EXPECT_EQ(*value, "ok");
  EXPECT_EQ(value->size(), 2u);
  Expected<std::string> failed(invalid("input.sizes", "a tensor needs 1 to 8 dimensions"));
  ASSERT_FALSE(failed.has_value());
  EXPECT_FALSE(static_cast<bool>(failed));
  EXPECT_EQ(failed.error().path, "input.sizes");
}

TEST(Error, StatusIsOkUntilGivenAnError) {
  Status ok;
  EXPECT_TRUE(ok.ok());
  Status failed = invalid("output.strides", "two elements share an offset");
  EXPECT_FALSE(failed.ok());
  EXPECT_EQ(failed.error().to_string(), "output.strides: two elements share an offset");
}

}  // namespace
}  // namespace stridescope
