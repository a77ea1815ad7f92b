// Test doubles for the app's backend seam (core/backend.h), and small helpers
// shared by the ui test suites.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>

#include <QStringList>

#include "core/cpu_backend.h"
#include "core/io/spec_file.h"
#include "ui/backend_set.h"
#include "ui/grid_model.h"

namespace stridescope::ui::testing {

// The CPU reference, except that it flips the low bit of the first byte of the
// output buffer: a backend that disagrees with the CPU in exactly one element.
class FaultyBackend final : public Backend {
 public:
  std::string_view name() const override { return "faulty"; }
  std::string device_name() const override { return "test double"; }
  Expected<RunStats> run(const Operation& op, std::span<const std::byte> input, std::span<std::byte> output,
                         std::span<std::byte> indices) override {
    Expected<RunStats> stats = cpu_.run(op, input, output, indices);
    if (stats && !output.empty()) output[0] ^= std::byte{1};
    if (stats) {
      stats->gpu_milliseconds = 0.25;
      stats->passes = {{"transfer: copy 1 runs", 0.125}, {"gather box 0 workgroups [0, 1)", 0.125}};
    }
    return stats;
  }

 private:
  CpuReferenceBackend cpu_;
};

// The CPU reference, slowed down, counting its runs.
class SlowBackend final : public Backend {
 public:
  explicit SlowBackend(std::shared_ptr<std::atomic<int>> runs, std::chrono::milliseconds delay)
      : runs_(std::move(runs)), delay_(delay) {}
  std::string_view name() const override { return "cpu"; }
  std::string device_name() const override { return "slow CPU"; }
  Expected<RunStats> run(const Operation& op, std::span<const std::byte> input, std::span<std::byte> output,
                         std::span<std::byte> indices) override {
    ++*runs_;
    std::this_thread::sleep_for(delay_);
    return cpu_.run(op, input, output, indices);
  }

 private:
  CpuReferenceBackend cpu_;
  std::shared_ptr<std::atomic<int>> runs_;
  std::chrono::milliseconds delay_;
};

inline BackendSet cpu_only() {
  BackendSet set;
  set.add(std::make_unique<CpuReferenceBackend>(), "cpu");
  return set;
}

inline BackendSet cpu_and_faulty() {
  BackendSet set = cpu_only();
  set.add(std::make_unique<FaultyBackend>());
  return set;
}

// The grid's DisplayRole texts, row by row.
inline QStringList grid_texts(const GridModel& model) {
  QStringList texts;
  for (int r = 0; r < model.rowCount(); ++r) {
    for (int c = 0; c < model.columnCount(); ++c) texts << model.index(r, c).data(Qt::DisplayRole).toString();
  }
  return texts;
}

inline quint32 flags_at(const GridModel& model, int row, int column) {
  return model.index(row, column).data(GridModel::OverlayRole).value<quint32>();
}

inline QStringList numbers(std::initializer_list<int> values) {
  QStringList texts;
  for (int v : values) texts << QString::number(v);
  return texts;
}

inline Spec load_example(const char* file) {
  Expected<Spec> spec = load_spec_file(std::filesystem::path(STRIDESCOPE_TEST_EXAMPLES_DIR) / file);
  if (!spec) throw std::runtime_error(spec.error().to_string());
  return std::move(spec.value());
}

}  // namespace stridescope::ui::testing
