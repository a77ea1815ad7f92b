// One evaluation of the spec being edited: validate, build the input buffer,
// run on the chosen backend, and gather what the views need (value range,
// buffer use, per-axis provenance, optionally every backend's disagreement).
// An Evaluation is immutable once made; it travels from the worker thread to
// the views as a shared pointer to const.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <utility>
#include <string>
#include <vector>

#include <QMetaType>
#include <QString>

#include "core/backend.h"
#include "core/compare.h"
#include "core/io/spec_file.h"
#include "core/operation.h"
#include "core/reader_index.h"
#include "ui/backend_set.h"
#include "ui/result_comparison.h"

namespace stridescope::ui {

struct EvaluationRequest {
  Spec spec;
  std::string backend = "cpu";
  bool compare = false;  // also run every other available backend and compare
  std::shared_ptr<const OtherResult> other_result;  // File > Compare with Result: compare with it too
};

// Finite values over the elements the tensors address.
struct ValueRange {
  double min = 0;
  double max = 0;
  bool valid = false;
  // Maps `value` into [0, 1] (0.5 when the range is a single value).
  double normalise(double value) const;
  // (min, max), or nullopt when no value is known.
  std::optional<std::pair<double, double>> bounds() const {
    return valid ? std::make_optional(std::make_pair(min, max)) : std::nullopt;
  }
};

// How often each buffer element is addressed by a logical coordinate:
// 0 = gap, 1 = used once, > 1 = shared (broadcast or overlap). Saturates at 255.
struct BufferUsage {
  std::vector<uint8_t> counts;  // one per buffer element; empty when too large to tabulate
  // The row-major flat index of the first coordinate stored at each buffer
  // element (kNoUser for gaps), so the memory strip can say what an element
  // is for; only for buffers small enough to show text (empty otherwise).
  std::vector<uint32_t> first_user;
  static constexpr uint32_t kNoUser = UINT32_MAX;

  bool known() const { return !counts.empty(); }
  std::optional<uint64_t> first_user_of(uint64_t offset) const {
    if (offset >= first_user.size() || first_user[offset] == kNoUser) return std::nullopt;
    return first_user[offset];
  }
};

struct ElementDiff {
  bool indices = false;  // in the indices tensor rather than the output
  Coord coord;
  uint64_t offset = 0;
  Scalar reference;
  Scalar other;
};

struct BackendComparison {
  std::string backend;
  QString label;
  std::optional<Error> error;            // the backend failed to run
  std::optional<Mismatch> output;        // compare_tensors over the output
  std::optional<Mismatch> indices;       // and the indices
  std::vector<ElementDiff> diffs;        // the differing elements, at most kMaxListedDiffs
  RunStats stats;
  double wall_milliseconds = 0;
};

inline constexpr std::size_t kMaxListedDiffs = 10000;

struct CompareReport {
  std::string reference;  // the backend the others are compared with
  std::vector<BackendComparison> others;
  bool all_equal() const;
};

class Evaluation {
 public:
  Evaluation(Spec spec, Operation op) : spec_(std::move(spec)), op_(std::move(op)) {}

  const Spec& spec() const { return spec_; }
  const Operation& op() const { return op_; }

  std::vector<std::byte> input;
  std::vector<std::byte> output;
  std::vector<std::byte> indices;  // empty without an indices tensor
  std::string backend;
  QString backend_label;
  RunStats stats;
  double wall_milliseconds = 0;
  ValueRange range;  // over input and output together, so equal values share a colour
  BufferUsage input_usage;
  BufferUsage output_usage;
  // Built once here, off the UI thread: the views and hover only read it.
  ReaderIndex provenance;
  std::optional<CompareReport> compare;
  std::optional<ResultComparison> result_comparison;  // with the request's other_result

 private:
  Spec spec_;
  Operation op_;
};

using EvaluationPtr = std::shared_ptr<const Evaluation>;

struct EvaluationOutcome {
  quint64 serial = 0;
  EvaluationPtr evaluation;     // null when `error` is set
  std::optional<Error> error;   // the spec is invalid or the backend failed
};

// Runs the whole pipeline on the calling thread.
EvaluationOutcome evaluate(const EvaluationRequest& request, const BackendSet& backends);

// The output (or, with `indices`, the indices) elements that another backend
// (Run > Compare) or a compared result file (File > Compare with Result)
// gives differently: what the grids and memory strips flag.
std::vector<Coord> differing_coords(const Evaluation& evaluation, bool indices);
// Whether any element is marked so: a comparison where everything agrees (or
// a result file that does not fit the spec) marks nothing.
bool any_differing(const Evaluation& evaluation);

// Reads the logical element at `coord` of a tensor whose buffer is `bytes`.
Scalar element_at(const TensorDesc& desc, const std::vector<std::byte>& bytes, const Coord& coord);
Scalar element_at_offset(const TensorDesc& desc, const std::vector<std::byte>& bytes, uint64_t offset);

}  // namespace stridescope::ui

Q_DECLARE_METATYPE(stridescope::ui::EvaluationOutcome)
