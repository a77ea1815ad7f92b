// The fast CPU backend's transpose path (core/fast/transpose_plan.h,
// kernels_transpose.inc): layout changes whose output rows are strided in the
// input. Each case runs on the naive reference (tests/reference) and on the
// fast backend in every configuration (every instruction set this CPU runs,
// one thread, forced threads and non-temporal stores), and the whole output
// buffers, gaps included, must agree bit for bit. Sizes are chosen off the
// kernels' block sizes so that every edge path runs; a test also pins that the
// plan takes the transpose path (its summary) for these shapes.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "core/fast/cpu_fast_backend.h"
#include "core/operation.h"
#include "fast_variants.h"
#include "reference/reference_ops.h"

namespace stridescope {
namespace {

using U64s = std::vector<uint64_t>;

using Variant = testing::FastVariant;
using testing::make_op;

std::vector<Variant>& variants() {
  static std::vector<Variant> all = testing::fast_variants();
  return all;
}

// An identity reading `sizes` through `input_strides`, written to
// `output_strides` (packed when empty).
OpRequest layout_change(DataType type, U64s sizes, U64s input_strides, U64s output_strides = {}) {
  OpRequest r;
  r.input.data_type = type;
  r.input.sizes = sizes;
  r.input.strides = std::move(input_strides);
  if (!output_strides.empty()) {
    r.output.sizes = std::move(sizes);
    r.output.strides = std::move(output_strides);
  }
  r.params = IdentityRequest{};
  return r;
}

// Every byte distinct from its neighbours, so a misplaced element shows.
std::vector<std::byte> pattern(std::size_t bytes) {
  std::vector<std::byte> v(bytes);
  for (std::size_t i = 0; i < bytes; ++i) v[i] = static_cast<std::byte>((i * 37 + i / 251 + 11) & 0xFF);
  return v;
}

std::string summary(const Operation& op) { return variants().front().backend->prepare(op).summary(); }

// The reference's output and every variant's agree on every byte of the
// output buffer (pre-filled alike, so bytes no element covers must stay).
void expect_matches_reference(const Operation& op, const std::string& what) {
  const std::vector<std::byte> input = pattern(op.input().buffer_bytes());
  std::vector<std::byte> expected(op.output().buffer_bytes(), std::byte{0xA5});
  ASSERT_TRUE(reference::run(op, input, expected, {}).ok()) << what;
  for (Variant& v : variants()) {
    std::vector<std::byte> got(op.output().buffer_bytes(), std::byte{0xA5});
    ASSERT_TRUE(v.backend->run(op, input, got, {}).has_value()) << what << ", " << v.name;
    std::size_t first = 0;
    while (first < got.size() && got[first] == expected[first]) ++first;
    EXPECT_EQ(first, got.size()) << what << ", " << v.name << ": first difference at byte " << first << " of "
                                 << got.size() << " (" << summary(op) << ")";
  }
}

bool takes(const Operation& op, const std::string& path) { return summary(op).rfind(path, 0) == 0; }

const DataType kEveryElementSize[] = {DataType::UInt8, DataType::Float16, DataType::Float32, DataType::Int64};

TEST(CpuFastTranspose, MatrixTransposeOfOddSizesMatchesReferenceForEveryElementSize) {
  // rows x cols output read from a packed cols x rows input: out[r][c] = in[c][r].
  const std::pair<uint64_t, uint64_t> shapes[] = {{5, 3},   {17, 33},  {31, 65}, {64, 64},
                                                  {100, 7}, {129, 257}, {40, 5000}};
  for (DataType type : kEveryElementSize) {
    for (auto [rows, cols] : shapes) {
      const Operation op = make_op(layout_change(type, {rows, cols}, {1, rows}));
      const std::string what = std::string(to_string(type)) + " " + std::to_string(rows) + "x" + std::to_string(cols);
      EXPECT_TRUE(takes(op, "transpose:")) << what << ": " << summary(op);
      expect_matches_reference(op, what);
    }
  }
}

TEST(CpuFastTranspose, BatchedTransposeOverOuterDimsMatchesReference) {
  // Two batch dimensions in swapped order in the input (so they stay two
  // outer dimensions), each batch a 19 x 37 transpose.
  for (DataType type : kEveryElementSize) {
    const Operation op = make_op(layout_change(type, {3, 2, 19, 37}, {19 * 37, 3 * 19 * 37, 1, 19}));
    EXPECT_TRUE(takes(op, "transpose: 19 x 37 tiles, 6 planes")) << summary(op);
    expect_matches_reference(op, std::string(to_string(type)) + " batched");
  }
}

TEST(CpuFastTranspose, NhwcToNchwAndBackMatchReference) {
  for (DataType type : kEveryElementSize) {
    // NCHW sizes read from NHWC: rows are the 5 channels, columns H*W merged.
    const Operation to_nchw = make_op(layout_change(type, {2, 5, 7, 9}, {5 * 7 * 9, 1, 9 * 5, 5}));
    EXPECT_TRUE(takes(to_nchw, "transpose: 5 x 63 tiles, 2 planes")) << summary(to_nchw);
    expect_matches_reference(to_nchw, std::string(to_string(type)) + " to NCHW");
    // NHWC sizes read from NCHW: rows are H*W, columns the 6 channels.
    const Operation to_nhwc = make_op(layout_change(type, {2, 7, 9, 6}, {6 * 7 * 9, 9, 1, 7 * 9}));
    EXPECT_TRUE(takes(to_nhwc, "transpose: 63 x 6 tiles, 2 planes")) << summary(to_nhwc);
    expect_matches_reference(to_nhwc, std::string(to_string(type)) + " to NHWC");
  }
}

TEST(CpuFastTranspose, FarApartInputRowsTakeTallBlocksAndMatchReference) {
  // NHWC read from NCHW with H*W = 1024 (input rows 4 or 8 KiB apart, a power
  // of two) and few channels (output rows close): tall blocks. 19 channels
  // leave columns beside the blocks; the second batch's plane starts off
  // the blocks' alignment in the output. H*W = 1000 (not a power-of-two
  // pitch) and the 4- and 1-byte elements' other shapes keep square blocks.
  for (DataType type : {DataType::Float32, DataType::Int64}) {
    const Operation tall = make_op(layout_change(type, {2, 32, 32, 19}, {19 * 1024, 32, 1, 1024}));
    EXPECT_TRUE(takes(tall, "transpose: 1024 x 19 tiles, 2 planes in bands of 256 rows (tall blocks)"))
        << summary(tall);
    expect_matches_reference(tall, std::string(to_string(type)) + " tall");
    const Operation square = make_op(layout_change(type, {2, 25, 40, 19}, {19 * 1000, 40, 1, 1000}));
    EXPECT_TRUE(takes(square, "transpose: 1000 x 19 tiles, 2 planes")) << summary(square);
    EXPECT_EQ(summary(square).find("tall"), std::string::npos) << summary(square);
    expect_matches_reference(square, std::string(to_string(type)) + " square");
  }
  for (DataType type : {DataType::UInt8, DataType::Float16}) {
    const Operation op = make_op(layout_change(type, {1, 64, 64, 19}, {19 * 4096, 64, 1, 4096}));
    EXPECT_TRUE(takes(op, "transpose: 4096 x 19 tiles, 1 plane")) << summary(op);
    EXPECT_EQ(summary(op).find("tall"), std::string::npos) << summary(op);
    expect_matches_reference(op, std::string(to_string(type)) + " no tall blocks");
  }
}

TEST(CpuFastTranspose, FarApartOutputRowsTakeWideBlocksAndMatchReference) {
  // NCHW read from NHWC with H*W = 2048 (output rows 8 or 16 KiB apart, a
  // power of two of pages) and 19 channels (input rows close): wide blocks,
  // with rows below them. Then 300 columns written into rows 2048 elements
  // apart: columns beside the blocks too.
  for (DataType type : {DataType::Float32, DataType::Int64}) {
    const Operation wide = make_op(layout_change(type, {2, 19, 32, 64}, {19 * 2048, 1, 64 * 19, 19}));
    EXPECT_TRUE(takes(wide, "transpose: 19 x 2048 tiles, 2 planes in bands of")) << summary(wide);
    EXPECT_NE(summary(wide).find("(wide blocks)"), std::string::npos) << summary(wide);
    expect_matches_reference(wide, std::string(to_string(type)) + " wide");
    const Operation ragged = make_op(layout_change(type, {2, 19, 300}, {19 * 300, 1, 19}, {19 * 2048, 2048, 1}));
    EXPECT_TRUE(takes(ragged, "transpose: 19 x 300 tiles, 2 planes in bands of")) << summary(ragged);
    EXPECT_NE(summary(ragged).find("(wide blocks)"), std::string::npos) << summary(ragged);
    expect_matches_reference(ragged, std::string(to_string(type)) + " wide, ragged columns");
    // Output rows 2000 elements apart: square blocks.
    const Operation square = make_op(layout_change(type, {2, 19, 40, 50}, {19 * 2000, 1, 50 * 19, 19}));
    EXPECT_TRUE(takes(square, "transpose: 19 x 2000 tiles, 2 planes")) << summary(square);
    EXPECT_EQ(summary(square).find("blocks"), std::string::npos) << summary(square);
    expect_matches_reference(square, std::string(to_string(type)) + " square");
  }
}

TEST(CpuFastTranspose, FewInterleavedChannelsDeinterleaveIntoPlanes) {
  // Interleaved RGB (and 2 and 4 channels) to planar, odd pixel counts.
  for (DataType type : kEveryElementSize) {
    for (uint64_t channels : {2, 3, 4}) {
      const Operation op =
          make_op(layout_change(type, {2, channels, 13, 29}, {channels * 13 * 29, 1, 29 * channels, channels}));
      const std::string what = std::string(to_string(type)) + " " + std::to_string(channels) + " channels";
      EXPECT_TRUE(takes(op, "deinterleave: " + std::to_string(channels) + " channels of 377, 2 planes"))
          << what << ": " << summary(op);
      expect_matches_reference(op, what);
    }
  }
}

TEST(CpuFastTranspose, ReversedRowsAndColumnsMatchReference) {
  // slice1 with negative window strides over a packed 37 x 23 input viewed
  // transposed: rows (unit step in the input) read backward, columns
  // backward with step 2.
  const int64_t strides[][2] = {{-1, 1}, {1, -2}, {-1, -3}};
  for (DataType type : kEveryElementSize) {
    for (const auto& s : strides) {
      OpRequest r;
      r.input.data_type = type;
      r.input.sizes = U64s{23, 37};
      r.input.strides = U64s{1, 23};
      r.params = Slice1Request{{0, 1}, {23, 36}, {s[0], s[1]}};
      const Operation op = make_op(r);
      const std::string what = std::string(to_string(type)) + " window strides " + std::to_string(s[0]) + ", " +
                               std::to_string(s[1]);
      EXPECT_TRUE(takes(op, "transpose:")) << what << ": " << summary(op);
      expect_matches_reference(op, what);
    }
  }
}

TEST(CpuFastTranspose, GappedOutputKeepsItsGapBytes) {
  // Output rows padded by 3 elements and columns 2 apart: the element-by-element
  // path, which must leave every gap byte as it was.
  for (DataType type : kEveryElementSize) {
    const Operation op = make_op(layout_change(type, {21, 19}, {1, 21}, {2 * 19 + 3, 2}));
    EXPECT_TRUE(takes(op, "transpose:")) << summary(op);
    expect_matches_reference(op, std::string(to_string(type)) + " gapped");
  }
}

TEST(CpuFastTranspose, CopiesAndPaddingStayGathers) {
  // A packed copy, a reversal (no unit-step axis besides the row) and a
  // constant padding (not affine) are not transposes.
  const Operation copy = make_op(layout_change(DataType::Float32, {16, 16}, {16, 1}));
  EXPECT_TRUE(takes(copy, "gather:")) << summary(copy);
  OpRequest reversed;
  reversed.input.data_type = DataType::Float32;
  reversed.input.sizes = U64s{16, 16};
  reversed.params = Slice1Request{{0, 0}, {16, 16}, {1, -1}};
  EXPECT_TRUE(takes(make_op(reversed), "gather:")) << summary(make_op(reversed));
  OpRequest padded = layout_change(DataType::Float32, {16, 16}, {1, 16});
  padded.params = PaddingRequest{PaddingMode::Constant, int64_t{0}, {1, 1}, {1, 1}};
  const Operation padding = make_op(padded);
  EXPECT_TRUE(takes(padding, "gather:")) << summary(padding);
  expect_matches_reference(padding, "transposed input, padded");
}

}  // namespace
}  // namespace stridescope
