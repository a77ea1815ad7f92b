#include "ui/animation_player.h"

#include <algorithm>
#include <cmath>

#include <QTimer>

namespace stridescope::ui {

AnimationPlayer::AnimationPlayer(QObject* parent) : QObject(parent), timer_(new QTimer(this)) {
  timer_->setInterval(interval_ms());
  connect(timer_, &QTimer::timeout, this, &AnimationPlayer::step_forward);
}

void AnimationPlayer::set_tensor(const TensorDesc& desc) {
  if (desc_ && *desc_ == desc) return;  // an edit of values or parameters: the same frames
  desc_ = desc;
  rebuild();
}

void AnimationPlayer::clear() {
  desc_.reset();
  frames_.clear();
  every_ = 1;
  position_ = 0;
  emit framesChanged();
  emit positionChanged(position_);
  update_timer();
}

std::optional<Coord> AnimationPlayer::current() const {
  if (frames_.empty()) return std::nullopt;
  return frames_[static_cast<std::size_t>(position_)];
}

bool AnimationPlayer::timer_active() const { return timer_->isActive(); }

int AnimationPlayer::interval_ms() const { return static_cast<int>(std::lround(1000.0 / speed_)); }

void AnimationPlayer::play() {
  // Play at the end of a finished run starts it again, as a media player does.
  if (!loop_ && !frames_.empty() && position_ == frame_count() - 1) move_to(0);
  if (!playing_) {
    playing_ = true;
    emit playingChanged(true);
  }
  update_timer();
}

void AnimationPlayer::pause() {
  if (playing_) {
    playing_ = false;
    emit playingChanged(false);
  }
  update_timer();
}

void AnimationPlayer::toggle_play() { playing_ ? pause() : play(); }

void AnimationPlayer::step_forward() {
  if (frames_.empty()) return;
  if (position_ + 1 < frame_count()) {
    move_to(position_ + 1);
  } else if (loop_) {
    move_to(0);
  } else {
    pause();  // the end of a run without loop
  }
}

void AnimationPlayer::step_back() {
  if (frames_.empty()) return;
  if (position_ > 0) {
    move_to(position_ - 1);
  } else if (loop_) {
    move_to(frame_count() - 1);
  }
}

void AnimationPlayer::set_position(int position) {
  if (frames_.empty()) return;
  move_to(std::clamp(position, 0, frame_count() - 1));
}

bool AnimationPlayer::seek(const Coord& coord) {
  const auto found = std::find(frames_.begin(), frames_.end(), coord);
  if (found == frames_.end()) return false;
  move_to(static_cast<int>(found - frames_.begin()));
  return true;
}

void AnimationPlayer::set_speed(double elements_per_second) {
  const double speed = std::clamp(elements_per_second, kMinSpeed, kMaxSpeed);
  if (speed == speed_) return;
  speed_ = speed;
  timer_->setInterval(interval_ms());
  emit speedChanged(speed_);
}

void AnimationPlayer::set_loop(bool loop) {
  if (loop == loop_) return;
  loop_ = loop;
  emit loopChanged(loop_);
}

void AnimationPlayer::set_order(VisitOrder order) {
  if (order == order_) return;
  order_ = order;
  emit orderChanged(order_);
  rebuild();
}

void AnimationPlayer::rebuild() {
  const std::optional<Coord> was = current();
  frames_ = desc_ ? animation_frames(*desc_, order_, kMaxPlayerFrames) : std::vector<Coord>{};
  every_ = desc_ ? animation_steps(desc_->element_count(), kMaxPlayerFrames).every : 1;
  int next = 0;
  if (was) {
    const auto found = std::find(frames_.begin(), frames_.end(), *was);
    if (found != frames_.end()) next = static_cast<int>(found - frames_.begin());
  }
  position_ = next;
  emit framesChanged();
  emit positionChanged(position_);
  if (const std::optional<Coord> now = current(); now && now != was) emit currentChanged(*now);
  update_timer();
}

void AnimationPlayer::move_to(int position) {
  if (position == position_) return;
  position_ = position;
  emit positionChanged(position_);
  emit currentChanged(frames_[static_cast<std::size_t>(position_)]);
}

// The timer runs only while playing with something to show; a play asked for
// before the frames arrive (`stridescope SPEC --play`) starts with them.
void AnimationPlayer::update_timer() {
  const bool run = playing_ && !frames_.empty();
  if (run && !timer_->isActive()) timer_->start();
  if (!run) timer_->stop();
}

}  // namespace stridescope::ui
