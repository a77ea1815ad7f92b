// File > Compare with Result: another implementation's result (a result
// document, or a .npy as `stridescope-cli run --out X.npy` writes it) beside
// the spec being edited. Owns the file as read, its actions (Compare with
// Result, Next / Previous Difference, Clear Comparison) and the Result
// Comparison dock: how many elements differ, core's diagnosis of why (the
// lines `stridescope-cli check --diagnose` prints), and the difference
// selected. The comparison itself runs with every evaluation (the main window
// puts other() into each request), so an edited spec is compared again; the
// views mark the differing elements from the evaluation.
#pragma once

#include <memory>

#include <QObject>
#include <QString>

#include "core/error.h"
#include "ui/evaluation.h"

class QAction;
class QDockWidget;
class QLabel;
class QMainWindow;
class QMenu;

namespace stridescope::ui {

class LinkedSelection;

class ResultCompare : public QObject {
  Q_OBJECT

 public:
  ResultCompare(QMainWindow* window, LinkedSelection* selection);

  QAction* open_action() const { return open_action_; }
  QAction* next_action() const { return next_action_; }
  QAction* previous_action() const { return previous_action_; }
  QAction* clear_action() const { return clear_action_; }
  QDockWidget* dock() const { return dock_; }

  // What each evaluation compares with; null when nothing is compared.
  const std::shared_ptr<const OtherResult>& other() const { return other_; }
  // Reads the file (a failure clears the comparison and says why in the
  // panel); the next evaluation compares with it.
  Status compare_with(const QString& path);
  void clear();

  // The main window's hooks: a new evaluation was shown; the spec is invalid.
  void show_evaluation(const EvaluationPtr& evaluation);
  void show_invalid_spec();

  // Selects the next (previous) differing output element, wrapping around;
  // false when nothing differs.
  bool go_to_difference(bool forward);

  // The panel's texts, as shown.
  QString summary_text() const;
  QString diagnosis_text() const;
  QString position_text() const;

 signals:
  // other() changed: the spec must be evaluated again.
  void otherChanged();

 private:
  void create_actions();
  QWidget* create_panel();
  void on_open();
  void show_comparison(const ResultComparison& comparison, const Operation& op);
  void show_nothing_compared();
  void show_error(const QString& text);
  void update_position();
  void enable_navigation(bool on);

  QMainWindow* window_;
  LinkedSelection* selection_;
  std::shared_ptr<const OtherResult> other_;
  EvaluationPtr shown_;

  QAction* open_action_ = nullptr;
  QAction* next_action_ = nullptr;
  QAction* previous_action_ = nullptr;
  QAction* clear_action_ = nullptr;
  QDockWidget* dock_ = nullptr;
  QLabel* file_label_ = nullptr;
  QLabel* summary_label_ = nullptr;
  QLabel* diagnosis_label_ = nullptr;
  QLabel* position_label_ = nullptr;
};

}  // namespace stridescope::ui
