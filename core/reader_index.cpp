#include "reader_index.h"

#include <algorithm>
#include <numeric>

namespace stridescope {

ReaderIndex ReaderIndex::build(const Operation& op, uint64_t max_reader_entries) {
  ReaderIndex index;
  index.kind_ = op.kind();
  index.input_sizes_ = op.input().sizes();
  const Sizes& in_sizes = index.input_sizes_;
  const uint64_t sum_in = std::accumulate(in_sizes.begin(), in_sizes.end(), uint64_t{0});

  if (op.kind() == OpKind::MaxPooling2) {
    index.pooling_ = make_pooling_plan(op);
    const PoolingPlan& plan = index.pooling_;
    uint64_t taps = 0;
    for (std::size_t s = 0; s < plan.spatial_rank; ++s) taps += plan.axes[s].taps.size();
    index.readers_known_ = taps + sum_in < max_reader_entries;
    if (index.readers_known_) {
      // Batch and channel: every output index reads its own input index.
      for (std::size_t d = 0; d < 2; ++d) {
        std::vector<int64_t> itself(in_sizes[d]);
        std::iota(itself.begin(), itself.end(), int64_t{0});
        index.readers_[d] = invert(itself, 1, in_sizes[d]);
      }
      for (std::size_t s = 0; s < plan.spatial_rank; ++s) {
        index.readers_[s + 2] = invert(plan.axes[s].taps, plan.axes[s].window, in_sizes[s + 2]);
      }
    }
    return index;
  }

  index.gather_ = make_gather_plan(op);
  const GatherPlan& plan = index.gather_;
  uint64_t sum_out = 0;
  for (std::size_t d = 0; d < plan.rank; ++d) sum_out += plan.source[d].size();
  index.readers_known_ = sum_out + sum_in < max_reader_entries;
  if (index.readers_known_) {
    for (std::size_t d = 0; d < plan.rank; ++d) index.readers_[d] = invert(plan.source[d], 1, in_sizes[d]);
  }

  // Windows: slice1's as given; slice's as the span it reads.
  if (op.kind() == OpKind::Slice1) {
    const auto& p = op.params_as<Slice1Params>();
    for (std::size_t d = 0; d < plan.rank; ++d) {
      index.window_[d] = std::make_pair(p.window_offsets[d], p.window_offsets[d] + p.window_sizes[d] - 1);
    }
  } else if (op.kind() == OpKind::Slice) {
    for (std::size_t d = 0; d < plan.rank; ++d) {
      const auto& s = plan.source[d];
      const auto [lo, hi] = std::minmax_element(s.begin(), s.end());
      index.window_[d] = std::make_pair(static_cast<uint64_t>(*lo), static_cast<uint64_t>(*hi));
    }
  }
  return index;
}

// A counting sort: one pass counts each input index's readers, a second
// places them. Output indices are visited ascending, so every list comes out
// sorted; `last` drops a second tap of one window on the same input index.
ReaderIndex::AxisReaders ReaderIndex::invert(std::span<const int64_t> table, uint64_t per_output,
                                             uint64_t input_size) {
  AxisReaders axis;
  axis.begin.assign(input_size + 1, 0);
  const uint64_t outputs = per_output ? table.size() / per_output : 0;
  std::vector<uint64_t> last(input_size, UINT64_MAX);
  const auto visit = [&](auto&& place) {
    for (uint64_t o = 0; o < outputs; ++o) {
      for (uint64_t k = 0; k < per_output; ++k) {
        const int64_t i = table[o * per_output + k];
        if (i == kPaddingIndex || last[static_cast<uint64_t>(i)] == o) continue;
        last[static_cast<uint64_t>(i)] = o;
        place(static_cast<uint64_t>(i), o);
      }
    }
  };
  visit([&](uint64_t i, uint64_t) { ++axis.begin[i + 1]; });
  std::partial_sum(axis.begin.begin(), axis.begin.end(), axis.begin.begin());
  axis.list.resize(axis.begin.back());
  std::vector<uint64_t> next(axis.begin.begin(), axis.begin.end() - 1);
  std::fill(last.begin(), last.end(), UINT64_MAX);
  visit([&](uint64_t i, uint64_t o) { axis.list[next[i]++] = o; });
  return axis;
}

std::vector<uint64_t> ReaderIndex::scan_readers(std::size_t dim, uint64_t i) const {
  std::vector<uint64_t> found;
  const auto wanted = static_cast<int64_t>(i);
  if (is_gather()) {
    const auto& source = gather_.source[dim];
    for (uint64_t o = 0; o < source.size(); ++o) {
      if (source[o] == wanted) found.push_back(o);
    }
    return found;
  }
  if (dim < 2) return {i};
  const PoolingAxis& axis = pooling_.axes[dim - 2];
  const uint64_t outputs = axis.window ? axis.taps.size() / axis.window : 0;
  for (uint64_t o = 0; o < outputs; ++o) {
    const auto first = axis.taps.begin() + static_cast<std::ptrdiff_t>(o * axis.window);
    if (std::find(first, first + static_cast<std::ptrdiff_t>(axis.window), wanted) !=
        first + static_cast<std::ptrdiff_t>(axis.window)) {
      found.push_back(o);
    }
  }
  return found;
}

bool ReaderIndex::in_padding(std::size_t dim, uint64_t o) const {
  if (kind_ != OpKind::Padding) return false;
  const int64_t unfolded = gather_.unfolded[dim][o];
  return unfolded < 0 || unfolded >= static_cast<int64_t>(input_sizes_[dim]);
}

std::span<const uint64_t> ReaderIndex::readers(std::size_t dim, uint64_t i) const {
  if (!readers_known_ || dim >= rank()) return {};
  const AxisReaders& axis = readers_[dim];
  if (i + 1 >= axis.begin.size()) return {};
  return {axis.list.data() + axis.begin[i], axis.begin[i + 1] - axis.begin[i]};
}

AxisReaderLists ReaderIndex::readers_of(const Coord& in) const {
  AxisReaderLists lists;
  if (in.size() != rank()) return lists;
  for (std::size_t d = 0; d < rank(); ++d) {
    if (in[d] >= input_sizes_[d]) return {};
    if (readers_known_) {
      const auto list = readers(d, in[d]);
      lists[d].assign(list.begin(), list.end());
    } else {
      lists[d] = scan_readers(d, in[d]);
    }
  }
  return lists;
}

std::optional<std::pair<uint64_t, uint64_t>> ReaderIndex::window(std::size_t dim) const {
  return dim < rank() ? window_[dim] : std::nullopt;
}

SourceKind ReaderIndex::output_kind(const Coord& out) const {
  if (kind_ == OpKind::MaxPooling2) return SourceKind::Pooled;
  if (kind_ != OpKind::Padding) return SourceKind::Copied;
  bool padded = false;
  for (std::size_t d = 0; d < rank(); ++d) {
    if (source(d, out[d]) == kPaddingIndex) return SourceKind::PaddingConstant;
    padded = padded || in_padding(d, out[d]);
  }
  return padded ? SourceKind::PaddingFolded : SourceKind::Copied;
}

std::optional<Coord> ReaderIndex::output_source(const Coord& out) const {
  if (!is_gather()) return std::nullopt;
  Coord result;
  for (std::size_t d = 0; d < rank(); ++d) {
    const int64_t s = source(d, out[d]);
    if (s == kPaddingIndex) return std::nullopt;
    result.push_back(static_cast<uint64_t>(s));
  }
  return result;
}

uint64_t ReaderIndex::reader_count(const Coord& in) const {
  if (!readers_known_) return 0;
  uint64_t count = 1;
  for (std::size_t d = 0; d < rank(); ++d) count *= readers(d, in[d]).size();
  return count;
}

std::optional<Coord> ReaderIndex::only_reader(const Coord& in) const {
  if (!readers_known_) return std::nullopt;
  Coord reader;
  for (std::size_t d = 0; d < rank(); ++d) {
    const auto r = readers(d, in[d]);
    if (r.size() != 1) return std::nullopt;
    reader.push_back(r[0]);
  }
  return reader;
}

}  // namespace stridescope
