// ui/spec_edits.h: the editor's edits as pure functions.
//   "new dimensions of size 1 are added in front" (the last two keep their meaning)
//   DirectML "sizes and strides": packed NHWC for {1,1,3,5} has strides {15,1,5,1}.
#include <QtTest>

#include "core/operation.h"
#include "test_backends.h"
#include "ui/spec_edits.h"

using namespace stridescope;
using namespace stridescope::ui;

class SpecEditsTest : public QObject {
  Q_OBJECT

 private slots:
  void DefaultSpec_IsTheSlice1NegativeStrideExample() {
    const Spec spec = default_spec();
    const Expected<Operation> op = Operation::make(spec.request);
    QVERIFY2(op.has_value(), op ? "" : op.error().to_string().c_str());
    QCOMPARE(op->kind(), OpKind::Slice1);
    QCOMPARE(op->output().sizes(), (Sizes{1, 1, 2, 2}));
    QCOMPARE(op->params_as<Slice1Params>().window_strides, (WindowStrides{1, 1, -2, 2}));
  }

  void WithOp_GivesAValidSpecForEveryOperator_data() {
    QTest::addColumn<int>("kind");
    QTest::newRow("identity") << static_cast<int>(OpKind::Identity);
    QTest::newRow("slice") << static_cast<int>(OpKind::Slice);
    QTest::newRow("slice1") << static_cast<int>(OpKind::Slice1);
    QTest::newRow("padding") << static_cast<int>(OpKind::Padding);
    QTest::newRow("max_pooling2") << static_cast<int>(OpKind::MaxPooling2);
  }
  void WithOp_GivesAValidSpecForEveryOperator() {
    QFETCH(int, kind);
    for (std::size_t rank : {1u, 2u, 4u, 6u}) {
      const Spec spec = with_op(with_rank(default_spec(), rank), static_cast<OpKind>(kind));
      QCOMPARE(static_cast<int>(spec.request.kind()), kind);
      const Expected<Operation> op = Operation::make(spec.request);
      QVERIFY2(op.has_value(), op ? "" : op.error().to_string().c_str());
    }
  }

  void WithOp_MaxPooling2AddsLeadingDimensionsToReachFour() {
    Spec spec = default_spec();
    spec.request.input.sizes = std::vector<uint64_t>{6, 7};
    const Spec pooled = with_op(spec, OpKind::MaxPooling2);
    QCOMPARE(*pooled.request.input.sizes, (std::vector<uint64_t>{1, 1, 6, 7}));
    QCOMPARE(std::get<MaxPooling2Request>(pooled.request.params).window_size, (std::vector<uint64_t>{2, 2}));
    QVERIFY(pooled.request.output_indices.has_value());
  }

  // On the {1,1,4,4} input: slice takes every second element of the last two
  // dimensions (1 + (4 - 1) / 2 = 2), slice1 reverses the last dimension,
  // padding reflects 1 before and 2 after, max_pooling2 takes 2x2 windows
  // with stride 2, no padding, dilation 1, and asks for UINT32 indices.
  void WithOp_DemonstratesOnTheLastTwoDimensions() {
    using U64s = std::vector<uint64_t>;
    const Spec spec = default_spec();
    const auto slice = std::get<SliceRequest>(with_op(spec, OpKind::Slice).request.params);
    QCOMPARE(slice.offsets, (U64s{0, 0, 0, 0}));
    QCOMPARE(slice.sizes, (U64s{1, 1, 2, 2}));
    QCOMPARE(slice.strides, (U64s{1, 1, 2, 2}));
    const Spec sliced1 = with_op(with_op(spec, OpKind::Slice), OpKind::Slice1);
    const auto slice1 = std::get<Slice1Request>(sliced1.request.params);
    QCOMPARE(slice1.input_window_offsets, (U64s{0, 0, 0, 0}));
    QCOMPARE(slice1.input_window_sizes, (U64s{1, 1, 4, 4}));
    QCOMPARE(slice1.input_window_strides, (std::vector<int64_t>{1, 1, 1, -1}));
    QCOMPARE(*sliced1.request.output.sizes, (U64s{1, 1, 4, 4}));
    const auto padding = std::get<PaddingRequest>(with_op(spec, OpKind::Padding).request.params);
    QCOMPARE(padding.start_padding, (U64s{0, 0, 1, 1}));
    QCOMPARE(padding.end_padding, (U64s{0, 0, 2, 2}));
    QCOMPARE(padding.padding_mode, PaddingMode::Reflection);
    QCOMPARE(padding.padding_value, Scalar{int64_t{0}});
    const Spec pooled = with_op(spec, OpKind::MaxPooling2);
    const auto pooling = std::get<MaxPooling2Request>(pooled.request.params);
    QCOMPARE(pooling.window_size, (U64s{2, 2}));
    QCOMPARE(pooling.strides, std::optional<U64s>(U64s{2, 2}));
    QCOMPARE(pooling.start_padding, std::optional<U64s>(U64s{0, 0}));
    QCOMPARE(pooling.end_padding, std::optional<U64s>(U64s{0, 0}));
    QCOMPARE(pooling.dilations, std::optional<U64s>(U64s{1, 1}));
    QCOMPARE(pooled.request.output_indices->data_type, std::optional<DataType>(DataType::UInt32));
  }

