#include "gpu/work_split.h"

#include "core/checked_math.h"

#include <algorithm>
#include <string>

namespace stridescope::gpu {

namespace {

constexpr uint64_t align_down(uint64_t value, uint64_t alignment) { return value / alignment * alignment; }
constexpr uint64_t align_up(uint64_t value, uint64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

class Splitter {
 public:
  Splitter(const WorkModel& model, const DeviceLimits& limits)
      : model_(model), limits_(limits), max_range_(align_down(limits.max_storage_range, 4)),
        // Window starts: aligned for the descriptor, and on an element and a word.
        alignment_(std::max<uint64_t>({limits.storage_offset_alignment, 8, 1})) {}

  Status split(WorkBox box, std::size_t first_axis) {
    if (auto fitted = fit(box)) {
      boxes_.push_back(*fitted);
      return check_count();
    }
    std::size_t axis = first_axis;
    while (axis < box.extent.size() && box.extent[axis] == 1) ++axis;
    if (axis == box.extent.size()) {
      return Error{ErrorCode::BackendFailure, "",
                   "one output element reads input spread over more than the device's maxStorageBufferRange (" +
                       std::to_string(limits_.max_storage_range) + " bytes)"};
    }
    const uint64_t end = box.lo[axis] + box.extent[axis];
    for (uint64_t pos = box.lo[axis]; pos < end;) {
      WorkBox part = box;
      part.lo[axis] = pos;
      part.extent[axis] = 1;
      if (!fit(part)) {
        // One index of this axis is too much: cut the axes inside it.
        SS_RETURN_IF_ERROR(split(part, axis + 1));
        ++pos;
        continue;
      }
      // The longest run of indices from `pos` that fits (fit is monotone).
      uint64_t good = 1;
      uint64_t bad = end - pos + 1;
      while (bad - good > 1) {
        const uint64_t mid = good + (bad - good) / 2;
        part.extent[axis] = mid;
        if (fit(part)) good = mid; else bad = mid;
      }
      part.extent[axis] = good;
      boxes_.push_back(*fit(part));
      SS_RETURN_IF_ERROR(check_count());
      pos += good;
    }
    return {};
  }

  std::vector<WorkBox> take() { return std::move(boxes_); }

 private:
  Status check_count() const {
    if (boxes_.size() <= limits_.max_boxes) return {};
    return Error{ErrorCode::BackendFailure, "",
                 "the tensors' strides scatter the work over more than " + std::to_string(limits_.max_boxes) +
                     " binding windows of maxStorageBufferRange (" + std::to_string(limits_.max_storage_range) +
                     " bytes) on this device"};
  }

  // The window over elements [span->first, span->second], or the whole tensor
  // when it fits one binding; nullopt when too wide.
  std::optional<Window> window(const TensorAccess& tensor, const std::optional<ElementRange>& span) const {
    Window w;
    if (tensor.element_size == 0) return w;
    if (tensor.bytes <= max_range_) {
      w.range = tensor.bytes;
      return w;
    }
    if (!span) {
      w.range = max_range_;  // nothing is read or written: any valid binding
      return w;
    }
    const uint64_t es = tensor.element_size;
    w.offset = align_down(static_cast<uint64_t>(span->first) * es, alignment_);
    const uint64_t end = std::min(tensor.bytes, align_up((static_cast<uint64_t>(span->second) + 1) * es, 4));
    w.range = end - w.offset;
    if (w.range > max_range_) return std::nullopt;
    w.base_element = w.offset / es;
    return w;
  }

  std::optional<ElementRange> output_span(const TensorAccess& tensor, const WorkBox& box) const {
    int64_t low = 0;
    int64_t high = 0;
    for (std::size_t a = 0; a < box.lo.size(); ++a) {
      low += static_cast<int64_t>(box.lo[a] * tensor.strides[a]);
      high += static_cast<int64_t>((box.lo[a] + box.extent[a] - 1) * tensor.strides[a]);
    }
    return ElementRange{low, high};
  }

  std::optional<ElementRange> input_span(const WorkBox& box) const {
    int64_t low = model_.input_base;
    int64_t high = model_.input_base;
    for (std::size_t a = 0; a < box.lo.size(); ++a) {
      const auto range = model_.input_range(a, box.lo[a], box.lo[a] + box.extent[a]);
      if (!range) return std::nullopt;  // every row of the box is padding along this axis
      low += range->first;
      high += range->second;
    }
    return ElementRange{low, high};
  }

  // Rows per invocation: the elements an invocation writes in one row (the
  // box's row less the columns it skips) as many times as fit one chunk.
  uint64_t rows_per_item(const WorkBox& box, uint64_t rows) const {
    if (box.chunks_per_row != 1 || !model_.several_rows_per_item) return 1;
    const std::size_t row_axis = box.extent.size() - 1;
    const uint64_t lo = box.lo[row_axis];
    const uint64_t hi = lo + box.extent[row_axis];
    uint64_t written = hi - lo;
    if (box.skip) {
      const uint64_t skip_lo = std::max(lo, box.skip->first);
      const uint64_t skip_hi = std::min(hi, box.skip->second);
      if (skip_hi > skip_lo) written -= skip_hi - skip_lo;
    }
    const uint64_t fit = model_.chunk / std::max<uint64_t>(written, 1);
    const uint64_t spread = rows / std::max<uint64_t>(limits_.min_items_per_box, 1);
    return std::clamp<uint64_t>(fit, 1, std::max<uint64_t>(std::min({rows, limits_.max_rows_per_item, spread}), 1));
  }

  std::optional<WorkBox> fit(WorkBox box) const {
    const std::size_t row_axis = box.extent.size() - 1;
    const uint64_t rows = box.rows();
    box.chunks_per_row = (box.extent[row_axis] + model_.chunk - 1) / model_.chunk;
    box.rows_per_item = rows_per_item(box, rows);
    const auto items = checked_mul((rows + box.rows_per_item - 1) / box.rows_per_item, box.chunks_per_row);
    if (!items || *items > limits_.max_items) return std::nullopt;
    box.items = *items;
    auto input = window(model_.input, input_span(box));
    if (!input) return std::nullopt;
    auto output = window(model_.output, output_span(model_.output, box));
    if (!output) return std::nullopt;
    std::optional<Window> indices = Window{};
    if (model_.indices.element_size != 0) indices = window(model_.indices, output_span(model_.indices, box));
    if (!indices) return std::nullopt;
    box.input = *input;
    box.output = *output;
    box.indices = *indices;
    return box;
  }

  const WorkModel& model_;
  const DeviceLimits& limits_;
  uint64_t max_range_;
  uint64_t alignment_;
  std::vector<WorkBox> boxes_;
};

}  // namespace

WorkModel gather_work(const GatherDispatch& program, const Operation& op, uint64_t chunk) {
  WorkModel model;
  model.regions = program.shader_regions;
  for (const GatherAxis& axis : program.axes) {
    model.sizes.push_back(axis.size);
    model.output.strides.push_back(axis.out_stride);
  }
  model.chunk = chunk;
  model.input_base = program.input_base;
  model.input_range = [&program](std::size_t axis, uint64_t lo, uint64_t hi) {
    return program.axes[axis].input_range(lo, hi);
  };
  const auto element_size = static_cast<uint32_t>(program.element_size);
  model.input = TensorAccess{op.input().buffer_bytes(), element_size, {}};
  model.output.bytes = op.output().buffer_bytes();
  model.output.element_size = element_size;
  return model;
}

Expected<std::vector<WorkBox>> split_work(const WorkModel& model, const DeviceLimits& limits) {
  Splitter splitter(model, limits);
  std::vector<Region> regions = model.regions;
  if (regions.empty()) regions.push_back(Region{std::vector<uint64_t>(model.sizes.size(), 0), model.sizes, std::nullopt});
  for (const Region& region : regions) {
    WorkBox box;
    static_cast<Region&>(box) = region;
    SS_RETURN_IF_ERROR(splitter.split(box, 0));
  }
  return splitter.take();
}

DivisionMagic division_magic(uint32_t divisor) {
  uint32_t log = 0;  // ceil(log2(divisor))
  while ((uint64_t{1} << log) < divisor) ++log;
  DivisionMagic m;
  // 2^32 * (2^log - divisor) < 2^64 because 2^log - divisor < divisor < 2^32.
  const uint64_t numerator = (uint64_t{1} << 32) * ((uint64_t{1} << log) - divisor);
  m.magic = static_cast<uint32_t>(numerator / divisor + 1);
  m.shift1 = std::min<uint32_t>(log, 1);
  m.shift2 = log == 0 ? 0 : log - 1;
  return m;
}

uint64_t dispatch_count(uint64_t items, uint64_t local_size, uint64_t max_groups) {
  const uint64_t groups = (items + local_size - 1) / local_size;
  return (groups + max_groups - 1) / max_groups;
}

}  // namespace stridescope::gpu
