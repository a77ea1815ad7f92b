// gpu/gather_dispatch.h: the compact form of core's GatherPlan must read
// exactly the elements the plan says, and the copy pass must take only
// contiguous runs. Host-only: no Vulkan device needed.
#include "gpu/gather_dispatch.h"

#include <gtest/gtest.h>

#include "core/index_plan.h"
#include "gpu_test_support.h"
#include "shared_spec_draws.h"

namespace stridescope::gpu {
namespace {

Operation make_op(const OpRequest& request) {
  auto op = Operation::make(request);
  EXPECT_TRUE(op) << (op ? "" : op.error().to_string());
  return *op;
}

OpRequest request(DataType type, std::vector<uint64_t> sizes, ParamsRequest params,
                  std::optional<std::vector<uint64_t>> out_sizes = std::nullopt) {
  OpRequest r;
  r.input = TensorRequest{type, std::move(sizes), std::nullopt};
  r.output.sizes = std::move(out_sizes);
  r.params = std::move(params);
  return r;
}

// "out[o] = in[sum_d source[d][o_d] * inStride[d]]" (index_plan.h), evaluated
// from core's plan directly, against the program, for every output element.
TEST(GatherDispatch, ReadsWhatTheCorePlanSaysForRandomSpecs) {
  reference::Rng rng(7);
  int checked = 0;
  for (OpKind kind : {OpKind::Identity, OpKind::Slice, OpKind::Slice1, OpKind::Padding}) {
    for (int i = 0; i < 60; ++i) {
      const DataType type = kAllDataTypes[rng.below(kAllDataTypes.size())];
      auto op = test::draw_for_gpu(kind, type, rng);
      if (!op) continue;
      const GatherPlan plan = make_gather_plan(*op);
      const GatherDispatch program = make_gather_dispatch(*op);
      const TensorDesc& out = op->output();
      Coord coord(out.rank(), 0);
      do {
        std::optional<int64_t> expected = 0;
        for (std::size_t d = 0; d < plan.rank && expected; ++d) {
          const int64_t source = plan.source[d][coord[d]];
          if (source == kPaddingIndex) {
            expected = std::nullopt;
          } else {
            *expected += source * static_cast<int64_t>(op->input().strides()[d]);
          }
        }
        const std::vector<uint64_t> axis_coord = program.axis_coord(coord, out.sizes());
        ASSERT_EQ(program.source_offset(axis_coord), expected) << test::describe(*op) << " at " << format_coord(coord);
        uint64_t out_offset = 0;
        for (std::size_t a = 0; a < program.axes.size(); ++a) out_offset += axis_coord[a] * program.axes[a].out_stride;
        ASSERT_EQ(out_offset, out.offset_of(coord)) << test::describe(*op);
      } while (next_coord(coord, out.sizes()));
      ++checked;
    }
  }
  EXPECT_GT(checked, 200);
}

TEST(GatherDispatch, PackedIdentityIsOneCopyAndNoShader) {
  const Operation op = make_op(request(DataType::Float32, {4, 8, 16}, IdentityRequest{}));
  const GatherDispatch program = make_gather_dispatch(op);
  ASSERT_EQ(program.axes.size(), 1u);
  EXPECT_EQ(program.axes[0].size, 512u);
  ASSERT_EQ(program.copies.size(), 1u);
  EXPECT_EQ(program.copies[0].src, 0u);
  EXPECT_EQ(program.copies[0].dst, 0u);
  EXPECT_EQ(program.copies[0].size, 2048u);
  EXPECT_TRUE(program.shader_regions.empty());
}

// Rows of 800 floats starting at input rows 2, 3, 4 and column 10 of a
// 1000-wide input: one copy of 3 rows, src = (2 * 1000 + 10) * 4 and rows
// 4000 bytes apart; dst rows 3200 bytes apart.
TEST(GatherDispatch, ContiguousSliceRowsBecomeOnePitchedCopy) {
  const Operation op = make_op(request(DataType::Float32, {1, 1, 8, 1000},
                                       SliceRequest{{0, 0, 2, 10}, {1, 1, 3, 800}, {1, 1, 1, 1}}));
  const GatherDispatch program = make_gather_dispatch(op);
  ASSERT_EQ(program.copies.size(), 1u);
  EXPECT_EQ(program.copies[0], (ByteCopy{8040, 0, 3200, 3, 4000, 3200}));
  EXPECT_EQ(program.copies[0].row(2), (ByteCopy{16040, 6400, 3200}));
  EXPECT_TRUE(program.shader_regions.empty());
}

// A slice1 walking rows backwards reads rows at falling addresses: each row
// stays a copy of its own (pitches are forward only).
TEST(GatherDispatch, BackwardRowsAreSeparateCopies) {
  const Operation op = make_op(request(DataType::Float32, {4, 100},
                                       Slice1Request{{0, 0}, {4, 100}, {-1, 1}}));
  const GatherDispatch program = make_gather_dispatch(op);
  ASSERT_EQ(program.copies.size(), 4u);
  EXPECT_EQ(program.copies[0], (ByteCopy{1200, 0, 400}));
  EXPECT_EQ(program.copies[3], (ByteCopy{0, 1200, 400}));
}

// Every output element is written: by a copy or the shader (never both,
// never twice), or else by a fill; a fill may lie under a copy (fills run
// first; ShortConstantPaddedRowsAreFilledUnderTheirCopies pins one) but
// never under the shader. Gaps are never written.
TEST(GatherDispatch, CopiesFillsAndShaderRegionsCoverTheOutput) {
  reference::Rng rng(5);
  GatherTuning eager;
  eager.min_copy_bytes = 4;  // copies wherever a run exists
  int with_copies = 0;
  for (int i = 0; i < 400; ++i) {
    const OpKind kind = std::array{OpKind::Identity, OpKind::Slice, OpKind::Slice1, OpKind::Padding}[i % 4];
    auto op = test::draw_for_gpu(kind, kAllDataTypes[rng.below(kAllDataTypes.size())], rng);
    if (!op) continue;
    const GatherDispatch program = make_gather_dispatch(*op, eager);
    if (!program.copies.empty()) ++with_copies;
    const uint64_t es = program.element_size;
    const std::size_t bytes = op->output().buffer_bytes();
    std::vector<int> copied(bytes, 0), filled(bytes, 0), shaded(bytes, 0);
    for (const ByteCopy& c : program.copies) {
      for (uint64_t r = 0; r < c.rows; ++r) {
        const ByteCopy row = c.row(r);
        for (uint64_t b = row.dst; b < row.dst + row.size; ++b) ++copied[b];
      }
    }
    for (const ByteFill& f : program.fills) {
      ASSERT_EQ(f.offset % 4, 0u);
      ASSERT_EQ(f.size % 4, 0u);
      for (uint64_t b = f.offset; b < f.offset + f.size; ++b) ++filled[b];
    }
    for (const Region& r : program.shader_regions) {
      std::vector<uint64_t> coord = r.lo;
      while (true) {
        uint64_t out = 0;
        for (std::size_t a = 0; a < coord.size(); ++a) out += coord[a] * program.axes[a].out_stride;
        const bool skipped = r.skip && coord.back() >= r.skip->first && coord.back() < r.skip->second;
        for (uint64_t b = out * es; b < (out + 1) * es && !skipped; ++b) ++shaded[b];
        std::size_t a = coord.size();
        while (a-- > 0) {
          if (++coord[a] < r.lo[a] + r.extent[a]) break;
          coord[a] = r.lo[a];
        }
        if (a == static_cast<std::size_t>(-1)) break;
      }
    }
    std::vector<bool> element(bytes, false);
    Coord coord(op->output().rank(), 0);
    do {
      const uint64_t offset = op->output().offset_of(coord);
      for (uint64_t b = offset * es; b < (offset + 1) * es; ++b) {
        element[b] = true;
        ASSERT_LE(copied[b] + shaded[b], 1) << test::describe(*op) << " at " << format_coord(coord);
        ASSERT_LE(filled[b], 1) << test::describe(*op) << " at " << format_coord(coord);
        ASSERT_EQ(filled[b] * shaded[b], 0) << test::describe(*op) << " at " << format_coord(coord);
        ASSERT_GE(copied[b] + shaded[b] + filled[b], 1) << test::describe(*op) << " at " << format_coord(coord);
      }
    } while (next_coord(coord, op->output().sizes()));
    for (std::size_t b = 0; b < bytes; ++b) {
      if (!element[b]) {
        ASSERT_EQ(copied[b] + filled[b] + shaded[b], 0) << "gap byte " << b << " written";
      }
    }
  }
  EXPECT_GT(with_copies, 40);
}

// The row is the axis the output walks contiguously: for an NHWC output
// (strides {HWC, 1, WC, C}) that is C, not W.
TEST(GatherDispatch, RowIsTheOutputsContiguousAxis) {
  OpRequest r = request(DataType::Float32, {2, 3, 4, 5}, IdentityRequest{});
  r.output.strides = std::vector<uint64_t>{60, 1, 15, 3};
  const GatherDispatch program = make_gather_dispatch(make_op(r));
  EXPECT_EQ(program.axes.back().out_stride, 1u);
  EXPECT_EQ(program.axes.back().dims, (std::vector<std::size_t>{1}));
}

TEST(GatherDispatch, ShortRunsAreLeftToTheShader) {
  const Operation op = make_op(request(DataType::Float32, {8, 8}, SliceRequest{{0, 1}, {8, 4}, {1, 1}}));
  const GatherDispatch program = make_gather_dispatch(op);  // runs of 16 bytes
  EXPECT_TRUE(program.copies.empty());
  EXPECT_EQ(program.shader_regions.size(), 1u);
}

// CONSTANT padding of 4 elements by 2 and 3: pad [0,2), input 0..3 at [2,6), pad [6,9).
TEST(GatherDispatch, ConstantPaddingIsThreeSegments) {
  PaddingRequest p;
  p.padding_value = int64_t{7};
  p.start_padding = {2};
  p.end_padding = {3};
  const Operation op = make_op(request(DataType::Int32, {4}, p));
  const GatherDispatch program = make_gather_dispatch(op);
  ASSERT_EQ(program.axes.size(), 1u);
  const auto& s = program.axes[0].segments;
  ASSERT_EQ(s.size(), 3u);
  EXPECT_TRUE(s[0].pad);
  EXPECT_EQ(s[1].begin, 2u);
  EXPECT_FALSE(s[1].pad);
  EXPECT_EQ(s[1].value, 0);
  EXPECT_EQ(s[1].step, 1);
  EXPECT_EQ(s[2].begin, 6u);
  EXPECT_TRUE(s[2].pad);
  EXPECT_EQ(program.padding_bits, 7u);
}

// On GPUs the transfer pass takes only runs of 1 MiB or more
// (kGpuGatherTuning): a slice's rows of 480 floats, copied on CPU devices, go
// to the shader; CONSTANT-padded rows of 420 bytes are not filled; a packed
// identity of 4 MiB stays one copy.
TEST(GatherDispatch, GpuTuningCopiesOnlyRunsOfAMebibyteAndFillsNoRows) {
  const Operation slice =
      make_op(request(DataType::Float32, {1, 4, 64, 512}, SliceRequest{{0, 0, 2, 16}, {1, 4, 60, 480}, {1, 1, 1, 1}}));
  EXPECT_FALSE(make_gather_dispatch(slice).copies.empty());
  const GatherDispatch sliced = make_gather_dispatch(slice, kGpuGatherTuning);
  EXPECT_TRUE(sliced.copies.empty());
  EXPECT_FALSE(sliced.shader_regions.empty());

  PaddingRequest p;
  p.padding_value = 1.5;
  p.start_padding = {0, 2};
  p.end_padding = {0, 3};
  const Operation padded = make_op(request(DataType::Float32, {4, 100}, p));
  EXPECT_FALSE(make_gather_dispatch(padded).fills.empty());
  const GatherDispatch shaded = make_gather_dispatch(padded, kGpuGatherTuning);
  EXPECT_TRUE(shaded.fills.empty());
  EXPECT_TRUE(shaded.copies.empty());

  const GatherDispatch packed =
      make_gather_dispatch(make_op(request(DataType::Float32, {1, 4, 512, 512}, IdentityRequest{})), kGpuGatherTuning);
  ASSERT_EQ(packed.copies.size(), 1u);
  EXPECT_EQ(packed.copies[0], (ByteCopy{0, 0, uint64_t{4} << 20}));
  EXPECT_TRUE(packed.shader_regions.empty());
}

// Rows of 100 floats padded by 2 and 3: the copy takes columns [2, 102) of
// each of the 4 rows (400 bytes each, rows 420 bytes apart in the output);
// with rows too long to fill, one shader box spans the whole rows and skips
// those columns, so that one invocation writes both sides.
TEST(GatherDispatch, PaddedRowsAreOneShaderBoxSkippingTheCopiedColumns) {
  PaddingRequest p;
  p.start_padding = {0, 2};
  p.end_padding = {0, 3};
  GatherTuning no_row_fills;
  no_row_fills.max_filled_row_bytes = 0;
  const GatherDispatch program =
      make_gather_dispatch(make_op(request(DataType::Float32, {4, 100}, p)), no_row_fills);
  ASSERT_EQ(program.copies.size(), 1u);
  EXPECT_EQ(program.copies[0], (ByteCopy{0, 2 * 4, 400, 4, 400, 105 * 4}));
  EXPECT_TRUE(program.fills.empty());
  ASSERT_EQ(program.shader_regions.size(), 1u);
  const Region& box = program.shader_regions[0];
  EXPECT_EQ(box.lo, (std::vector<uint64_t>{0, 0}));
  EXPECT_EQ(box.extent, (std::vector<uint64_t>{4, 105}));
  ASSERT_TRUE(box.skip.has_value());
  EXPECT_EQ(*box.skip, (std::pair<uint64_t, uint64_t>{2, 102}));
}

// The same rows (420 bytes, under the default 1 KiB) are filled whole with
// the padding value, 4 x 420 bytes as one range, and no shader runs.
TEST(GatherDispatch, ShortConstantPaddedRowsAreFilledUnderTheirCopies) {
  PaddingRequest p;
  p.padding_value = int64_t{-1};
  p.start_padding = {0, 2};
  p.end_padding = {0, 3};
  const GatherDispatch program = make_gather_dispatch(make_op(request(DataType::Int32, {4, 100}, p)));
  ASSERT_EQ(program.copies.size(), 1u);
  ASSERT_EQ(program.fills.size(), 1u);
  EXPECT_EQ(program.fills[0].offset, 0u);
  EXPECT_EQ(program.fills[0].size, 4u * 105u * 4u);
  EXPECT_EQ(program.fills[0].pattern, 0xFFFFFFFFu);
  EXPECT_TRUE(program.shader_regions.empty());
}

// EDGE padding's sides read the input: never filled, the shader writes them.
TEST(GatherDispatch, EdgePaddedSidesAreNeverFilled) {
  PaddingRequest p;
  p.padding_mode = PaddingMode::Edge;
  p.start_padding = {0, 2};
  p.end_padding = {0, 3};
  const GatherDispatch program = make_gather_dispatch(make_op(request(DataType::Int32, {4, 100}, p)));
  EXPECT_TRUE(program.fills.empty());
  EXPECT_EQ(program.shader_regions.size(), 1u);
}

// DML_SLICE1 example 2: axis 2 starts at offset + size - 1 = 3 and steps by -2
// rows of 4 elements: value 12, step -8.
TEST(GatherDispatch, NegativeSlice1StrideIsADescendingSegment) {
  const Operation op = make_op(request(DataType::Float32, {1, 1, 4, 4},
                                       Slice1Request{{0, 0, 0, 1}, {1, 1, 4, 3}, {1, 1, -2, 2}}, {{1, 1, 2, 2}}));
  const GatherDispatch program = make_gather_dispatch(op);
  ASSERT_EQ(program.axes.size(), 2u);
  EXPECT_EQ(program.axes[0].segments[0].value, 12);
  EXPECT_EQ(program.axes[0].segments[0].step, -8);
  EXPECT_EQ(program.axes[1].segments[0].value, 1);
  EXPECT_EQ(program.axes[1].segments[0].step, 2);
}

}  // namespace
}  // namespace stridescope::gpu
