// resources/docs/spec-format.md lists each op's params (JSON name, unsigned or signed,
// one per dimension or per spatial dimension, defaults); the DirectML pages
// (DML_*_OPERATOR_DESC) give the struct fields they mirror. The expected rows below
// are typed from those two documents, not from the tables under test.
#include "core/op_schema.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

namespace stridescope {
namespace {

struct ExpectedField {
  std::string json_name;
  std::string directml_name;
  ParamType type;
  ParamExtent extent;
  bool optional;
  int64_t default_value;  // checked only for optional fields
};

using enum ParamType;
using enum ParamExtent;

std::vector<ExpectedField> expected_fields(OpKind kind) {
  switch (kind) {
    case OpKind::Identity: return {};
    case OpKind::Slice:  // DML_SLICE_OPERATOR_DESC: const UINT* Offsets, Sizes, Strides
      return {{"offsets", "Offsets", UnsignedArray, PerDimension, false, 0},
              {"sizes", "Sizes", UnsignedArray, PerDimension, false, 0},
              {"strides", "Strides", UnsignedArray, PerDimension, false, 0}};
    case OpKind::Slice1:  // const UINT* InputWindowOffsets, InputWindowSizes; const INT* InputWindowStrides
      return {{"inputWindowOffsets", "InputWindowOffsets", UnsignedArray, PerDimension, false, 0},
              {"inputWindowSizes", "InputWindowSizes", UnsignedArray, PerDimension, false, 0},
              {"inputWindowStrides", "InputWindowStrides", SignedArray, PerDimension, false, 0}};
    case OpKind::Padding:  // DML_PADDING_MODE PaddingMode; FLOAT PaddingValue; const UINT* StartPadding, EndPadding
      return {{"paddingMode", "PaddingMode", PaddingModeName, Single, false, 0},
              {"paddingValue", "PaddingValue", Number, Single, true, 0},  // "default 0"
              {"startPadding", "StartPadding", UnsignedArray, PerDimension, false, 0},
              {"endPadding", "EndPadding", UnsignedArray, PerDimension, false, 0}};
    case OpKind::MaxPooling2:  // const UINT* WindowSize, Strides, StartPadding, EndPadding, Dilations
      // "strides and dilations default to all 1, paddings to all 0"
      return {{"windowSize", "WindowSize", UnsignedArray, PerSpatialDimension, false, 0},
              {"strides", "Strides", UnsignedArray, PerSpatialDimension, true, 1},
              {"startPadding", "StartPadding", UnsignedArray, PerSpatialDimension, true, 0},
              {"endPadding", "EndPadding", UnsignedArray, PerSpatialDimension, true, 0},
              {"dilations", "Dilations", UnsignedArray, PerSpatialDimension, true, 1}};
  }
  return {};
}

constexpr OpKind kAllKinds[] = {OpKind::Identity, OpKind::Slice, OpKind::Slice1, OpKind::Padding,
                                OpKind::MaxPooling2};

TEST(OpSchema, TablesAreInOpKindOrderWithTheSpecsOpNames) {
  ASSERT_EQ(op_schemas().size(), kOpKindCount);
  const char* names[] = {"identity", "slice", "slice1", "padding", "max_pooling2"};
  const char* structs[] = {"DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC", "DML_SLICE_OPERATOR_DESC",
                           "DML_SLICE1_OPERATOR_DESC", "DML_PADDING_OPERATOR_DESC",
                           "DML_MAX_POOLING2_OPERATOR_DESC"};
  for (std::size_t i = 0; i < kOpKindCount; ++i) {
    EXPECT_EQ(op_schemas()[i].kind, kAllKinds[i]);
    EXPECT_EQ(op_schemas()[i].name, names[i]);
    EXPECT_EQ(op_schemas()[i].directml_struct, structs[i]);
    EXPECT_EQ(&op_schema(kAllKinds[i]), &op_schemas()[i]);
  }
}

TEST(OpSchema, EveryOpListsExactlyTheFieldsOfTheSpec) {
  for (OpKind kind : kAllKinds) {
    const std::vector<ExpectedField> expected = expected_fields(kind);
    const OpSchema& schema = op_schema(kind);
    ASSERT_EQ(schema.params.size(), expected.size()) << to_string(kind);
    for (std::size_t i = 0; i < expected.size(); ++i) {
      const ParamField& field = schema.params[i];
      const ExpectedField& want = expected[i];
      SCOPED_TRACE(std::string(to_string(kind)) + " " + want.json_name);
      EXPECT_EQ(field.json_name, want.json_name);
      EXPECT_EQ(field.directml_name, want.directml_name);
      EXPECT_EQ(field.type, want.type);
      EXPECT_EQ(field.extent, want.extent);
      EXPECT_EQ(field.optional, want.optional);
      if (want.optional) {
        EXPECT_EQ(field.fill, want.default_value);
      }
      EXPECT_FALSE(field.label.empty());
      EXPECT_FALSE(field.help.empty());
      EXPECT_EQ(field.help.find('\n'), std::string_view::npos);  // one line
    }
  }
}

TEST(OpSchema, AddedDimensionsChangeNothing) {
  // A leading dimension of size 1: offset 0, size 1, stride 1; no padding; a
  // window of 1 with stride and dilation 1.
  EXPECT_EQ(param_field(&SliceRequest::offsets).fill, 0);
  EXPECT_EQ(param_field(&SliceRequest::sizes).fill, 1);
  EXPECT_EQ(param_field(&SliceRequest::strides).fill, 1);
  EXPECT_EQ(param_field(&Slice1Request::input_window_offsets).fill, 0);
  EXPECT_EQ(param_field(&Slice1Request::input_window_sizes).fill, 1);
  EXPECT_EQ(param_field(&Slice1Request::input_window_strides).fill, 1);
  EXPECT_EQ(param_field(&PaddingRequest::start_padding).fill, 0);
  EXPECT_EQ(param_field(&PaddingRequest::end_padding).fill, 0);
  EXPECT_EQ(param_field(&MaxPooling2Request::window_size).fill, 1);
}

TEST(OpSchema, EachFieldHasItsOwnSlotOfItsType) {
  for (OpKind kind : kAllKinds) {
    ParamsRequest request = empty_params_request(kind);
    ASSERT_EQ(request.index(), static_cast<std::size_t>(kind));
    std::set<const void*> seen;
    for (const ParamField& field : op_schema(kind).params) {
      const ParamSlot slot = param_slot(request, field);
      seen.insert(std::visit([](auto* p) { return static_cast<const void*>(p); }, slot));
      const bool optional_array = std::holds_alternative<std::optional<std::vector<uint64_t>>*>(slot);
      switch (field.type) {
        case UnsignedArray:
          EXPECT_TRUE(std::holds_alternative<std::vector<uint64_t>*>(slot) || optional_array) << field.json_name;
          EXPECT_EQ(optional_array, field.optional) << field.json_name;
          break;
        case SignedArray: EXPECT_TRUE(std::holds_alternative<std::vector<int64_t>*>(slot)); break;
        case PaddingModeName: EXPECT_TRUE(std::holds_alternative<PaddingMode*>(slot)); break;
        case Number: EXPECT_TRUE(std::holds_alternative<Scalar*>(slot)); break;
      }
    }
    EXPECT_EQ(seen.size(), op_schema(kind).params.size()) << to_string(kind);
  }
}

TEST(OpSchema, SlotsReachTheRequestsMembers) {
  ParamsRequest request = Slice1Request{{0, 0}, {1, 4}, {1, -2}};
  const ParamField* strides = find_param(OpKind::Slice1, "inputWindowStrides");
  ASSERT_NE(strides, nullptr);
  auto* values = std::get<std::vector<int64_t>*>(param_slot(request, *strides));
  EXPECT_EQ(*values, (std::vector<int64_t>{1, -2}));
  (*values)[1] = 3;
  EXPECT_EQ(std::get<Slice1Request>(request).input_window_strides[1], 3);
  const ParamsRequest& read_only = request;
  EXPECT_EQ((*std::get<const std::vector<int64_t>*>(param_slot(read_only, *strides)))[1], 3);
}

TEST(OpSchema, MembersNameTheirFields) {
  EXPECT_EQ(param_path(&Slice1Request::input_window_strides, 2), "params.inputWindowStrides[2]");
  EXPECT_EQ(param_path(&SliceRequest::strides), "params.strides");
  EXPECT_EQ(param_path(&MaxPooling2Request::strides, 1), "params.strides[1]");
  EXPECT_EQ(param_field(&MaxPooling2Request::dilations).directml_name, "Dilations");
  EXPECT_EQ(param_field(&PaddingRequest::padding_value).json_name, "paddingValue");
  // Same JSON name, different ops: each member finds its own op's row.
  EXPECT_TRUE(param_field(&MaxPooling2Request::start_padding).optional);
  EXPECT_FALSE(param_field(&PaddingRequest::start_padding).optional);
}

TEST(OpSchema, FindParamLooksInOneOpOnly) {
  EXPECT_NE(find_param(OpKind::Slice, "offsets"), nullptr);
  EXPECT_EQ(find_param(OpKind::Slice1, "offsets"), nullptr);
  EXPECT_EQ(find_param(OpKind::Identity, "sizes"), nullptr);
  EXPECT_EQ(find_param(OpKind::Padding, "PaddingMode"), nullptr);  // JSON names are camelCase
}

TEST(OpSchema, EntriesFollowTheInputRank) {
  EXPECT_EQ(param_entries(PerDimension, 4), 4u);
  EXPECT_EQ(param_entries(PerSpatialDimension, 4), 2u);  // {N, C, H, W}
  EXPECT_EQ(param_entries(PerSpatialDimension, 5), 3u);  // {N, C, D, H, W}
  EXPECT_EQ(param_entries(Single, 7), 1u);
}

}  // namespace
}  // namespace stridescope
