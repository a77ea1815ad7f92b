#include "ui/provenance_index.h"

#include <algorithm>

#include "core/index_plan.h"

namespace stridescope::ui {
namespace {

// Beyond these the tables would cost more memory or time than a view is worth;
// the views then simply show fewer overlays.
constexpr uint64_t kMaxReaderEntries = uint64_t{1} << 26;

}  // namespace

ProvenanceIndex ProvenanceIndex::build(const Operation& op) {
  ProvenanceIndex index;
  index.kind_ = op.kind();
  index.rank_ = op.input().rank();
  const Sizes& in_sizes = op.input().sizes();
  const Sizes& out_sizes = op.output().sizes();

  uint64_t sum_in = 0;
  uint64_t sum_out = 0;
  for (uint64_t s : in_sizes) sum_in += s;
  for (uint64_t s : out_sizes) sum_out += s;

  std::array<std::vector<int64_t>, kMaxRank> unfolded;  // padding: input index before folding

  // Per axis: output index -> input index(es), from the core's plan.
  std::array<std::vector<std::pair<uint64_t, uint64_t>>, kMaxRank> pairs;  // (input index, output index)
  if (op.kind() == OpKind::MaxPooling2) {
    const PoolingPlan plan = make_pooling_plan(op);
    uint64_t taps = 0;
    for (std::size_t s = 0; s < plan.spatial_rank; ++s) taps += plan.axes[s].taps.size();
    index.readers_known_ = taps + sum_in < kMaxReaderEntries;
    if (index.readers_known_) {
      for (std::size_t d = 0; d < 2; ++d) {
        for (uint64_t i = 0; i < in_sizes[d]; ++i) pairs[d].emplace_back(i, i);
      }
      for (std::size_t s = 0; s < plan.spatial_rank; ++s) {
        const PoolingAxis& axis = plan.axes[s];
        const uint64_t outputs = out_sizes[s + 2];
        for (uint64_t o = 0; o < outputs; ++o) {
          for (uint64_t k = 0; k < axis.window; ++k) {
            const int64_t tap = axis.taps[o * axis.window + k];
            if (tap != kPaddingIndex) pairs[s + 2].emplace_back(static_cast<uint64_t>(tap), o);
          }
        }
      }
    }
  } else {
    GatherPlan plan = make_gather_plan(op);
    for (std::size_t d = 0; d < plan.rank; ++d) index.source_[d] = std::move(plan.source[d]);
    unfolded = std::move(plan.unfolded);
    index.readers_known_ = sum_out + sum_in < kMaxReaderEntries;
    if (index.readers_known_) {
      for (std::size_t d = 0; d < index.rank_; ++d) {
        for (uint64_t o = 0; o < index.source_[d].size(); ++o) {
          const int64_t s = index.source_[d][o];
          if (s != kPaddingIndex) pairs[d].emplace_back(static_cast<uint64_t>(s), o);
        }
      }
    }
  }

  // Invert into per-input-index reader lists, output indices ascending and
  // each listed once (as readers_per_axis lists them).
  if (index.readers_known_) {
    for (std::size_t d = 0; d < index.rank_; ++d) {
      auto& p = pairs[d];
      std::sort(p.begin(), p.end());
      p.erase(std::unique(p.begin(), p.end()), p.end());
      AxisReaders& axis = index.readers_[d];
      axis.begin.assign(in_sizes[d] + 1, 0);
      for (const auto& [i, o] : p) ++axis.begin[i + 1];
      for (uint64_t i = 0; i < in_sizes[d]; ++i) axis.begin[i + 1] += axis.begin[i];
      axis.list.reserve(p.size());
      for (const auto& [i, o] : p) axis.list.push_back(o);
    }
  }

  // Padding regions, from the plan's unfolded input indices.
  if (op.kind() == OpKind::Padding) {
    for (std::size_t d = 0; d < index.rank_; ++d) {
      index.padding_[d].assign(unfolded[d].size(), false);
      for (uint64_t o = 0; o < unfolded[d].size(); ++o) {
        index.padding_[d][o] = unfolded[d][o] < 0 || unfolded[d][o] >= static_cast<int64_t>(in_sizes[d]);
      }
    }
  }

  // Windows: slice1's as given; slice's as the span it reads.
  if (op.kind() == OpKind::Slice1) {
    const auto& p = op.params_as<Slice1Params>();
    for (std::size_t d = 0; d < index.rank_; ++d) {
      index.window_[d] = std::make_pair(p.window_offsets[d], p.window_offsets[d] + p.window_sizes[d] - 1);
    }
  } else if (op.kind() == OpKind::Slice) {
    for (std::size_t d = 0; d < index.rank_; ++d) {
      const auto& s = index.source_[d];
      const auto [lo, hi] = std::minmax_element(s.begin(), s.end());
      index.window_[d] = std::make_pair(static_cast<uint64_t>(*lo), static_cast<uint64_t>(*hi));
    }
  }
  return index;
}

bool ProvenanceIndex::in_padding(std::size_t dim, uint64_t o) const {
  if (kind_ != OpKind::Padding) return false;
  return padding_[dim][o];
}

std::span<const uint64_t> ProvenanceIndex::readers(std::size_t dim, uint64_t i) const {
  if (!readers_known_) return {};
  const AxisReaders& axis = readers_[dim];
  if (i + 1 >= axis.begin.size()) return {};
  return {axis.list.data() + axis.begin[i], axis.begin[i + 1] - axis.begin[i]};
}

std::optional<std::pair<uint64_t, uint64_t>> ProvenanceIndex::window(std::size_t dim) const {
  return dim < rank_ ? window_[dim] : std::nullopt;
}

SourceKind ProvenanceIndex::output_kind(const Coord& out) const {
  if (kind_ == OpKind::MaxPooling2) return SourceKind::Pooled;
  if (kind_ != OpKind::Padding) return SourceKind::Copied;
  bool padded = false;
  for (std::size_t d = 0; d < rank_; ++d) {
    if (source_[d][out[d]] == kPaddingIndex) return SourceKind::PaddingConstant;
    padded = padded || in_padding(d, out[d]);
  }
  return padded ? SourceKind::PaddingFolded : SourceKind::Copied;
}

std::optional<Coord> ProvenanceIndex::output_source(const Coord& out) const {
  if (!is_gather()) return std::nullopt;
  Coord source;
  for (std::size_t d = 0; d < rank_; ++d) {
    const int64_t s = source_[d][out[d]];
    if (s == kPaddingIndex) return std::nullopt;
    source.push_back(static_cast<uint64_t>(s));
  }
  return source;
}

uint64_t ProvenanceIndex::reader_count(const Coord& in) const {
  if (!readers_known_) return 0;
  uint64_t count = 1;
  for (std::size_t d = 0; d < rank_; ++d) count *= readers(d, in[d]).size();
  return count;
}

std::optional<Coord> ProvenanceIndex::only_reader(const Coord& in) const {
  if (!readers_known_) return std::nullopt;
  Coord reader;
  for (std::size_t d = 0; d < rank_; ++d) {
    const auto r = readers(d, in[d]);
    if (r.size() != 1) return std::nullopt;
    reader.push_back(r[0]);
  }
  return reader;
}

}  // namespace stridescope::ui
