#include "core/fast/cpu_fast_backend.h"

#include <algorithm>
#include <mutex>
#include <thread>
#include <vector>

#include "core/cpu_backend.h"
#include "core/fast/fast_plan.h"
#include "core/fast/kernels.h"
#include "core/fast/thread_pool.h"
#include "core/fast/transpose_plan.h"

namespace stridescope {

struct CpuFastPlan::Impl {
  explicit Impl(Operation operation) : op(std::move(operation)) {}

  Operation op;
  const fast::KernelTable* kernels = nullptr;
  bool pooling = false;
  bool transposing = false;   // a layout change, by the transpose kernels
  bool by_reference = false;  // tables would not be bounded (fast::pool_tables_bounded)
  fast::GatherRows gather;
  fast::TransposeProgram transpose;
  fast::PoolProgram pool;
  uint64_t traffic = 0;
  uint64_t work_items = 0;  // gather items or pooling units
  bool parallel = false;
  uint64_t chunks = 1;      // how the work items are shared when parallel
  // One 64-byte-aligned scratch area per participant (pooling only).
  std::vector<std::byte> scratch_storage;
  std::vector<std::byte*> scratch;
};

CpuFastPlan::CpuFastPlan(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
CpuFastPlan::CpuFastPlan(CpuFastPlan&&) noexcept = default;
CpuFastPlan& CpuFastPlan::operator=(CpuFastPlan&&) noexcept = default;
CpuFastPlan::~CpuFastPlan() = default;

const Operation& CpuFastPlan::operation() const { return impl_->op; }
bool CpuFastPlan::parallel() const { return impl_->parallel; }
uint64_t CpuFastPlan::traffic_bytes() const { return impl_->traffic; }

namespace {

std::string transpose_summary(const fast::TransposeProgram& program) {
  const fast::TransposeKernel& k = program.kernel;
  auto num = [](uint64_t v) { return std::to_string(v); };
  const uint64_t planes = program.items / (k.bands * k.pieces);
  std::string s = k.channels != 0 ? "deinterleave: " + num(k.channels) + " channels of " + num(k.cols)
                                  : "transpose: " + num(k.rows) + " x " + num(k.cols) + " tiles";
  s += ", " + num(planes) + (planes == 1 ? " plane" : " planes");
  if (k.channels == 0) s += " in bands of " + num(k.band_rows) + " rows";
  if (k.block == fast::TransposeBlock::Tall) s += " (tall blocks)";
  if (k.block == fast::TransposeBlock::Wide) s += " (wide blocks)";
  if (k.pieces > 1) s += " in " + num(k.pieces) + " pieces";
  return s;
}

}  // namespace

std::string CpuFastPlan::summary() const {
  const Impl& p = *impl_;
  std::string s;
  auto num = [](uint64_t v) { return std::to_string(v); };
  if (p.by_reference) return "max_pooling2: by the reference backend (the input has too many rows to table)";
  if (p.pooling) {
    const fast::PoolKernel& k = p.pool.kernel;
    s = "max_pooling2: " + num(k.planes) + " planes x " + num(k.band_count) + " bands, ";
    const fast::PoolShape& shape = p.pool.shape;
    if (k.vectors != fast::PoolVectors::None) {
      s += std::string(k.vectors == fast::PoolVectors::Narrow ? "narrow" : "wide") + " vectors of " +
           num(shape.lanes) + " over columns [" + num(k.x_lo) + ", " + num(k.x_hi) + ") step " +
           num(static_cast<uint64_t>(k.column_step)) + (k.direct ? " from the input" : " from split rows");
    } else {
      s += "tap by tap";
    }
  } else if (p.transposing) {
    s = transpose_summary(p.transpose);
  } else {
    const fast::GatherKernel& k = p.gather.kernel;
    uint64_t counts[3] = {};
    for (const fast::RowRun& run : p.gather.runs) ++counts[static_cast<int>(run.kind)];
    s = "gather: " + num(p.gather.items / k.row_pieces) + " rows of " + num(k.row_length);
    if (k.row_pieces > 1) s += " in " + num(k.row_pieces) + " pieces";
    s += " (" + num(p.gather.runs.size()) + " runs: " + num(counts[0]) + " strided, " + num(counts[1]) +
         " fills, " + num(counts[2]) + " tables)";
    if (k.stream_min_bytes != 0) s += ", streaming";
  }
  s += p.parallel ? ", " + num(p.chunks) + " chunks over threads" : ", calling thread";
  return s;
}

namespace {

struct RunContext {
  CpuFastPlan::Impl* plan;
  const std::byte* input;
  std::byte* output;
  std::byte* indices;
};

void run_range(const RunContext& c, uint64_t begin, uint64_t end, unsigned participant) {
  const CpuFastPlan::Impl& p = *c.plan;
  if (p.transposing) {
    p.kernels->transpose_items(p.transpose.kernel, c.input, c.output, begin, end);
  } else if (p.pooling) {
    p.kernels->pool_units(p.pool.kernel, c.input, c.output, c.indices, p.scratch[participant], begin, end);
  } else {
    p.kernels->gather_rows(p.gather.kernel, c.input, c.output, begin, end);
  }
}

void run_chunk(void* context, uint64_t chunk, unsigned participant) {
  const RunContext& c = *static_cast<const RunContext*>(context);
  const uint64_t items = c.plan->work_items;
  const uint64_t chunks = c.plan->chunks;
  run_range(c, chunk * items / chunks, (chunk + 1) * items / chunks, participant);
}

// Chunks per thread: enough that a thread slow to wake leaves little behind.
constexpr uint64_t kChunksPerThread = 8;

}  // namespace

struct CpuFastBackend::Cache {
  std::mutex mutex;
  std::optional<CpuFastPlan> plan;
};

CpuFastBackend::CpuFastBackend(CpuFastOptions options)
    : options_(options), cache_(std::make_unique<Cache>()) {
  threads_ = options_.threads != 0 ? options_.threads : std::max(1u, std::thread::hardware_concurrency());
  level_ = options_.simd && fast::simd_level_supported(*options_.simd) ? *options_.simd : fast::best_simd_level();
  if (threads_ > 1) pool_ = std::make_unique<fast::ThreadPool>(threads_ - 1);
}

CpuFastBackend::~CpuFastBackend() = default;

std::string CpuFastBackend::device_name() const {
  return "CPU (" + std::to_string(threads_) + (threads_ == 1 ? " thread, " : " threads, ") +
         std::string(fast::to_string(level_)) + ")";
}

CpuFastPlan CpuFastBackend::prepare(const Operation& op) const {
  auto impl = std::make_unique<CpuFastPlan::Impl>(op);
  CpuFastPlan::Impl& p = *impl;
  p.kernels = &fast::kernels_for(level_);
  p.pooling = op.kind() == OpKind::MaxPooling2;
  p.traffic = fast::traffic_bytes(op);
  const bool large = threads_ > 1 && p.traffic >= options_.parallel_min_bytes;
  if (p.pooling && !fast::pool_tables_bounded(op)) {
    p.by_reference = true;
    return CpuFastPlan(std::move(impl));
  }
  if (p.pooling) {
    fast::make_pool_program(op, *p.kernels, p.pool);
    p.work_items = p.pool.units;
  } else {
    fast::GatherOptions gather_options;
    gather_options.stream_min_output_bytes = options_.stream_min_output_bytes;
    gather_options.min_items = large ? threads_ * kChunksPerThread : 1;
    p.transposing = fast::make_transpose(op, gather_options, p.transpose);
    if (p.transposing) {
      p.work_items = p.transpose.items;
    } else {
      fast::make_gather_rows(op, gather_options, p.gather);
      p.work_items = p.gather.items;
    }
  }
  p.parallel = large && p.work_items >= 2;
  p.chunks = p.parallel ? std::min<uint64_t>(p.work_items, threads_ * kChunksPerThread) : 1;

  const unsigned participants = p.parallel ? threads_ : 1;
  if (p.pooling) {
    const std::size_t each = (p.pool.scratch_bytes + 63) / 64 * 64;
    p.scratch_storage.resize(each * participants + 64);
    std::byte* base = p.scratch_storage.data();
    base += (64 - reinterpret_cast<uintptr_t>(base) % 64) % 64;
    for (unsigned i = 0; i < participants; ++i) p.scratch.push_back(base + i * each);
  }
  return CpuFastPlan(std::move(impl));
}

Status CpuFastBackend::run(CpuFastPlan& plan, std::span<const std::byte> input, std::span<std::byte> output,
                           std::span<std::byte> indices) {
  CpuFastPlan::Impl& p = *plan.impl_;
  SS_RETURN_IF_ERROR(check_buffer_sizes(p.op, input, output, indices));
  if (p.by_reference) {
    auto ran = CpuReferenceBackend().run(p.op, input, output, indices);
    return ran ? Status{} : Status(ran.error());
  }
  RunContext context{&p, input.data(), output.data(), indices.data()};
  if (p.parallel && pool_ && p.scratch.size() >= (p.pooling ? threads_ : 0)) {
    pool_->run(p.chunks, &run_chunk, &context);
  } else {
    run_range(context, 0, p.work_items, 0);
  }
  return {};
}

Expected<RunStats> CpuFastBackend::run(const Operation& op, std::span<const std::byte> input,
                                       std::span<std::byte> output, std::span<std::byte> indices) {
  std::unique_lock lock(cache_->mutex, std::try_to_lock);
  Status status;
  if (lock.owns_lock()) {
    if (!cache_->plan || !(cache_->plan->operation() == op)) cache_->plan.emplace(prepare(op));
    status = run(*cache_->plan, input, output, indices);
  } else {  // another thread is running the cached plan
    CpuFastPlan plan = prepare(op);
    status = run(plan, input, output, indices);
  }
  SS_RETURN_IF_ERROR(status);
  return RunStats{};
}

}  // namespace stridescope
