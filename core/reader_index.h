// Both directions of an operation's index tables, built once per evaluation:
//   forward:  which input index each output index reads along each axis (the
//             plans of index_plan.h, kept so explain() need not rebuild them);
//   inverse:  which output indices read each input index along each axis
//             (pooling: any window tap), so hovering an input element costs a
//             table lookup instead of a scan.
// Every operator is separable per dimension, so a cell's answer is the
// Cartesian product (or composition) of one entry per axis. Nothing here
// re-derives an operator formula: everything comes from the plans.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "index_plan.h"
#include "operation.h"

namespace stridescope {

// The inverse tables cost one entry per plan entry; beyond this many they are
// left out (readers_known() is false) and readers_of() scans the plan instead.
inline constexpr uint64_t kMaxReaderEntries = uint64_t{1} << 26;

// How an output element gets its value (also Provenance::kind).
enum class SourceKind {
  Copied,           // identity, slice, slice1, or padding inside the input
  PaddingConstant,  // CONSTANT padding: the padding value
  PaddingFolded,    // EDGE / REFLECTION / SYMMETRIC: a folded input element
  Pooled,           // max_pooling2: the maximum over a window
};

using AxisReaderLists = std::array<std::vector<uint64_t>, kMaxRank>;

class ReaderIndex {
 public:
  ReaderIndex() = default;
  // `max_reader_entries` = 0 builds the forward plans only (one-off queries).
  static ReaderIndex build(const Operation& op, uint64_t max_reader_entries = kMaxReaderEntries);

  OpKind kind() const { return kind_; }
  std::size_t rank() const { return input_sizes_.size(); }
  bool is_gather() const { return kind_ != OpKind::MaxPooling2; }

  // The forward plans: gather() for gather ops, pooling() for max_pooling2.
  const GatherPlan& gather() const { return gather_; }
  const PoolingPlan& pooling() const { return pooling_; }

  // Gather ops: the input index output index `o` reads along `dim`, or
  // kPaddingIndex where CONSTANT padding supplies the value.
  int64_t source(std::size_t dim, uint64_t o) const { return gather_.source[dim][o]; }
  // Padding: output index `o` along `dim` lies in a padding region.
  bool in_padding(std::size_t dim, uint64_t o) const;

  // Output indices along `dim` that read input index `i`, ascending, each
  // once; empty when the tables were too large (see readers_known()).
  std::span<const uint64_t> readers(std::size_t dim, uint64_t i) const;
  bool readers_known() const { return readers_known_; }
  // Per axis, the output indices that read `in`: from the tables, or by
  // scanning the plans when they were too large. Empty lists for a
  // coordinate of the wrong rank.
  AxisReaderLists readers_of(const Coord& in) const;

  // The input window along `dim` as [first, last] for slice and slice1.
  std::optional<std::pair<uint64_t, uint64_t>> window(std::size_t dim) const;

  // Composed per cell.
  SourceKind output_kind(const Coord& out) const;
  std::optional<Coord> output_source(const Coord& out) const;  // gather ops; nullopt for CONSTANT padding
  uint64_t reader_count(const Coord& in) const;                // output elements that read `in` (0 when unknown)
  bool is_read(const Coord& in) const { return reader_count(in) > 0; }
  std::optional<Coord> only_reader(const Coord& in) const;     // when exactly one output reads `in`

 private:
  // Compressed lists: the readers of input index i are list[begin[i] .. begin[i+1]).
  struct AxisReaders {
    std::vector<uint64_t> begin;  // input size + 1 entries
    std::vector<uint64_t> list;
  };
  static AxisReaders invert(std::span<const int64_t> table, uint64_t per_output, uint64_t input_size);
  std::vector<uint64_t> scan_readers(std::size_t dim, uint64_t i) const;

  OpKind kind_ = OpKind::Identity;
  Sizes input_sizes_;
  GatherPlan gather_;
  PoolingPlan pooling_;
  std::array<AxisReaders, kMaxRank> readers_;
  std::array<std::optional<std::pair<uint64_t, uint64_t>>, kMaxRank> window_;
  bool readers_known_ = false;
};

}  // namespace stridescope
