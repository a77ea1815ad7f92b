// Step-through playback over a tensor's elements, for the app's animation bar
// (and a projector: play, pause, step, scrub, speed, loop). The order comes
// from core/animation_order.h, so the app and `stridescope-cli render
// --animate` agree on it; this class only keeps a position in that list and
// a timer. No widgets: tests drive it directly through its step API.
//
// Every element is a frame, unless the tensor has more than kMaxPlayerFrames
// elements: then every k-th element of the order is (animation_frames), so the
// frame list stays bounded and still crosses the whole tensor.
#pragma once

#include <optional>
#include <vector>

#include <QObject>

#include "core/animation_order.h"
#include "core/tensor_desc.h"

class QTimer;

namespace stridescope::ui {

// A million elements at 60 per second is over four hours; past this, a frame
// list of every element would cost memory for nothing a person could watch.
inline constexpr uint64_t kMaxPlayerFrames = uint64_t{1} << 16;

class AnimationPlayer : public QObject {
  Q_OBJECT

 public:
  static constexpr double kMinSpeed = 0.25;  // elements per second
  static constexpr double kMaxSpeed = 60.0;
  static constexpr double kDefaultSpeed = 2.0;

  explicit AnimationPlayer(QObject* parent = nullptr);

  // The tensor to step through (the output). Keeps the current element when it
  // is still a frame (an edit that keeps the shape), else starts over.
  void set_tensor(const TensorDesc& desc);
  // No tensor (a new document, an invalid spec): no frames; playing stays
  // asked for, so playback starts once set_tensor brings frames.
  void clear();

  const std::vector<Coord>& frames() const { return frames_; }
  int frame_count() const { return static_cast<int>(frames_.size()); }
  // Every `every()`-th element of the order is a frame (1: every element).
  uint64_t every() const { return every_; }
  int position() const { return position_; }
  std::optional<Coord> current() const;

  bool playing() const { return playing_; }
  bool timer_active() const;
  double speed() const { return speed_; }
  int interval_ms() const;
  bool loop() const { return loop_; }
  VisitOrder order() const { return order_; }

  void play();
  void pause();
  void toggle_play();
  // At the last frame: wraps to the first when looping, else stays (and stops playing).
  void step_forward();
  // At the first frame: wraps to the last when looping, else stays.
  void step_back();
  // Scrubbing: clamped to the frames.
  void set_position(int position);
  // Moves to `coord` when it is a frame (a click on an output element); false otherwise.
  bool seek(const Coord& coord);
  void set_speed(double elements_per_second);  // clamped to [kMinSpeed, kMaxSpeed]
  void set_loop(bool loop);
  // Rebuilds the frames in `order`, keeping the current element where it is a frame.
  void set_order(VisitOrder order);

 signals:
  // The element shown changed (a step, a scrub, new frames).
  void currentChanged(const stridescope::Coord& coord);
  void positionChanged(int position);
  void framesChanged();
  void playingChanged(bool playing);
  void speedChanged(double elements_per_second);
  void loopChanged(bool loop);
  void orderChanged(stridescope::VisitOrder order);

 private:
  void rebuild();
  void move_to(int position);
  void update_timer();

  QTimer* timer_;
  std::optional<TensorDesc> desc_;
  std::vector<Coord> frames_;
  uint64_t every_ = 1;
  int position_ = 0;
  bool playing_ = false;
  double speed_ = kDefaultSpeed;
  bool loop_ = false;
  VisitOrder order_ = VisitOrder::Logical;
};

}  // namespace stridescope::ui
