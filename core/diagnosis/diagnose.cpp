#include "core/diagnosis/diagnose.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/diagnosis/difference_traits.h"
#include "core/scalar.h"

namespace stridescope {
namespace {

bool same_element(DataType type, const std::byte* a, const std::byte* b, const DiagnoseOptions& options) {
  if (std::memcmp(a, b, element_size(type)) == 0) return true;
  return options.nan_matches_any_nan && is_floating(type) && std::isnan(to_double(read_element(type, a))) &&
         std::isnan(to_double(read_element(type, b)));
}

// One tensor of a comparison: where each side keeps an element.
struct Side {
  const TensorDesc* desc;
  std::span<const std::byte> buffer;
  const std::byte* at(const Coord& coord) const {
    return buffer.data() + desc->offset_of(coord) * desc->element_size();
  }
};

struct Score {
  bool complete = true;
  uint64_t explained = 0;
  uint64_t broken = 0;
  bool better_than(const Score& other) const {
    if (complete != other.complete) return complete;
    if (explained != other.explained) return explained > other.explained;
    return broken < other.broken;
  }
};

bool undefined_at(const VariantResult& v, const Coord& coord) {
  return std::binary_search(v.undefined_indices.begin(), v.undefined_indices.end(), v.indices->offset_of(coord));
}

// `variant` against `result`, element by element; `exact` tells which elements differ.
Score score(const Operation& op, const VariantResult& variant, ResultBuffers exact, ResultBuffers result,
            const DiagnoseOptions& options) {
  Score s;
  const auto tally = [&](const Side& e, const Side& v, const Side& r, const Coord& coord, bool free) {
    const bool exact_right = same_element(e.desc->data_type(), e.at(coord), r.at(coord), options);
    const bool variant_right = free || same_element(v.desc->data_type(), v.at(coord), r.at(coord), options);
    s.complete = s.complete && variant_right;
    // An element the mistake leaves undefined explains nothing: else it would
    // explain any corrupted index there.
    if (!exact_right && variant_right && !free) ++s.explained;
    if (exact_right && !variant_right) ++s.broken;
  };
  const Side out_e{&op.output(), exact.output}, out_v{&variant.output, variant.output_buffer},
      out_r{&op.output(), result.output};
  Coord coord(op.output().rank(), 0);
  do {
    tally(out_e, out_v, out_r, coord, false);
    if (op.output_indices()) {
      const TensorDesc& desc = *op.output_indices();
      tally(Side{&desc, exact.indices}, Side{&*variant.indices, variant.indices_buffer}, Side{&desc, result.indices},
            coord, undefined_at(variant, coord));
    }
  } while (next_coord(coord, op.output().sizes()));
  return s;
}

std::vector<DifferingElement> differing_elements(const Operation& op, ResultBuffers exact, ResultBuffers result,
                                                 const DiagnoseOptions& options, uint64_t& count) {
  std::vector<DifferingElement> listed;
  const auto note = [&](const Side& e, const Side& r, const Coord& coord, bool indices) {
    if (same_element(e.desc->data_type(), e.at(coord), r.at(coord), options)) return;
    if (++count <= kMaxDescribed) listed.push_back({indices, coord});
  };
  Coord coord(op.output().rank(), 0);
  do {
    note(Side{&op.output(), exact.output}, Side{&op.output(), result.output}, coord, false);
    if (op.output_indices()) {
      const TensorDesc* desc = &*op.output_indices();
      note(Side{desc, exact.indices}, Side{desc, result.indices}, coord, true);
    }
  } while (next_coord(coord, op.output().sizes()));
  return listed;
}

bool shaped_as_op(const Operation& op, const VariantResult& v) {
  if (v.output.sizes() != op.output().sizes()) return false;
  return !op.output_indices() || (v.indices && v.indices->sizes() == op.output_indices()->sizes());
}

}  // namespace

Diagnosis diagnose(const Operation& op, std::span<const std::byte> input, ResultBuffers exact, ResultBuffers result,
                   const DiagnoseOptions& options) {
  Diagnosis diagnosis;
  const std::vector<DifferingElement> differing = differing_elements(op, exact, result, options, diagnosis.differing);
  if (diagnosis.differing == 0) return diagnosis;

  std::vector<std::pair<Finding, Score>> found;
  for (const Mistake& mistake : mistake_catalogue()) {
    std::optional<Score> best;
    for (VariantResult& variant : run_mistaken(mistake.id, op, input)) {
      if (!shaped_as_op(op, variant)) continue;
      std::sort(variant.undefined_indices.begin(), variant.undefined_indices.end());
      const Score s = score(op, variant, exact, result, options);
      if (!best || s.better_than(*best)) best = s;
    }
    if (best && best->explained > 0) {
      found.push_back({Finding{mistake.id, best->complete, best->explained, best->broken}, *best});
    }
  }
  std::stable_sort(found.begin(), found.end(),
                   [](const auto& a, const auto& b) { return a.second.better_than(b.second); });
  const bool any_complete = !found.empty() && found.front().first.complete;
  for (const auto& [finding, s] : found) {
    if (!any_complete || finding.complete) diagnosis.findings.push_back(finding);
  }
  if (diagnosis.findings.empty()) diagnosis.in_common = describe_differences(op, input, exact.output, differing);
  return diagnosis;
}

bool reproduces(const Operation& op, std::span<const std::byte> input, const Reshape& shape, ResultBuffers result,
                const DiagnoseOptions& options) {
  for (VariantResult& variant : run_mistaken(shape.id, op, input)) {
    if (variant.output.sizes() != shape.output.sizes()) continue;
    std::sort(variant.undefined_indices.begin(), variant.undefined_indices.end());
    bool same = true;
    Coord coord(shape.output.rank(), 0);
    do {
      same = same_element(shape.output.data_type(), Side{&variant.output, variant.output_buffer}.at(coord),
                          Side{&shape.output, result.output}.at(coord), options);
      if (same && shape.indices && variant.indices && !undefined_at(variant, coord)) {
        same = same_element(shape.indices->data_type(), Side{&*variant.indices, variant.indices_buffer}.at(coord),
                            Side{&*shape.indices, result.indices}.at(coord), options);
      }
    } while (same && next_coord(coord, shape.output.sizes()));
    if (same) return true;
  }
  return false;
}

}  // namespace stridescope
