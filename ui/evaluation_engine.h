// All backend work of the app runs on ONE worker thread (the way RenderDoc's
// replay manager does it). A request submitted while another is still queued
// replaces it, so dragging a spin box runs only the newest spec and the UI
// thread never waits for a backend.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include <QObject>

#include "ui/backend_set.h"
#include "ui/evaluation.h"

namespace stridescope::ui {

class EvaluationEngine : public QObject {
  Q_OBJECT

 public:
  explicit EvaluationEngine(BackendSet backends, QObject* parent = nullptr);
  ~EvaluationEngine() override;

  const std::vector<BackendInfo>& backends() const { return infos_; }

  // Queues `request`, replacing a queued one that has not started; returns its serial.
  quint64 submit(EvaluationRequest request);

  // Nothing queued, nothing running, and every result emitted.
  bool idle() const;
  quint64 last_submitted() const;
  // Requests replaced before they ran (for tests and the status bar).
  quint64 superseded() const;

 signals:
  // Emitted from the worker thread; receivers in the UI thread get it queued.
  void evaluated(const stridescope::ui::EvaluationOutcome& outcome);

 private:
  void run();

  BackendSet backends_;  // used only by the worker thread after construction
  std::vector<BackendInfo> infos_;

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::optional<std::pair<quint64, EvaluationRequest>> pending_;
  bool running_ = false;
  bool stop_ = false;
  quint64 serial_ = 0;
  quint64 superseded_ = 0;
  std::thread worker_;
};

}  // namespace stridescope::ui