  // The spec format's param order (resources/docs/spec-format.md), arrays only.
  void ParamArrayFields_ListTheOpsArraysInSpecOrder() {
    QCOMPARE(param_array_fields(OpKind::Identity), std::vector<std::string>{});
    QCOMPARE(param_array_fields(OpKind::Slice1),
             (std::vector<std::string>{"params.inputWindowOffsets", "params.inputWindowSizes",
                                       "params.inputWindowStrides"}));
    QCOMPARE(param_array_fields(OpKind::Padding), (std::vector<std::string>{"params.startPadding", "params.endPadding"}));
    QCOMPARE(param_array_fields(OpKind::MaxPooling2),
             (std::vector<std::string>{"params.windowSize", "params.strides", "params.startPadding",
                                       "params.endPadding", "params.dilations"}));
  }

  void WithRank_AddsLeadingOnesAndKeepsEveryArrayInStep() {
    const Spec spec = with_rank(default_spec(), 6);
    QCOMPARE(*spec.request.input.sizes, (std::vector<uint64_t>{1, 1, 1, 1, 4, 4}));
    QCOMPARE(*spec.request.output.sizes, (std::vector<uint64_t>{1, 1, 1, 1, 2, 2}));
    const auto& p = std::get<Slice1Request>(spec.request.params);
    QCOMPARE(p.input_window_offsets, (std::vector<uint64_t>{0, 0, 0, 0, 0, 1}));
    QCOMPARE(p.input_window_sizes, (std::vector<uint64_t>{1, 1, 1, 1, 4, 3}));
    QCOMPARE(p.input_window_strides, (std::vector<int64_t>{1, 1, 1, 1, -2, 2}));
    QVERIFY(Operation::make(spec.request).has_value());
  }

  void WithRank_RemovesLeadingDimensions() {
    const Spec spec = with_rank(default_spec(), 2);
    QCOMPARE(*spec.request.input.sizes, (std::vector<uint64_t>{4, 4}));
    QCOMPARE(std::get<Slice1Request>(spec.request.params).input_window_strides, (std::vector<int64_t>{-2, 2}));
    QVERIFY(Operation::make(spec.request).has_value());
  }

  void WithRank_PoolingInsertsTheDepthDimensionAfterChannels() {
    Spec spec = with_op(default_spec(), OpKind::MaxPooling2);
    spec.request.input.sizes = std::vector<uint64_t>{1, 2, 4, 6};
    const Spec deeper = with_rank(spec, 5);
    QCOMPARE(*deeper.request.input.sizes, (std::vector<uint64_t>{1, 2, 1, 4, 6}));
    QCOMPARE(std::get<MaxPooling2Request>(deeper.request.params).window_size, (std::vector<uint64_t>{1, 2, 2}));
    QVERIFY(Operation::make(deeper.request).has_value());
  }

  void WithRank_GivesANewCustomStrideDimensionAPackedStride() {
    Spec spec = default_spec();
    spec.request.input.strides = std::vector<uint64_t>{40, 20, 5, 1};  // gapped rows
    const Spec spec5 = with_rank(spec, 5);
    QCOMPARE(*spec5.request.input.strides, (std::vector<uint64_t>{40, 40, 20, 5, 1}));
  }

  void PresetStrides_ChannelsLastMatchesTheDirectMLNhwcExample() {
    // "NHWC bonde ... Strides = { 15, 1, 5, 1 }" for Sizes = { 1, 1, 3, 5 }.
    QCOMPARE(*preset_strides(StridePreset::ChannelsLast, {1, 1, 3, 5}, std::nullopt),
             (std::vector<uint64_t>{15, 1, 5, 1}));
    // Hand computed for C = 3: W stride C = 3, H stride W*C = 15, N stride H*W*C = 30.
    QCOMPARE(*preset_strides(StridePreset::ChannelsLast, {1, 3, 2, 5}, std::nullopt),
             (std::vector<uint64_t>{30, 1, 15, 3}));
  }

  void PresetStrides_PackedOmitsStridesAndCustomKeepsThem() {
    QVERIFY(!preset_strides(StridePreset::Packed, {2, 3}, std::nullopt).has_value());
    QCOMPARE(*preset_strides(StridePreset::Custom, {2, 3}, std::nullopt), (std::vector<uint64_t>{3, 1}));
    QCOMPARE(*preset_strides(StridePreset::Custom, {2, 3}, std::vector<uint64_t>{0, 1}), (std::vector<uint64_t>{0, 1}));
  }

