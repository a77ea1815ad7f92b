// The step-through animation: the player (ui/animation_player.h) on its own,
// driven by its step API, and in the window, where each step selects the
// output element shown and the views follow it across planes. Expected
// coordinates are listed by hand from the sizes and strides.
#include <QAction>
#include <QDir>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QSlider>
#include <QSpinBox>
#include <QTimer>
#include <QtTest>

#include "core/tensor_desc.h"
#include "test_backends.h"
#include "ui/animation_player.h"
#include "ui/examples.h"
#include "ui/linked_selection.h"
#include "ui/spec_document.h"
#include "ui/widgets/animation_bar.h"
#include "ui/widgets/export_figure_dialog.h"
#include "ui/widgets/main_window.h"
#include "ui/widgets/plane_selector.h"
#include "ui/widgets/spec_editor.h"
#include "ui/widgets/tensor_panel.h"

namespace stridescope {

// How QCOMPARE prints coordinates when they differ (found by argument-dependent lookup).
char* toString(const Coord& coord) { return qstrdup(format_coord(coord).c_str()); }

char* toString(const std::vector<Coord>& coords) {
  std::string text;
  for (const Coord& coord : coords) text += format_coord(coord) + " ";
  return qstrdup(text.c_str());
}

}  // namespace stridescope

using namespace stridescope;
using namespace stridescope::ui;
using namespace stridescope::ui::testing;

namespace {

TensorDesc desc(const Sizes& sizes, std::optional<Strides> strides = std::nullopt) {
  Expected<TensorDesc> made = TensorDesc::make(DataType::Float32, sizes, strides, "output");
  if (!made) qFatal("%s", made.error().to_string().c_str());
  return *made;
}

// The player's current element after each of `steps` forward steps, the first included.
std::vector<Coord> walk(AnimationPlayer& player, int steps) {
  std::vector<Coord> seen{*player.current()};
  for (int i = 0; i < steps; ++i) {
    player.step_forward();
    seen.push_back(*player.current());
  }
  return seen;
}

// slice1 over a 1x2x4x4 input taking a 1x2x2x2 output: two output planes
// (channel 0 and 1), each element read from the same channel of the input.
const char* kTwoPlanes = R"({
  "op": "slice1",
  "input":  { "dataType": "FLOAT32", "sizes": [1,2,4,4], "fill": "iota" },
  "output": { "dataType": "FLOAT32", "sizes": [1,2,2,2] },
  "params": {
    "inputWindowOffsets": [0,0,0,0],
    "inputWindowSizes":   [1,2,2,2],
    "inputWindowStrides": [1,1,1,1]
  }
})";

}  // namespace

class AnimationTest : public QObject {
  Q_OBJECT

 private:
  std::unique_ptr<MainWindow> window_;

  MainWindow& fresh() {
    window_ = std::make_unique<MainWindow>(cpu_only());
    window_->resize(1400, 900);
    window_->show();
    settle();
    return *window_;
  }
  void settle() { QTRY_VERIFY_WITH_TIMEOUT(window_->settled(), 20000); }

 private slots:
  void initTestCase() {
    QCoreApplication::setOrganizationName(QStringLiteral("StrideScopeTests"));
    QCoreApplication::setApplicationName(QStringLiteral("StrideScopeTests"));
  }
  void cleanup() { window_.reset(); }

  void LogicalOrder_Visits2x3RowMajor() {
    AnimationPlayer player;
    player.set_tensor(desc({2, 3}));
    QCOMPARE(player.frame_count(), 6);
    QCOMPARE(player.every(), uint64_t{1});
    const std::vector<Coord> expected{{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}};
    QCOMPARE(walk(player, 5), expected);
  }

  void BufferOrder_VisitsAColumnMajorOutputByOffset() {
    AnimationPlayer player;
    player.set_order(VisitOrder::Buffer);
    // Strides {1, 2}: [r, c] lies at offset r + 2c.
    player.set_tensor(desc({2, 3}, Strides{1, 2}));
    const std::vector<Coord> expected{{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}, {1, 2}};
    QCOMPARE(walk(player, 5), expected);
  }

  void ChangingOrder_KeepsTheCurrentElement() {
    AnimationPlayer player;
    player.set_tensor(desc({2, 3}, Strides{1, 2}));
    player.set_position(1);  // [0,1] in logical order
    player.set_order(VisitOrder::Buffer);
    QCOMPARE(*player.current(), Coord({0, 1}));
    QCOMPARE(player.position(), 2);
  }

