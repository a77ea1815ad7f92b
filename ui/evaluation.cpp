#include "ui/evaluation.h"

#include <chrono>
#include <cmath>

#include "core/scalar.h"

namespace stridescope::ui {
namespace {

// Tabulating use counts walks every logical element; above this the memory
// view shows values without counts.
constexpr uint64_t kMaxUsageElements = uint64_t{1} << 26;
// Which coordinate each buffer element holds costs 4 bytes per element.
constexpr uint64_t kMaxFirstUserElements = uint64_t{1} << 22;

BufferUsage usage_of(const TensorDesc& desc) {
  BufferUsage usage;
  if (desc.element_count() > kMaxUsageElements || desc.buffer_elements() > kMaxUsageElements) return usage;
  usage.counts.assign(desc.buffer_elements(), 0);
  if (desc.buffer_elements() <= kMaxFirstUserElements) usage.first_user.assign(desc.buffer_elements(), BufferUsage::kNoUser);
  Coord coord(desc.rank(), 0);
  uint32_t flat = 0;  // element_count() <= kMaxUsageElements < 2^32
  do {
    const uint64_t offset = desc.offset_of(coord);
    uint8_t& count = usage.counts[offset];
    if (count < 255) ++count;
    if (!usage.first_user.empty() && usage.first_user[offset] == BufferUsage::kNoUser) usage.first_user[offset] = flat;
    ++flat;
  } while (next_coord(coord, desc.sizes()));
  return usage;
}

void widen(ValueRange& range, const TensorDesc& desc, const std::vector<std::byte>& bytes,
           const BufferUsage& usage) {
  const uint64_t n = desc.buffer_elements();
  for (uint64_t offset = 0; offset < n; ++offset) {
    if (usage.known() && usage.counts[offset] == 0) continue;
    const double v = to_double(element_at_offset(desc, bytes, offset));
    if (!std::isfinite(v)) continue;
    if (!range.valid) {
      range = {v, v, true};
    } else {
      range.min = std::min(range.min, v);
      range.max = std::max(range.max, v);
    }
  }
}

double milliseconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// The mismatch's listed elements with both values, after those already in `diffs`.
void list_diffs(const TensorDesc& desc, const Mismatch& mismatch, const std::vector<std::byte>& a,
                const std::vector<std::byte>& b, bool indices, std::vector<ElementDiff>& diffs) {
  const std::size_t size = desc.element_size();
  for (const ElementMismatch& m : mismatch.listed) {
    diffs.push_back({indices, m.coord, m.offset, read_element(desc.data_type(), a.data() + m.offset * size),
                     read_element(desc.data_type(), b.data() + m.offset * size)});
  }
}

BackendComparison compare_with(Backend& other, const BackendInfo& info, const Operation& op,
                               const Evaluation& reference) {
  BackendComparison result;
  result.backend = info.name;
  result.label = info.label;
  const auto start = std::chrono::steady_clock::now();
  Expected<RunResult> run = run_to_new_buffers(other, op, reference.input);
  result.wall_milliseconds = milliseconds_since(start);
  if (!run) {
    result.error = run.error();
    return result;
  }
  result.stats = run->stats;
  result.output = compare_tensors(op.output(), reference.output, run->output, kMaxListedDiffs);
  if (result.output) list_diffs(op.output(), *result.output, reference.output, run->output, false, result.diffs);
  if (op.output_indices()) {
    const std::size_t room = kMaxListedDiffs - result.diffs.size();
    result.indices = compare_tensors(*op.output_indices(), reference.indices, run->indices, room);
    if (result.indices) {
      list_diffs(*op.output_indices(), *result.indices, reference.indices, run->indices, true, result.diffs);
    }
  }
  return result;
}

}  // namespace

double ValueRange::normalise(double value) const {
  if (!valid || !(max > min)) return 0.5;
  return (value - min) / (max - min);
}

bool CompareReport::all_equal() const {
  for (const auto& other : others) {
    if (other.error || other.output || other.indices) return false;
  }
  return true;
}

Scalar element_at_offset(const TensorDesc& desc, const std::vector<std::byte>& bytes, uint64_t offset) {
  return read_element(desc.data_type(), bytes.data() + offset * desc.element_size());
}

std::vector<Coord> differing_coords(const Evaluation& evaluation, bool indices) {
  std::vector<Coord> coords;
  if (evaluation.compare) {
    for (const auto& other : evaluation.compare->others) {
      for (const ElementDiff& diff : other.diffs) {
        if (diff.indices == indices) coords.push_back(diff.coord);
      }
    }
  }
  if (evaluation.result_comparison) {
    const ResultComparison& result = *evaluation.result_comparison;
    const std::vector<Coord>& listed = indices ? result.indices_listed : result.output_listed;
    coords.insert(coords.end(), listed.begin(), listed.end());
  }
  return coords;
}

bool any_differing(const Evaluation& evaluation) {
  if (evaluation.compare) {
    for (const auto& other : evaluation.compare->others) {
      if (other.output || other.indices) return true;
    }
  }
  return evaluation.result_comparison && evaluation.result_comparison->differing() > 0;
}

Scalar element_at(const TensorDesc& desc, const std::vector<std::byte>& bytes, const Coord& coord) {
  return element_at_offset(desc, bytes, desc.offset_of(coord));
}

EvaluationOutcome evaluate(const EvaluationRequest& request, const BackendSet& backends) {
  EvaluationOutcome outcome;
  Expected<Operation> op = Operation::make(request.spec.request);
  if (!op) {
    outcome.error = op.error();
    return outcome;
  }
  Expected<std::vector<std::byte>> input = make_input_buffer(request.spec, op->input());
  if (!input) {
    outcome.error = input.error();
    return outcome;
  }
  Backend* backend = backends.find(request.backend);
  if (!backend) {
    outcome.error = Error{ErrorCode::BackendUnavailable, "", "backend " + request.backend + " is not available"};
    return outcome;
  }

  auto evaluation = std::make_shared<Evaluation>(request.spec, std::move(op.value()));
  const Operation& operation = evaluation->op();
  evaluation->input = std::move(input.value());
  evaluation->backend = request.backend;
  evaluation->backend_label = backends.info_of(*backend).label;

  const auto start = std::chrono::steady_clock::now();
  Expected<RunResult> run = run_to_new_buffers(*backend, operation, evaluation->input);
  evaluation->wall_milliseconds = milliseconds_since(start);
  if (!run) {
    outcome.error = run.error();
    return outcome;
  }
  evaluation->output = std::move(run->output);
  evaluation->indices = std::move(run->indices);
  evaluation->stats = run->stats;

  evaluation->input_usage = usage_of(operation.input());
  evaluation->output_usage = usage_of(operation.output());
  widen(evaluation->range, operation.input(), evaluation->input, evaluation->input_usage);
  widen(evaluation->range, operation.output(), evaluation->output, evaluation->output_usage);
  evaluation->provenance = ReaderIndex::build(operation);
  if (request.other_result) {
    evaluation->result_comparison = compare_with_result(*request.other_result, operation, evaluation->input,
                                                        evaluation->output, evaluation->indices);
  }

  if (request.compare) {
    CompareReport report;
    report.reference = request.backend;
    for (Backend* other : backends.available()) {
      if (other == backend) continue;
      report.others.push_back(compare_with(*other, backends.info_of(*other), operation, *evaluation));
    }
    evaluation->compare = std::move(report);
  }
  outcome.evaluation = std::move(evaluation);
  return outcome;
}

}  // namespace stridescope::ui
