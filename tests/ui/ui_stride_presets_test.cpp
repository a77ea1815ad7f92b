// ui/stride_presets.h: the layouts the tensor form offers instead of typed
// strides. Each is the packed strides of the sizes taken in another memory
// order; the expected strides are worked out by hand below.
//   DirectML "sizes and strides": packed NHWC for {1,1,3,5} has strides {15,1,5,1}.
#include <QtTest>

#include "ui/stride_presets.h"

using namespace stridescope;
using namespace stridescope::ui;

using U64s = std::vector<uint64_t>;

class StridePresetsTest : public QObject {
  Q_OBJECT

 private slots:
  void Packed_IsRowMajor() {
    // [2,3,4]: the last dimension 1, then 4, then 3 * 4 = 12.
    QCOMPARE(packed_strides({2, 3, 4}), (U64s{12, 4, 1}));
  }

  void ColumnMajor_PutsTheFirstDimensionInnermost() {
    // [2,3,4]: dimension 0 stride 1, dimension 1 stride 2, dimension 2 stride 2 * 3 = 6.
    QCOMPARE(column_major_strides({2, 3, 4}), (U64s{1, 2, 6}));
    QCOMPARE(column_major_strides({2, 3}), (U64s{1, 2}));  // the DirectML page's WH layout
    QCOMPARE(*preset_strides(StridePreset::ColumnMajor, {4, 5}, std::nullopt), (U64s{1, 4}));
  }

  void ChannelsLast_PutsChannelsInnermostThenWidthHeightBatch() {
    // [1,3,4,5] (N, C, H, W): C stride 1, W stride C = 3, H stride W * C = 15, N stride 4 * 15 = 60.
    QCOMPARE(channels_last_strides({1, 3, 4, 5}), (U64s{60, 1, 15, 3}));
    QCOMPARE(channels_last_strides({1, 1, 3, 5}), (U64s{15, 1, 5, 1}));
    // NDHWC [2,3,2,2,2]: C 1, W 3, H 6, D 12, N 24.
    QCOMPARE(channels_last_strides({2, 3, 2, 2, 2}), (U64s{24, 1, 12, 6, 3}));
    // Fewer than 3 dimensions have no channel dimension: packed.
    QCOMPARE(channels_last_strides({2, 3}), (U64s{3, 1}));
  }

  void Transpose_SwapsTwoDimensionsInMemoryOrder() {
    // [2,3,4] with 1 and 2 swapped: memory order (0, 2, 1); dimension 1 stride 1,
    // dimension 2 stride 3, dimension 0 stride 3 * 4 = 12.
    QCOMPARE(transposed_strides({2, 3, 4}, 1, 2), (U64s{12, 1, 3}));
    // With 0 and 1 swapped: memory order (1, 0, 2): 2 stride 1, 0 stride 4, 1 stride 8.
    QCOMPARE(transposed_strides({2, 3, 4}, 0, 1), (U64s{4, 8, 1}));
    // A 2-D transpose is column-major.
    QCOMPARE(transposed_strides({2, 3}, 0, 1), column_major_strides({2, 3}));
    // [1,1,4,4] with H and W swapped: W stride 4, H stride 1.
    QCOMPARE(*choice_strides({StridePreset::Transpose, 2, 3}, {1, 1, 4, 4}, std::nullopt), (U64s{16, 16, 1, 4}));
  }

  void PackedOmitsStridesAndCustomKeepsThem() {
    QVERIFY(!choice_strides({StridePreset::Packed}, {2, 3}, std::nullopt).has_value());
    QCOMPARE(*choice_strides({StridePreset::Custom}, {2, 3}, U64s{0, 1}), (U64s{0, 1}));
    QCOMPARE(*choice_strides({StridePreset::Custom}, {2, 3}, U64s{0, 1, 1}), (U64s{3, 1}));  // wrong rank: packed
  }

  void Detect_NamesEachLayoutAndTheDimensionsATransposeSwaps() {
    TensorRequest t{DataType::Float32, U64s{2, 3, 4}, std::nullopt};
    QCOMPARE(detect_stride_choice(t), (StrideChoice{StridePreset::Packed}));
    t.strides = U64s{12, 4, 1};  // packed, written out: kept editable
    QCOMPARE(detect_stride_choice(t), (StrideChoice{StridePreset::Custom}));
    t.strides = U64s{1, 2, 6};
    QCOMPARE(detect_stride_choice(t), (StrideChoice{StridePreset::ColumnMajor}));
    // Over 3 dimensions channels-last (NWC) is the transpose of 1 and 2: it is named first.
    t.strides = U64s{12, 1, 3};
    QCOMPARE(detect_stride_choice(t), (StrideChoice{StridePreset::ChannelsLast}));
    TensorRequest t4{DataType::Float32, U64s{2, 3, 4, 5}, U64s{60, 20, 1, 4}};  // 2 and 3 swapped
    QCOMPARE(detect_stride_choice(t4), (StrideChoice{StridePreset::Transpose, 2, 3}));
    t.strides = U64s{4, 8, 1};
    QCOMPARE(detect_stride_choice(t), (StrideChoice{StridePreset::Transpose, 0, 1}));
    t.strides = U64s{12, 0, 1};  // a broadcast
    QCOMPARE(detect_stride_choice(t), (StrideChoice{StridePreset::Custom}));
    TensorRequest nchw{DataType::Float32, U64s{1, 3, 4, 5}, U64s{60, 1, 15, 3}};
    QCOMPARE(detect_preset(nchw), StridePreset::ChannelsLast);
  }

  void FitsRank_ChannelsLastNeedsThreeAndATransposeTwoDimensions() {
    QVERIFY(!choice_fits_rank({StridePreset::ChannelsLast}, 2));
    QVERIFY(choice_fits_rank({StridePreset::ChannelsLast}, 3));
    QVERIFY(choice_fits_rank({StridePreset::Transpose, 2, 3}, 4));
    QVERIFY(!choice_fits_rank({StridePreset::Transpose, 2, 3}, 3));
    QVERIFY(follows_sizes(StridePreset::Transpose));
    QVERIFY(!follows_sizes(StridePreset::Custom));
  }
};

QTEST_APPLESS_MAIN(StridePresetsTest)
#include "ui_stride_presets_test.moc"