  void StepBackAtTheStart_StaysWithoutLoop_WrapsWithLoop() {
    AnimationPlayer player;
    player.set_tensor(desc({2, 3}));
    player.step_back();
    QCOMPARE(player.position(), 0);
    QCOMPARE(*player.current(), Coord({0, 0}));
    player.set_loop(true);
    player.step_back();
    QCOMPARE(player.position(), 5);
    QCOMPARE(*player.current(), Coord({1, 2}));
  }

  void StepForwardAtTheEnd_StopsWithoutLoop_WrapsWithLoop() {
    AnimationPlayer player;
    player.set_tensor(desc({2, 3}));
    player.set_position(4);
    player.play();
    player.step_forward();
    QCOMPARE(player.position(), 5);
    QVERIFY(player.playing());
    player.step_forward();  // the end of a run: stays, and stops
    QCOMPARE(player.position(), 5);
    QVERIFY(!player.playing());
    QVERIFY(!player.timer_active());
    player.play();  // play after the end starts the run again
    QCOMPARE(player.position(), 0);
    player.pause();
    player.set_position(5);
    player.set_loop(true);
    player.step_forward();
    QCOMPARE(player.position(), 0);
    QCOMPARE(*player.current(), Coord({0, 0}));
  }

  void Pause_StopsTheTimer() {
    AnimationPlayer player;
    player.set_tensor(desc({2, 3}));
    QSignalSpy playing(&player, &AnimationPlayer::playingChanged);
    player.play();
    QVERIFY(player.playing());
    QVERIFY(player.timer_active());
    player.pause();
    QVERIFY(!player.playing());
    QVERIFY(!player.timer_active());
    QCOMPARE(playing.count(), 2);
    player.toggle_play();
    QVERIFY(player.timer_active());
  }

  void Speed_SetsTheTimerInterval() {
    AnimationPlayer player;
    QCOMPARE(player.interval_ms(), 500);  // 2 elements per second by default
    player.set_speed(4);
    QCOMPARE(player.interval_ms(), 250);
    player.set_speed(0.5);
    QCOMPARE(player.interval_ms(), 2000);
    player.set_speed(1000);  // clamped to 60 per second
    QCOMPARE(player.speed(), 60.0);
    QCOMPARE(player.interval_ms(), 17);
  }

  void Playing_AdvancesOnTheTimer() {
    AnimationPlayer player;
    player.set_tensor(desc({2, 3}));
    player.set_speed(60);
    QSignalSpy current(&player, &AnimationPlayer::currentChanged);
    player.play();
    QTRY_VERIFY_WITH_TIMEOUT(current.count() >= 2, 2000);
    QCOMPARE(current.at(0).at(0).value<Coord>(), Coord({0, 1}));
    QCOMPARE(current.at(1).at(0).value<Coord>(), Coord({0, 2}));
  }

  void PlayBeforeFrames_StartsWhenTheyArrive() {
    AnimationPlayer player;
    player.play();
    QVERIFY(player.playing());
    QVERIFY(!player.timer_active());
    player.set_tensor(desc({2, 3}));
    QVERIFY(player.timer_active());
    player.clear();
    QVERIFY(!player.timer_active());
    QVERIFY(player.playing());
  }

  void HugeTensor_VisitsEveryKthElement() {
    AnimationPlayer player;
    player.set_tensor(desc({1, 3, 1024, 1024}));
    // 3,145,728 elements over at most 65,536 frames: every 48th element.
    QCOMPARE(player.every(), uint64_t{48});
    QCOMPARE(player.frame_count(), 65536);
    player.step_forward();
    QCOMPARE(*player.current(), Coord({0, 0, 0, 48}));
  }

  void Stepping_SelectsTheOutputElement() {
    MainWindow& w = fresh();  // the slice1 example: a 1x1x2x2 output
    AnimationPlayer* player = w.animation_player();
    QCOMPARE(player->frame_count(), 4);
    QCOMPARE(w.selection()->selected_output(), std::optional<Coord>(Coord{0, 0, 0, 0}));
    w.step_forward_action()->trigger();
    QCOMPARE(w.selection()->selected_output(), std::optional<Coord>(Coord{0, 0, 0, 1}));
    player->set_position(3);
    QCOMPARE(w.selection()->selected_output(), std::optional<Coord>(Coord{0, 0, 1, 1}));
    w.step_back_action()->trigger();
    QCOMPARE(w.selection()->selected_output(), std::optional<Coord>(Coord{0, 0, 1, 0}));
    QVERIFY(w.animation_bar()->position_label()->text().startsWith(QStringLiteral("#3 / 4  out[0,0,1,0]")));
    QCOMPARE(w.animation_bar()->slider()->value(), 2);
  }

