// The order an animation visits output elements in, checked against orders
// worked out by hand: row-major coordinates, and buffer offsets for
// column-major and broadcast layouts.
#include "core/animation_order.h"

#include <gtest/gtest.h>

namespace stridescope {
namespace {

TensorDesc desc(Sizes sizes, std::optional<Strides> strides = std::nullopt) {
  return TensorDesc::make(DataType::Float32, sizes, strides, "t").value();
}

TEST(AnimationOrder, SmallTensorsVisitEveryElement) {
  const AnimationSteps steps = animation_steps(16);
  EXPECT_EQ(steps.every, 1u);
  EXPECT_EQ(steps.frames, 16u);
  EXPECT_EQ(animation_steps(256).every, 1u);
}

TEST(AnimationOrder, LargeTensorsStepEveryKthElementWithAtLeast64Frames) {
  // 257 elements: k = 2 gives ceil(257 / 2) = 129 frames.
  EXPECT_EQ(animation_steps(257).every, 2u);
  EXPECT_EQ(animation_steps(257).frames, 129u);
  // 64 x 64 = 4096: k = 16, 256 frames.
  EXPECT_EQ(animation_steps(4096).every, 16u);
  EXPECT_EQ(animation_steps(4096).frames, 256u);
  for (uint64_t n : {257u, 300u, 1000u, 65537u, 1000000u}) {
    const AnimationSteps s = animation_steps(n);
    EXPECT_GE(s.frames, 64u) << n;
    EXPECT_LE(s.frames, kMaxAnimationFrames) << n;
  }
  EXPECT_EQ(animation_steps(0).frames, 0u);
}

TEST(AnimationOrder, LogicalOrderIsRowMajor) {
  const auto frames = animation_frames(desc({1, 1, 2, 3}), VisitOrder::Logical);
  ASSERT_EQ(frames.size(), 6u);
  EXPECT_EQ(frames[0], (Coord{0, 0, 0, 0}));
  EXPECT_EQ(frames[1], (Coord{0, 0, 0, 1}));
  EXPECT_EQ(frames[3], (Coord{0, 0, 1, 0}));
  EXPECT_EQ(frames[5], (Coord{0, 0, 1, 2}));
}

TEST(AnimationOrder, BufferOrderFollowsOffsets) {
  // Column-major 2x3: offsets (r, c) -> r + 2c, so memory holds
  // (0,0) (1,0) (0,1) (1,1) (0,2) (1,2), flat indices 0 3 1 4 2 5.
  const TensorDesc column_major = desc({2, 3}, Strides{1, 2});
  EXPECT_EQ(visit_sequence(column_major, VisitOrder::Buffer), (std::vector<uint64_t>{0, 3, 1, 4, 2, 5}));
  EXPECT_EQ(visit_sequence(column_major, VisitOrder::Logical), (std::vector<uint64_t>{0, 1, 2, 3, 4, 5}));
  const auto frames = animation_frames(column_major, VisitOrder::Buffer);
  ASSERT_EQ(frames.size(), 6u);
  EXPECT_EQ(frames[1], (Coord{1, 0}));
}

TEST(AnimationOrder, SharedOffsetsKeepLogicalOrder) {
  // Broadcast rows: strides {0, 1}, so (0,c) and (1,c) share offset c.
  EXPECT_EQ(visit_sequence(desc({2, 2}, Strides{0, 1}), VisitOrder::Buffer), (std::vector<uint64_t>{0, 2, 1, 3}));
}

TEST(AnimationOrder, StepsThroughLargeTensors) {
  const auto frames = animation_frames(desc({1, 1, 64, 64}), VisitOrder::Logical);
  ASSERT_EQ(frames.size(), 256u);
  EXPECT_EQ(frames[1], (Coord{0, 0, 0, 16}));
  EXPECT_EQ(frames[4], (Coord{0, 0, 1, 0}));
}

TEST(AnimationOrder, NamesRoundTrip) {
  EXPECT_EQ(parse_visit_order("buffer"), VisitOrder::Buffer);
  EXPECT_EQ(parse_visit_order(to_string(VisitOrder::Logical)), VisitOrder::Logical);
  EXPECT_FALSE(parse_visit_order("random").has_value());
}

}  // namespace
}  // namespace stridescope
