// Affine runs of offset tables. Expected runs are read off the tables by hand.
#include "core/offset_runs.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace stridescope {
namespace {

using Offsets = std::vector<int64_t>;
using Runs = std::vector<OffsetRun>;
constexpr int64_t kPad = -1;  // the padding marker these tests pass

OffsetRun data(uint64_t begin, uint64_t length, int64_t first, int64_t step) {
  return {begin, length, false, first, step};
}
OffsetRun padding(uint64_t begin, uint64_t length) { return {begin, length, true, 0, 0}; }

TEST(OffsetRuns, EmptyTableHasNoRuns) { EXPECT_TRUE(affine_runs(Offsets{}, kPad).empty()); }

TEST(OffsetRuns, SingleEntryIsOneRunOfStepZero) { EXPECT_EQ(affine_runs(Offsets{7}, kPad), (Runs{data(0, 1, 7, 0)})); }

TEST(OffsetRuns, StridedSliceIsOneRun) {
  // slice offsets {1}, strides {3}, size 4, input stride 10: 10, 40, 70, 100
  EXPECT_EQ(affine_runs(Offsets{10, 40, 70, 100}, kPad), (Runs{data(0, 4, 10, 30)}));
}

TEST(OffsetRuns, NegativeStepRunsBackwards) {
  EXPECT_EQ(affine_runs(Offsets{5, 4, 3, 2, 1, 0}, kPad), (Runs{data(0, 6, 5, -1)}));
}

TEST(OffsetRuns, ConstantPaddingIsPaddingDataPadding) {
  EXPECT_EQ(affine_runs(Offsets{kPad, kPad, 0, 1, 2, kPad}, kPad),
            (Runs{padding(0, 2), data(2, 3, 0, 1), padding(5, 1)}));
}

TEST(OffsetRuns, ReflectionSplitsWhereTheStepTurns) {
  // REFLECTION of input size 4 with start/end padding 2: 2 1 | 0 1 2 3 | 2 1.
  // Greedy from the left: 2,1,0 falls by one, then 1,2,3 rises, then 2,1.
  EXPECT_EQ(affine_runs(Offsets{2, 1, 0, 1, 2, 3, 2, 1}, kPad),
            (Runs{data(0, 3, 2, -1), data(3, 3, 1, 1), data(6, 2, 2, -1)}));
}

TEST(OffsetRuns, EdgeRepeatsAsStepZero) {
  // EDGE of input size 3 with padding 2 on both sides: 0 0 | 0 1 2 | 2 2.
  EXPECT_EQ(affine_runs(Offsets{0, 0, 0, 1, 2, 2, 2}, kPad),
            (Runs{data(0, 3, 0, 0), data(3, 2, 1, 1), data(5, 2, 2, 0)}));
}

TEST(OffsetRuns, RunsCoverTheTableExactly) {
  const Offsets table{3, kPad, 9, 9, 4, 6, 8, kPad, kPad, 0};
  const Runs runs = affine_runs(table, kPad);
  uint64_t next = 0;
  for (const OffsetRun& run : runs) {
    ASSERT_EQ(run.begin, next);
    for (uint64_t k = 0; k < run.length; ++k) {
      if (run.padding) {
        EXPECT_EQ(table[run.begin + k], kPad);
      } else {
        EXPECT_EQ(table[run.begin + k], run.first + static_cast<int64_t>(k) * run.step);
      }
    }
    next = run.begin + run.length;
  }
  EXPECT_EQ(next, table.size());
  EXPECT_EQ(runs.size(), 6u);  // 3 | kPad | 9 9 | 4 6 8 | kPad kPad | 0
}

TEST(OffsetRuns, MarkerIsTheCallersChoice) {
  EXPECT_EQ(affine_runs(Offsets{INT64_MIN, -1, -2}, INT64_MIN), (Runs{padding(0, 1), data(1, 2, -1, -1)}));
}

}  // namespace
}  // namespace stridescope
