// The animation bar: play/pause, step back, step forward, a scrub slider, the
// position ("#3 / 16") with the current coordinate, speed, loop and order.
// It only binds to an AnimationPlayer (ui/animation_player.h), where the
// playback lives; the keys (Space, Left, Right) are the window's actions.
#pragma once

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSlider;
class QToolButton;

namespace stridescope::ui {

class AnimationPlayer;

class AnimationBar : public QWidget {
  Q_OBJECT

 public:
  explicit AnimationBar(AnimationPlayer* player, QWidget* parent = nullptr);

  QToolButton* play_button() const { return play_; }
  QSlider* slider() const { return slider_; }
  QLabel* position_label() const { return position_; }
  QDoubleSpinBox* speed_box() const { return speed_; }
  QCheckBox* loop_box() const { return loop_; }
  QComboBox* order_combo() const { return order_; }

 private:
  void create_widgets();
  void connect_player();
  void sync_frames();
  void fit_position_label();
  void sync_position();
  void sync_playing();

  AnimationPlayer* player_;
  QToolButton* back_ = nullptr;
  QToolButton* play_ = nullptr;
  QToolButton* forward_ = nullptr;
  QSlider* slider_ = nullptr;
  QLabel* position_ = nullptr;
  QDoubleSpinBox* speed_ = nullptr;
  QCheckBox* loop_ = nullptr;
  QComboBox* order_ = nullptr;
};

}  // namespace stridescope::ui