  void DetectPreset_NamesOmittedStridesPackedAndWrittenOnesCustom() {
    TensorRequest t{DataType::Float32, std::vector<uint64_t>{1, 3, 2, 5}, std::nullopt};
    QCOMPARE(detect_preset(t), StridePreset::Packed);
    t.strides = std::vector<uint64_t>{30, 10, 5, 1};
    QCOMPARE(detect_preset(t), StridePreset::Custom);
    t.strides = std::vector<uint64_t>{30, 1, 15, 3};
    QCOMPARE(detect_preset(t), StridePreset::ChannelsLast);
    t.strides = std::vector<uint64_t>{0, 0, 5, 1};
    QCOMPARE(detect_preset(t), StridePreset::Custom);
  }

  void IntField_ReadsAndWritesFieldsBySpecPath() {
    Spec spec = default_spec();
    QCOMPARE(int_field(spec, "params.inputWindowStrides[2]").value(), int64_t{-2});
    QCOMPARE(int_field(spec, "input.sizes[3]").value(), int64_t{4});
    QCOMPARE(int_field(spec, "output.sizes[2]").value(), int64_t{2});
    QVERIFY(set_int_field(spec, "params.inputWindowStrides[2]", 0));
    QCOMPARE(std::get<Slice1Request>(spec.request.params).input_window_strides[2], int64_t{0});
    QVERIFY(set_int_field(spec, "input.sizes[0]", 3));
    QCOMPARE((*spec.request.input.sizes)[0], uint64_t{3});
  }

  void IntField_RefusesFieldsTheSpecDoesNotHave() {
    Spec spec = default_spec();
    QVERIFY(!int_field(spec, "params.offsets[0]").has_value());      // slice's, not slice1's
    QVERIFY(!int_field(spec, "params.inputWindowSizes[4]").has_value());  // past the rank
    QVERIFY(!int_field(spec, "input.strides[0]").has_value());       // strides omitted
    QVERIFY(!set_int_field(spec, "input.sizes[0]", -1));             // unsigned field
    QVERIFY(!set_int_field(spec, "garbage", 1));
  }

  void IntField_OmittedPoolingArraysReadAsTheirDefaultsAndAppearOnEdit() {
    // spec-format.md: max_pooling2's strides and dilations default to all 1, paddings to all 0.
    Spec spec;
    spec.request.input = {DataType::Float32, std::vector<uint64_t>{1, 1, 5, 5}, std::nullopt};
    spec.request.params = MaxPooling2Request{{3, 3}, std::nullopt, std::nullopt, std::nullopt, std::nullopt};
    QCOMPARE(int_field(spec, "params.strides[1]").value(), int64_t{1});
    QCOMPARE(int_field(spec, "params.dilations[0]").value(), int64_t{1});
    QCOMPARE(int_field(spec, "params.startPadding[1]").value(), int64_t{0});
    QVERIFY(!int_field(spec, "params.strides[2]").has_value());  // two spatial dimensions
    QVERIFY(!set_int_field(spec, "params.strides[0]", -1));
    QVERIFY(!std::get<MaxPooling2Request>(spec.request.params).strides.has_value());
    QVERIFY(set_int_field(spec, "params.strides[1]", 2));
    QCOMPARE(std::get<MaxPooling2Request>(spec.request.params).strides, (std::optional<std::vector<uint64_t>>{{1, 2}}));
    QVERIFY(set_int_field(spec, "params.endPadding[0]", 1));
    QCOMPARE(std::get<MaxPooling2Request>(spec.request.params).end_padding, (std::optional<std::vector<uint64_t>>{{1, 0}}));
  }

  void ParseValues_KeepsIntegersExactAndNamesTheBadEntry() {
    const Expected<std::vector<Scalar>> values = parse_values("1, -2 2.5;18446744073709551615 NaN .5");
    QVERIFY(values.has_value());
    QCOMPARE(values->size(), std::size_t{6});
    QCOMPARE(std::get<int64_t>((*values)[0]), int64_t{1});
    QCOMPARE(std::get<int64_t>((*values)[1]), int64_t{-2});
    QCOMPARE(std::get<Decimal>((*values)[2]).text, std::string("2.5"));  // kept as typed, converted once
    QCOMPARE(std::get<uint64_t>((*values)[3]), UINT64_MAX);
    QVERIFY(std::isnan(std::get<double>((*values)[4])));
    QCOMPARE(std::get<double>((*values)[5]), 0.5);  // not JSON's grammar: read as a double
    const Expected<std::vector<Scalar>> bad = parse_values("1, two, 3");
    QVERIFY(!bad.has_value());
    QCOMPARE(QString::fromStdString(bad.error().path), QStringLiteral("input.data[1]"));
  }

  void FitValues_GrowsTypedValuesToTheInputBuffer() {
    Spec spec = default_spec();
    spec.input_source = std::vector<Scalar>{int64_t{5}, int64_t{6}};
    fit_values_to_input(spec);
    const auto& values = std::get<std::vector<Scalar>>(spec.input_source);
    QCOMPARE(values.size(), std::size_t{16});
    QCOMPARE(std::get<int64_t>(values[1]), int64_t{6});
    QCOMPARE(std::get<int64_t>(values[15]), int64_t{0});
  }
};

QTEST_APPLESS_MAIN(SpecEditsTest)
#include "ui_spec_edits_test.moc"
