// gpu/work_split.h: bindings no wider than maxStorageBufferRange, starting on
// minStorageBufferOffsetAlignment, covering every element a box touches, and
// boxes that cover the output exactly once. Host-only.
#include "gpu/work_split.h"

#include <gtest/gtest.h>

#include <map>

#include "gpu/gather_dispatch.h"
#include "gpu_test_support.h"
#include "shared_spec_draws.h"

namespace stridescope::gpu {
namespace {

using test::Rng;

// The gather work with a short chunk, over the whole output (copied parts
// too), so that every element must land in exactly one box.
WorkModel model_of(const Operation& op, const GatherDispatch& program) {
  WorkModel model = gather_work(program, op, 4);
  model.regions.clear();
  return model;
}

bool inside(const Window& w, uint64_t element, uint64_t size) {
  return element * size >= w.offset && (element + 1) * size <= w.offset + w.range;
}

TEST(WorkSplit, SmallTensorsAreBoundWhole) {
  auto op = Operation::make(OpRequest{TensorRequest{DataType::Float32, std::vector<uint64_t>{4, 5}, std::nullopt},
                                      TensorRequest{}, std::nullopt, IdentityRequest{}});
  ASSERT_TRUE(op);
  const GatherDispatch program = make_gather_dispatch(*op);
  DeviceLimits limits;
  limits.max_storage_range = 128u << 20;
  limits.storage_offset_alignment = 16;
  auto boxes = split_work(model_of(*op, program), limits);
  ASSERT_TRUE(boxes);
  ASSERT_EQ(boxes->size(), 1u);
  EXPECT_EQ((*boxes)[0].input.offset, 0u);
  EXPECT_EQ((*boxes)[0].input.range, 80u);
  EXPECT_EQ((*boxes)[0].output.range, 80u);
}

TEST(WorkSplit, WindowsFitTheLimitAndCoverEveryElementOnce) {
  reference::Rng rng(11);
  int split_cases = 0;
  for (int i = 0; i < 300; ++i) {
    const OpKind kind = std::array{OpKind::Identity, OpKind::Slice, OpKind::Slice1, OpKind::Padding}[i % 4];
    const DataType type = kAllDataTypes[rng.below(kAllDataTypes.size())];
    auto op = test::draw_for_gpu(kind, type, rng);
    if (!op) continue;
    const GatherDispatch program = make_gather_dispatch(*op);
    DeviceLimits limits;
    limits.max_storage_range = 64 + 4 * rng.below(64);
    limits.storage_offset_alignment = uint64_t{1} << rng.below(7);
    auto boxes = split_work(model_of(*op, program), limits);
    ASSERT_TRUE(boxes) << boxes.error().to_string();
    if (boxes->size() > 1) ++split_cases;
    const uint64_t es = program.element_size;
    std::map<std::vector<uint64_t>, int> covered;
    for (const WorkBox& box : *boxes) {
      for (const Window* w : {&box.input, &box.output}) {
        EXPECT_LE(w->range, limits.max_storage_range);
        EXPECT_GT(w->range, 0u);
        EXPECT_EQ(w->offset % limits.storage_offset_alignment, 0u);
        EXPECT_EQ(w->offset % es, 0u);
        EXPECT_EQ(w->base_element * es, w->offset);
      }
      EXPECT_LE(box.input.offset + box.input.range, op->input().buffer_bytes());
      EXPECT_LE(box.output.offset + box.output.range, op->output().buffer_bytes());
      // Every element of the box: its reads and writes lie in the windows.
      std::vector<uint64_t> coord = box.lo;
      while (true) {
        ++covered[coord];
        if (auto source = program.source_offset(coord)) {
          EXPECT_TRUE(inside(box.input, static_cast<uint64_t>(*source), es)) << test::describe(*op);
        }
        uint64_t out = 0;
        for (std::size_t a = 0; a < coord.size(); ++a) out += coord[a] * program.axes[a].out_stride;
        EXPECT_TRUE(inside(box.output, out, es)) << test::describe(*op);
        std::size_t a = coord.size();
        while (a-- > 0) {
          if (++coord[a] < box.lo[a] + box.extent[a]) break;
          coord[a] = box.lo[a];
        }
        if (a == static_cast<std::size_t>(-1)) break;
      }
    }
    uint64_t elements = 1;
    for (const GatherAxis& axis : program.axes) elements *= axis.size;
    EXPECT_EQ(covered.size(), elements);
    for (const auto& [coord, count] : covered) ASSERT_EQ(count, 1);
    if (HasFailure()) break;
  }
  EXPECT_GT(split_cases, 50);
}

TEST(WorkSplit, TooScatteredWorkIsAnErrorNotAHang) {
  // Every other element of a 4 KiB tensor, bound 64 bytes at a time, at most 4 boxes.
  auto op = Operation::make(OpRequest{TensorRequest{DataType::UInt32, std::vector<uint64_t>{1024}, std::nullopt},
                                      TensorRequest{}, std::nullopt, SliceRequest{{0}, {512}, {2}}});
  ASSERT_TRUE(op);
  const GatherDispatch program = make_gather_dispatch(*op);
  DeviceLimits limits;
  limits.max_storage_range = 64;
  limits.storage_offset_alignment = 16;
  limits.max_boxes = 4;
  auto boxes = split_work(model_of(*op, program), limits);
  ASSERT_FALSE(boxes);
  EXPECT_EQ(boxes.error().code, ErrorCode::BackendFailure);
}

// A model of 10 rows of 40 elements, columns [8, 32) skipped: 16 written a row.
WorkModel short_rows(uint64_t chunk) {
  WorkModel model;
  model.sizes = {10, 40};
  model.regions = {Region{{0, 0}, {10, 40}, std::pair<uint64_t, uint64_t>{8, 32}}};
  model.chunk = chunk;
  model.several_rows_per_item = true;
  model.input_range = [](std::size_t, uint64_t lo, uint64_t hi) {
    return std::optional<ElementRange>(ElementRange{static_cast<int64_t>(lo), static_cast<int64_t>(hi - 1)});
  };
  model.input = TensorAccess{400, 1, {}};
  model.output = TensorAccess{400, 1, {40, 1}};
  return model;
}

TEST(WorkSplit, ShortRowsAreWrittenAsManyPerInvocationAsAChunkHolds) {
  DeviceLimits limits;
  limits.max_storage_range = 128u << 20;
  struct Case {
    uint64_t chunk, max_rows, rows_per_item, items;
  };
  // 16 elements written a row (the skipped columns do not count); a row
  // longer than the chunk, or a device that allows one row, keeps one.
  for (const Case& c : {Case{64, 64, 4, 3}, Case{65, 64, 4, 3}, Case{48, 2, 2, 5}, Case{1000, 64, 10, 1},
                        Case{40, 1, 1, 10}, Case{16, 64, 1, 30}}) {
    limits.max_rows_per_item = c.max_rows;
    auto boxes = split_work(short_rows(c.chunk), limits);
    ASSERT_TRUE(boxes);
    ASSERT_EQ(boxes->size(), 1u);
    EXPECT_EQ((*boxes)[0].rows_per_item, c.rows_per_item) << "chunk " << c.chunk;
    EXPECT_EQ((*boxes)[0].items, c.items) << "chunk " << c.chunk;
  }
}

TEST(WorkSplit, ShortRowsPerInvocationLeaveTheBoxTheDevicesFewestInvocations) {
  // 10 rows, 16 elements written a row, a chunk of 1000: 10 rows fit one
  // invocation, but the device asks for at least `min_items` invocations:
  // floor(10 / min_items) rows each, never fewer than one.
  DeviceLimits limits;
  limits.max_storage_range = 128u << 20;
  limits.max_rows_per_item = 64;
  struct Case {
    uint64_t min_items, rows_per_item, items;
  };
  for (const Case& c : {Case{1, 10, 1}, Case{2, 5, 2}, Case{3, 3, 4}, Case{4, 2, 5}, Case{10, 1, 10}, Case{50, 1, 10}}) {
    limits.min_items_per_box = c.min_items;
    auto boxes = split_work(short_rows(1000), limits);
    ASSERT_TRUE(boxes);
    ASSERT_EQ(boxes->size(), 1u);
    EXPECT_EQ((*boxes)[0].rows_per_item, c.rows_per_item) << "min_items " << c.min_items;
    EXPECT_EQ((*boxes)[0].items, c.items) << "min_items " << c.min_items;
  }
}

TEST(WorkSplit, ADeviceThatAsksForOneRowPerInvocationGetsOne) {
  DeviceLimits limits;  // as a GPU's: max_rows_per_item 1
  limits.max_storage_range = 128u << 20;
  auto boxes = split_work(short_rows(1000), limits);
  ASSERT_TRUE(boxes);
  ASSERT_EQ(boxes->size(), 1u);
  EXPECT_EQ((*boxes)[0].rows_per_item, 1u);
  EXPECT_EQ((*boxes)[0].items, 10u);
}

// The shaders' division: q = (t + ((n - t) >> s1)) >> s2 with t = umulhi(n, m).
uint32_t divide_like_the_shader(uint32_t n, const DivisionMagic& m) {
  const uint32_t t = static_cast<uint32_t>((static_cast<uint64_t>(n) * m.magic) >> 32);
  return (t + ((n - t) >> m.shift1)) >> m.shift2;
}

TEST(DivisionMagic, MatchesIntegerDivisionEverywhere) {
  Rng rng(3);
  std::vector<uint32_t> divisors = {1, 2, 3, 5, 7, 10, 64, 65535, 65536, 0x7FFFFFFFu, 0x80000000u, 0x80000001u,
                                    0xFFFFFFFEu, 0xFFFFFFFFu};
  for (int i = 0; i < 200; ++i) divisors.push_back(static_cast<uint32_t>(1 + rng.below(0xFFFFFFFFu)));
  for (int i = 0; i < 200; ++i) divisors.push_back(static_cast<uint32_t>(1 + rng.below(1000)));
  for (uint32_t d : divisors) {
    const DivisionMagic m = division_magic(d);
    for (uint32_t n : {0u, 1u, d - 1, d, d + 1, 2 * d, 0xFFFFFFFFu, 0xFFFFFFFEu, 0x80000000u}) {
      ASSERT_EQ(divide_like_the_shader(n, m), n / d) << n << " / " << d;
    }
    for (int k = 0; k < 50; ++k) {
      const uint32_t n = static_cast<uint32_t>(rng.next());
      ASSERT_EQ(divide_like_the_shader(n, m), n / d) << n << " / " << d;
    }
  }
}

TEST(WorkSplit, DispatchesSplitAtTheWorkgroupLimit) {
  EXPECT_EQ(dispatch_count(65535u * 64u, 64, 65535), 1u);
  EXPECT_EQ(dispatch_count(65535u * 64u + 1u, 64, 65535), 2u);
  EXPECT_EQ(dispatch_count(1, 64, 65535), 1u);
}

}  // namespace
}  // namespace stridescope::gpu
