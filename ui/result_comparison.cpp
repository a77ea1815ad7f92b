#include "ui/result_comparison.h"

#include <algorithm>
#include <filesystem>
#include <iterator>

#include "core/compare.h"
#include "core/io/result_document.h"
#include "core/io/result_file.h"
#include "core/io/text_file.h"

namespace stridescope::ui {
namespace {

bool row_major_less(const Coord& a, const Coord& b) {
  return std::lexicographical_compare(a.begin(), a.end(), b.begin(), b.end());
}

// The file's content as the op's buffers; `indices` left empty where the
// file has none (a .npy without X.indices.npy).
Expected<ResultDocument> fit_to(const OtherResult& other, const Operation& op) {
  const TensorDesc* indices = op.output_indices() ? &*op.output_indices() : nullptr;
  if (!other.npy) {
    Expected<ResultDocument> read = read_result_document(other.document, op.output(), indices);
    if (!read) return Error{read.error().code, other.name, read.error().to_string()};
    return read;
  }
  ResultDocument result;
  SS_ASSIGN_OR_RETURN(result.output, npy_as_buffer(other.output, op.output(), other.name));
  if (indices && other.indices) {
    SS_ASSIGN_OR_RETURN(result.indices,
                        npy_as_buffer(*other.indices, *indices, indices_npy_path(other.name).string()));
  }
  return result;
}

std::vector<Coord> listed_coords(const std::optional<Mismatch>& mismatch) {
  std::vector<Coord> coords;
  if (!mismatch) return coords;
  coords.reserve(mismatch->listed.size());
  for (const ElementMismatch& m : mismatch->listed) coords.push_back(m.coord);
  return coords;
}

}  // namespace

Expected<std::shared_ptr<const OtherResult>> load_other_result(const std::string& file, uint64_t max_bytes) {
  auto other = std::make_shared<OtherResult>();
  other->file = file;
  other->name = std::filesystem::path(file).filename().string();
  other->npy = is_npy_file(file);
  if (!other->npy) {
    SS_ASSIGN_OR_RETURN(other->document,
                        read_text_file(file, max_bytes, "is longer than " + std::to_string(max_bytes) + " bytes"));
    return std::shared_ptr<const OtherResult>(std::move(other));
  }
  SS_ASSIGN_OR_RETURN(other->output, read_npy(file, max_bytes));
  const std::filesystem::path indices = indices_npy_path(file);
  std::error_code ignored;
  if (std::filesystem::exists(indices, ignored)) {
    SS_ASSIGN_OR_RETURN(other->indices, read_npy(indices, max_bytes));
  }
  return std::shared_ptr<const OtherResult>(std::move(other));
}

ResultComparison compare_with_result(const OtherResult& other, const Operation& op, std::span<const std::byte> input,
                                     std::span<const std::byte> output, std::span<const std::byte> indices) {
  ResultComparison c;
  c.file = other.file;
  Expected<ResultDocument> theirs = fit_to(other, op);
  if (!theirs) {
    c.error = theirs.error();
    return c;
  }
  c.output_elements = op.output().element_count();
  c.indices_compared = op.output_indices().has_value() && !theirs->indices.empty();
  if (!other.npy) match_nan_to_nan(op.output(), output, theirs->output);
  const std::optional<Mismatch> out = compare_tensors(op.output(), output, theirs->output, kMaxListedDifferences);
  std::optional<Mismatch> ind;
  if (c.indices_compared) {
    ind = compare_tensors(*op.output_indices(), indices, theirs->indices, kMaxListedDifferences);
  } else if (op.output_indices()) {
    // No indices to compare: the diagnosis judges the output, taking
    // StrideScope's indices for theirs.
    theirs->indices.assign(indices.begin(), indices.end());
  }
  c.output_differing = out ? out->count : 0;
  c.indices_differing = ind ? ind->count : 0;
  c.output_listed = listed_coords(out);
  c.indices_listed = listed_coords(ind);
  std::merge(c.output_listed.begin(), c.output_listed.end(), c.indices_listed.begin(), c.indices_listed.end(),
             std::back_inserter(c.stops), row_major_less);
  c.stops.erase(std::unique(c.stops.begin(), c.stops.end()), c.stops.end());
  if (c.differing() > 0) {
    c.diagnosis = diagnose(op, input, {output, indices}, {theirs->output, theirs->indices},
                           {.nan_matches_any_nan = !other.npy});
  }
  c.their_output = std::move(theirs->output);
  if (c.indices_compared) c.their_indices = std::move(theirs->indices);
  return c;
}

std::optional<Scalar> their_value(const ResultComparison& comparison, const Operation& op, bool indices,
                                  const Coord& coord) {
  const TensorDesc* desc = indices ? (op.output_indices() ? &*op.output_indices() : nullptr) : &op.output();
  const std::vector<std::byte>& buffer = indices ? comparison.their_indices : comparison.their_output;
  if (!desc || buffer.size() < desc->buffer_elements() * desc->element_size()) return std::nullopt;
  return read_element(desc->data_type(), buffer.data() + desc->offset_of(coord) * desc->element_size());
}

std::optional<Coord> next_stop(const std::vector<Coord>& stops, const std::optional<Coord>& current, bool forward) {
  if (stops.empty()) return std::nullopt;
  if (!current) return forward ? stops.front() : stops.back();
  if (forward) {
    const auto after = std::upper_bound(stops.begin(), stops.end(), *current, row_major_less);
    return after == stops.end() ? stops.front() : *after;
  }
  const auto at_or_after = std::lower_bound(stops.begin(), stops.end(), *current, row_major_less);
  return at_or_after == stops.begin() ? stops.back() : *std::prev(at_or_after);
}

}  // namespace stridescope::ui
