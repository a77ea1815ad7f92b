#include "ui/widgets/animation_bar.h"

#include <algorithm>

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QStyle>
#include <QToolButton>

#include "ui/animation_player.h"

namespace stridescope::ui {
namespace {

QToolButton* media_button(QStyle::StandardPixmap icon, const QString& tip, const QString& name, QWidget* parent) {
  auto* button = new QToolButton(parent);
  button->setIcon(QApplication::style()->standardIcon(icon));
  button->setToolTip(tip);
  button->setObjectName(name);
  button->setAutoRaise(true);
  // Clicks must not take the focus, or Space would press the button instead
  // of reaching the window's play/pause shortcut.
  button->setFocusPolicy(Qt::NoFocus);
  return button;
}

}  // namespace

AnimationBar::AnimationBar(AnimationPlayer* player, QWidget* parent) : QWidget(parent), player_(player) {
  setObjectName(QStringLiteral("animationBar"));
  create_widgets();
  connect_player();
  sync_frames();
  sync_playing();
}

void AnimationBar::create_widgets() {
  back_ = media_button(QStyle::SP_MediaSeekBackward, tr("Step back (Left)"), QStringLiteral("stepBack"), this);
  play_ = media_button(QStyle::SP_MediaPlay, tr("Play (Space)"), QStringLiteral("playPause"), this);
  forward_ = media_button(QStyle::SP_MediaSeekForward, tr("Step forward (Right)"), QStringLiteral("stepForward"), this);
  slider_ = new QSlider(Qt::Horizontal, this);
  slider_->setObjectName(QStringLiteral("animationSlider"));
  slider_->setToolTip(tr("Scrub through the output elements"));
  slider_->setFocusPolicy(Qt::NoFocus);  // Left/Right belong to the window's step shortcuts
  slider_->setMinimumWidth(120);
  position_ = new QLabel(this);
  position_->setObjectName(QStringLiteral("animationPosition"));
  position_->setToolTip(tr("The output element shown: its place in the order, and its coordinate"));
  speed_ = new QDoubleSpinBox(this);
  speed_->setObjectName(QStringLiteral("animationSpeed"));
  speed_->setRange(AnimationPlayer::kMinSpeed, AnimationPlayer::kMaxSpeed);
  speed_->setDecimals(2);
  speed_->setSingleStep(0.5);
  speed_->setSuffix(tr(" /s"));
  speed_->setToolTip(tr("Speed: output elements per second"));
  loop_ = new QCheckBox(tr("Loop"), this);
  loop_->setObjectName(QStringLiteral("animationLoop"));
  loop_->setToolTip(tr("Start again from the first element after the last"));
  order_ = new QComboBox(this);
  order_->setObjectName(QStringLiteral("animationOrder"));
  order_->addItem(tr("Logical order"), static_cast<int>(VisitOrder::Logical));
  order_->addItem(tr("Buffer order"), static_cast<int>(VisitOrder::Buffer));
  order_->setToolTip(tr("Logical: row-major over the output's sizes. Buffer: by buffer offset, as the "
                        "elements lie in memory"));

  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(4, 0, 4, 0);
  layout->setSpacing(4);
  layout->addWidget(new QLabel(tr("Animate"), this));
  for (QWidget* w : std::initializer_list<QWidget*>{back_, play_, forward_}) layout->addWidget(w);
  layout->addWidget(slider_, 1);
  layout->addWidget(position_);
  layout->addWidget(speed_);
  layout->addWidget(loop_);
  layout->addWidget(order_);
}

void AnimationBar::connect_player() {
  connect(back_, &QToolButton::clicked, player_, &AnimationPlayer::step_back);
  connect(play_, &QToolButton::clicked, player_, &AnimationPlayer::toggle_play);
  connect(forward_, &QToolButton::clicked, player_, &AnimationPlayer::step_forward);
  connect(slider_, &QSlider::valueChanged, player_, &AnimationPlayer::set_position);
  connect(speed_, &QDoubleSpinBox::valueChanged, player_, &AnimationPlayer::set_speed);
  connect(loop_, &QCheckBox::toggled, player_, &AnimationPlayer::set_loop);
  connect(order_, &QComboBox::activated, this,
          [this](int index) { player_->set_order(static_cast<VisitOrder>(order_->itemData(index).toInt())); });

  connect(player_, &AnimationPlayer::framesChanged, this, &AnimationBar::sync_frames);
  connect(player_, &AnimationPlayer::positionChanged, this, &AnimationBar::sync_position);
  connect(player_, &AnimationPlayer::playingChanged, this, &AnimationBar::sync_playing);
  connect(player_, &AnimationPlayer::speedChanged, this, [this](double speed) {
    const QSignalBlocker block(speed_);
    speed_->setValue(speed);
  });
  connect(player_, &AnimationPlayer::loopChanged, this, [this](bool loop) {
    const QSignalBlocker block(loop_);
    loop_->setChecked(loop);
  });
  connect(player_, &AnimationPlayer::orderChanged, this, [this](VisitOrder order) {
    order_->setCurrentIndex(order_->findData(static_cast<int>(order)));
  });
}

void AnimationBar::sync_frames() {
  {
    const QSignalBlocker block(slider_);
    slider_->setRange(0, std::max(0, player_->frame_count() - 1));
    // A few hundred steps per page, whatever the length.
    slider_->setPageStep(std::max(1, player_->frame_count() / 16));
  }
  {
    const QSignalBlocker block_speed(speed_);
    speed_->setValue(player_->speed());
    const QSignalBlocker block_loop(loop_);
    loop_->setChecked(player_->loop());
  }
  order_->setCurrentIndex(order_->findData(static_cast<int>(player_->order())));
  fit_position_label();
  const bool any = player_->frame_count() > 0;
  for (QWidget* w : std::initializer_list<QWidget*>{back_, play_, forward_, slider_}) w->setEnabled(any);
  sync_position();
}

// Wide enough for the longest text of these frames, so the slider does not
// jiggle as the position's digits change. A fixed size also keeps a step from
// laying out the window again (a label of fixed size changes text in place).
void AnimationBar::fit_position_label() {
  Coord widest;
  for (const Coord& coord : player_->frames()) {
    if (widest.size() != coord.size()) widest = coord;
    for (std::size_t d = 0; d < coord.size(); ++d) widest[d] = std::max(widest[d], coord[d]);
  }
  const QString text = tr("#%1 / %1  out%2").arg(player_->frame_count()).arg(QString::fromStdString(format_coord(widest)));
  position_->setFixedSize(position_->fontMetrics().horizontalAdvance(text) + 8, position_->sizeHint().height());
}

void AnimationBar::sync_position() {
  {
    const QSignalBlocker block(slider_);
    slider_->setValue(player_->position());
  }
  const std::optional<Coord> coord = player_->current();
  if (!coord) {
    position_->setText(tr("#0 / 0"));
    return;
  }
  QString text = tr("#%1 / %2  out%3")
                     .arg(player_->position() + 1)
                     .arg(player_->frame_count())
                     .arg(QString::fromStdString(format_coord(*coord)));
  position_->setText(text);
  position_->setToolTip(player_->every() > 1
                            ? tr("A large output: one element in every %1 of the order is shown").arg(player_->every())
                            : tr("The output element shown: its place in the order, and its coordinate"));
}

void AnimationBar::sync_playing() {
  const bool playing = player_->playing();
  play_->setIcon(QApplication::style()->standardIcon(playing ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
  play_->setToolTip(playing ? tr("Pause (Space)") : tr("Play (Space)"));
}

}  // namespace stridescope::ui
