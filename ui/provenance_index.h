// Per-axis lookups that let a view classify every cell of a plane without
// calling explain() per cell. Every operator in StrideScope is separable per
// dimension (index_plan.h), so a cell's provenance is the composition of one
// table entry per axis. The tables come from core only:
//   - source(d, o):   GatherPlan::source            (make_gather_plan)
//   - readers(d, i):  the inverse of the plan tables, the same lists
//                     readers_per_axis() returns (a test checks they agree)
//   - in_padding(d, o): GatherPlan::unfolded lies outside the input
//   - window(d):      slice1's InputWindowOffsets/Sizes, or the span slice reads
// Nothing here evaluates an operator formula.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "core/operation.h"
#include "core/provenance.h"

namespace stridescope::ui {

class ProvenanceIndex {
 public:
  ProvenanceIndex() = default;
  static ProvenanceIndex build(const Operation& op);

  OpKind kind() const { return kind_; }
  std::size_t rank() const { return rank_; }
  bool is_gather() const { return kind_ != OpKind::MaxPooling2; }

  // Gather ops: the input index output index `o` reads along `dim`, or
  // kPaddingIndex where CONSTANT padding supplies the value.
  int64_t source(std::size_t dim, uint64_t o) const { return source_[dim][o]; }
  // Padding: output index `o` along `dim` lies in a padding region.
  bool in_padding(std::size_t dim, uint64_t o) const;

  // Output indices along `dim` that read input index `i` (pooling: any tap).
  std::span<const uint64_t> readers(std::size_t dim, uint64_t i) const;
  // False when the tensor was too large to tabulate readers.
  bool readers_known() const { return readers_known_; }

  // The input window along `dim` as [first, last] for slice and slice1.
  std::optional<std::pair<uint64_t, uint64_t>> window(std::size_t dim) const;

  // Composed per cell.
  SourceKind output_kind(const Coord& out) const;
  std::optional<Coord> output_source(const Coord& out) const;  // gather ops; nullopt for CONSTANT padding
  uint64_t reader_count(const Coord& in) const;                // output elements that read `in`
  bool is_read(const Coord& in) const { return reader_count(in) > 0; }
  std::optional<Coord> only_reader(const Coord& in) const;     // when exactly one output reads `in`

 private:
  struct AxisReaders {
    std::vector<uint64_t> begin;  // input size + 1 entries into `list`
    std::vector<uint64_t> list;
  };

  OpKind kind_ = OpKind::Identity;
  std::size_t rank_ = 0;
  std::array<std::vector<int64_t>, kMaxRank> source_;
  std::array<std::vector<bool>, kMaxRank> padding_;
  std::array<AxisReaders, kMaxRank> readers_;
  std::array<std::optional<std::pair<uint64_t, uint64_t>>, kMaxRank> window_;
  bool readers_known_ = true;
};

}  // namespace stridescope::ui
