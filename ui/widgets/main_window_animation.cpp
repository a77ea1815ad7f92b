// MainWindow's step-through animation: the player (ui/animation_player.h)
// selects each output element in turn through the linked selection, so every
// overlay the app draws for a selected element follows it, and the linked
// selection brings the output and input planes to where the element and its
// source lie. Space plays and pauses, Left and Right step.
#include "ui/widgets/main_window.h"

#include <QAction>
#include <QMenu>
#include <QToolBar>

#include "ui/animation_player.h"
#include "ui/linked_selection.h"
#include "ui/widgets/animation_bar.h"

namespace stridescope::ui {

// Window-level shortcuts: a text field or spin box with focus takes Space
// and the arrows first (Qt offers them to the focus widget as a shortcut
// override), so typing a value never steps the animation.
void MainWindow::create_animation_actions() {
  play_action_ = new QAction(tr("&Play / Pause"), this);
  play_action_->setObjectName(QStringLiteral("playAction"));
  play_action_->setShortcut(QKeySequence(Qt::Key_Space));
  play_action_->setStatusTip(tr("Step through the output elements, selecting each in turn"));
  connect(play_action_, &QAction::triggered, player_, &AnimationPlayer::toggle_play);
  step_back_action_ = new QAction(tr("Step &Back"), this);
  step_back_action_->setObjectName(QStringLiteral("stepBackAction"));
  step_back_action_->setShortcut(QKeySequence(Qt::Key_Left));
  connect(step_back_action_, &QAction::triggered, player_, &AnimationPlayer::step_back);
  step_forward_action_ = new QAction(tr("Step &Forward"), this);
  step_forward_action_->setObjectName(QStringLiteral("stepForwardAction"));
  step_forward_action_->setShortcut(QKeySequence(Qt::Key_Right));
  connect(step_forward_action_, &QAction::triggered, player_, &AnimationPlayer::step_forward);
  for (QAction* action : {play_action_, step_back_action_, step_forward_action_}) {
    action->setShortcutContext(Qt::WindowShortcut);
    addAction(action);  // live while the menu bar is hidden (full screen on a projector)
  }
  // Both ways: each step selects its element, and any selection (a click, the
  // compare table) moves the animation there, so play goes on from it.
  connect(player_, &AnimationPlayer::currentChanged, this, &MainWindow::follow_animation);
  connect(selection_, &LinkedSelection::outputSelected, player_, [this](const Coord& coord) { player_->seek(coord); });
}

void MainWindow::create_animation_menu(QMenu* run) {
  run->addSeparator();
  QMenu* animation = run->addMenu(tr("&Animation"));
  animation->addAction(play_action_);
  animation->addAction(step_back_action_);
  animation->addAction(step_forward_action_);
}

// At the bottom, the width of the window: the slider gets room to scrub.
void MainWindow::create_animation_toolbar() {
  QToolBar* bar = new QToolBar(tr("Animation"), this);
  bar->setObjectName(QStringLiteral("animationToolBar"));
  animation_bar_ = new AnimationBar(player_, bar);
  animation_bar_->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
  bar->addWidget(animation_bar_);
  addToolBar(Qt::BottomToolBarArea, bar);
}

void MainWindow::follow_animation(const Coord& coord) {
  if (selection_->selected_output() != coord) selection_->select_output(coord);
}

void MainWindow::play_animation() { player_->play(); }

}  // namespace stridescope::ui