  void MultiPlane_TheOutputAndInputPlanesFollowTheElement() {
    MainWindow& w = fresh();
    Expected<Spec> spec = parse_spec(kTwoPlanes, {});
    QVERIFY(spec.has_value());
    w.document()->reset(*spec, std::nullopt);
    settle();
    AnimationPlayer* player = w.animation_player();
    QCOMPARE(player->frame_count(), 8);
    QSpinBox* output_channel = w.panel(TensorRole::Output)->selector()->fixed_spin(1);
    QCOMPARE(output_channel->maximum(), 1);  // the selector offers the new output's two channels
    player->set_position(3);  // [0,0,1,1]: the last element of channel 0
    QCOMPARE(w.selection()->selected_output(), std::optional<Coord>(Coord{0, 0, 1, 1}));
    QCOMPARE(output_channel->value(), 0);
    player->step_forward();  // [0,1,0,0]: the first element of channel 1
    QCOMPARE(w.selection()->selected_output(), std::optional<Coord>(Coord{0, 1, 0, 0}));
    QCOMPARE(w.plane_model(TensorRole::Output)->plane().fixed[1], uint64_t{1});
    QCOMPARE(output_channel->value(), 1);
    // Its source, in[0,1,0,0], lies on the input's channel 1.
    QCOMPARE(w.plane_model(TensorRole::Input)->plane().fixed[1], uint64_t{1});
    QCOMPARE(w.panel(TensorRole::Input)->selector()->fixed_spin(1)->value(), 1);
    player->step_back();
    QCOMPARE(output_channel->value(), 0);
  }

  void ClickingAnElement_MovesTheAnimationThere() {
    MainWindow& w = fresh();
    w.animation_player()->seek(Coord{0, 0, 1, 0});
    QCOMPARE(w.animation_player()->position(), 2);
    QCOMPARE(w.selection()->selected_output(), std::optional<Coord>(Coord{0, 0, 1, 0}));
  }

  void PlayOption_LeavesThePlayerPlaying() {
    MainWindow& w = fresh();
    // What `stridescope SPEC --play` does: open, then play before the result arrives.
    QVERIFY(w.open_file(QDir(QStringLiteral(STRIDESCOPE_TEST_EXAMPLES_DIR))
                            .filePath(QStringLiteral("max_pooling2_3x3_stride2_pad1_indices.json")))
                .ok());
    w.play_animation();
    settle();
    AnimationPlayer* player = w.animation_player();
    QVERIFY(player->playing());
    QVERIFY(player->timer_active());
    QCOMPARE(player->frame_count(), 9);
    QCOMPARE(w.selection()->selected_output(), player->current());
  }

  void Keys_SpacePlaysAndArrowsStep_ButNotInATextField() {
    MainWindow& w = fresh();
    w.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&w));
    AnimationPlayer* player = w.animation_player();
    if (QWidget* focused = QApplication::focusWidget()) focused->clearFocus();
    QTest::keyClick(&w, Qt::Key_Right);
    QCOMPARE(player->position(), 1);
    QTest::keyClick(&w, Qt::Key_Left);
    QCOMPARE(player->position(), 0);
    QTest::keyClick(&w, Qt::Key_Space);
    QVERIFY(player->playing());
    QTest::keyClick(&w, Qt::Key_Space);
    QVERIFY(!player->playing());

    // A spin box with focus keeps its keys: typing a value never steps the animation.
    auto* spin = qobject_cast<QSpinBox*>(w.editor()->field_widget(QStringLiteral("params.inputWindowStrides[3]")));
    QVERIFY(spin);
    spin->setFocus();
    QTRY_VERIFY(spin->hasFocus());
    QTest::keyClick(spin, Qt::Key_Right);
    QTest::keyClick(spin, Qt::Key_Left);
    QTest::keyClick(spin, Qt::Key_Space);
    QCOMPARE(player->position(), 0);
    QVERIFY(!player->playing());
  }

  void ExportAnimation_OpensTheFigureDialogWithAnimateOn() {
    MainWindow& w = fresh();
    QAction* action = nullptr;
    for (QAction* a : w.menuBar()->actions().front()->menu()->actions()) {
      if (a->text() == QStringLiteral("Export &Animation\u2026")) action = a;
    }
    QVERIFY(action);
    bool animate = false;
    // The dialog is modal: look at it from inside its event loop, then close it.
    QTimer::singleShot(0, &w, [&w, &animate] {
      auto* dialog = w.findChild<ExportFigureDialog*>();
      QVERIFY(dialog);
      animate = dialog->animate();
      dialog->reject();
    });
    action->trigger();
    QVERIFY(animate);
  }
};

QTEST_MAIN(AnimationTest)
#include "ui_animation_test.moc"
