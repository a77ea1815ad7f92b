// Where an output element came from, for `explain`, the app's overlays and
// status line. Read from reader_index.h's tables (index_plan.h's plans), never
// from formulas of its own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "index_plan.h"
#include "operation.h"
#include "reader_index.h"

namespace stridescope {

struct PoolingTap {
  SignedCoord coord;     // input coordinate; spatial entries may lie in padding
  bool padded = false;   // outside the input: never read, never wins
  uint64_t offset = 0;   // buffer offset (elements) when not padded
};

// By default a window lists at most this many taps: a 4096x4096 window
// (valid, and bounded in work) would otherwise take gigabytes to describe.
inline constexpr std::size_t kMaxListedTaps = std::size_t{1} << 16;

struct Provenance {
  SourceKind kind = SourceKind::Copied;
  Coord output_coord;
  uint64_t output_offset = 0;

  // Copied, PaddingFolded: the input element read.
  std::optional<Coord> source;
  uint64_t source_offset = 0;
  // Padding: the input coordinate before folding (entries < 0 or >= size lie in padding).
  SignedCoord unfolded;

  // Pooled: the window's taps in row-major window order (the first
  // kMaxListedTaps of window_taps), and the winner when the input data was
  // given; `source` and `source_offset` are the winner's.
  std::vector<PoolingTap> window;
  uint64_t window_taps = 0;               // all taps, listed or not
  std::optional<std::size_t> winner;      // position in window order (may lie past the listed taps)
  std::optional<uint64_t> winner_index;   // flat row-major index in the logical input

  // One sentence for people, e.g.
  // "out[0,0,1,0] = in[0,0,1,1] (offset 5): slice1 axis 2 starts at the window end because its stride is negative"
  std::string rule;
};

// Explains one output coordinate. `input` (the input buffer) is needed only
// to name the pooling winner; a pooling window lists at most
// `max_listed_taps` taps (its winner is found among all). A coordinate of the
// wrong rank is an error at "--at", an entry outside the output at "--at[i]".
// `index` must have been built from `op`: the app builds it once per
// evaluation, so explaining the element under the cursor rebuilds no plan.
Expected<Provenance> explain(const Operation& op, const ReaderIndex& index, const Coord& output_coord,
                             std::span<const std::byte> input = {}, std::size_t max_listed_taps = kMaxListedTaps);
// One-off (the CLI): builds the forward plans, then as above.
Expected<Provenance> explain(const Operation& op, const Coord& output_coord,
                             std::span<const std::byte> input = {}, std::size_t max_listed_taps = kMaxListedTaps);

// The other direction, for one input element: along each dimension d, the
// output indices whose source (or, pooling, any window tap) is input index
// in[d]. The output elements that read `in` are the Cartesian product.
// One-off; ReaderIndex::readers_of answers the same from built tables.
AxisReaderLists readers_per_axis(const Operation& op, const Coord& in);

}  // namespace stridescope
