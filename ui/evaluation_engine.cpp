#include "ui/evaluation_engine.h"

namespace stridescope::ui {

EvaluationEngine::EvaluationEngine(BackendSet backends, QObject* parent)
    : QObject(parent), backends_(std::move(backends)), infos_(backends_.infos()) {
  qRegisterMetaType<EvaluationOutcome>("stridescope::ui::EvaluationOutcome");
  worker_ = std::thread([this] { run(); });
}

EvaluationEngine::~EvaluationEngine() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
    pending_.reset();
  }
  wake_.notify_all();
  worker_.join();
}

quint64 EvaluationEngine::submit(EvaluationRequest request) {
  quint64 serial = 0;
  {
    std::lock_guard lock(mutex_);
    serial = ++serial_;
    if (pending_) ++superseded_;
    pending_.emplace(serial, std::move(request));
  }
  wake_.notify_one();
  return serial;
}

bool EvaluationEngine::idle() const {
  std::lock_guard lock(mutex_);
  return !pending_ && !running_;
}

quint64 EvaluationEngine::last_submitted() const {
  std::lock_guard lock(mutex_);
  return serial_;
}

quint64 EvaluationEngine::superseded() const {
  std::lock_guard lock(mutex_);
  return superseded_;
}

void EvaluationEngine::run() {
  for (;;) {
    std::pair<quint64, EvaluationRequest> job;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [this] { return stop_ || pending_.has_value(); });
      if (stop_) return;
      job = std::move(*pending_);
      pending_.reset();
      running_ = true;
    }
    EvaluationOutcome outcome = evaluate(job.second, backends_);
    outcome.serial = job.first;
    emit evaluated(outcome);
    {
      std::lock_guard lock(mutex_);
      running_ = false;
    }
  }
}

}  // namespace stridescope::ui
