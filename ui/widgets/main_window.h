// The StrideScope main window: the spec editor docked on the left; input,
// output and (max_pooling2) indices side by side, each with its memory strip;
// a legend; the rule at the cursor in the status line. Collaborators (the
// backends) come in through the constructor; all backend work runs on the
// evaluation engine's worker thread.
//
// One class, three files by job: main_window.cpp (layout, views, showing
// evaluations), main_window_actions.cpp (actions, menus, toolbars: a new
// command is an action in create_*_actions and a line in its create_*_menu),
// main_window_files.cpp (open, save, export, recent files, autosave recovery),
// main_window_animation.cpp (the step-through animation: its bar, keys, and
// the views following the element it shows), main_window_windows.cpp (File >
// New Window: more windows, each with its own spec).
#pragma once

#include <functional>
#include <optional>

#include <QMainWindow>

#include "core/error.h"
#include "ui/backend_set.h"
#include "ui/colour_map.h"
#include "ui/evaluation.h"
#include "ui/tensor_plane_model.h"

class QAction;
class QActionGroup;
class QComboBox;
class QDockWidget;
class QLabel;
class QMenu;
class QScrollArea;
class QSplitter;
class QTableView;

namespace stridescope::ui {

class AnimationBar;
class AnimationPlayer;
class Autosave;
class DiffModel;
class EvaluationEngine;
class IndicesModel;
class CodePanel;
class ExplanationPanel;
class HelpBrowser;
class LegendBar;
class LinkedSelection;
class MemoryStripModel;
class ResultCompare;
class SpecDocument;
class SpecEditor;
class StatusRule;
class TensorPanel;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(BackendSet backends, QWidget* parent = nullptr);
  ~MainWindow() override;

  SpecDocument* document() const { return document_; }
  SpecEditor* editor() const { return editor_; }
  EvaluationEngine* engine() const { return engine_; }
  LinkedSelection* selection() const { return selection_; }
  DiffModel* diff_model() const { return diff_model_; }
  ResultCompare* result_compare() const { return result_compare_; }
  TensorPanel* panel(TensorRole role) const;
  TensorPlaneModel* plane_model(TensorRole role) const;
  MemoryStripModel* memory_model(TensorRole role) const;
  QWidget* views_widget() const { return views_; }
  QAction* compare_action() const { return compare_action_; }
  QAction* save_action() const { return save_action_; }
  Autosave* autosave() const { return autosave_; }
  AnimationPlayer* animation_player() const { return player_; }
  AnimationBar* animation_bar() const { return animation_bar_; }
  QAction* play_action() const { return play_action_; }
  QAction* step_back_action() const { return step_back_action_; }
  QAction* step_forward_action() const { return step_forward_action_; }

  // What the views show: the last valid evaluation.
  const EvaluationPtr& shown_evaluation() const { return shown_; }
  // The newest spec's error, if it is invalid.
  const std::optional<Error>& current_error() const { return current_error_; }
  // The newest request has been evaluated and shown.
  bool settled() const;
  QString status_text() const;

  Status open_file(const QString& path);
  // Without a person at the window (--screenshot), nothing may ask: a
  // DxDispatch model with several dispatches opens its first one.
  void set_unattended(bool unattended) { unattended_ = unattended; }
  // Refuses a bundled example's file; a failure leaves the document as it was.
  Status save_file(const QString& path);
  // Save asks for a file: the document has none, or it is a bundled example.
  bool save_needs_new_file() const;
  // After an unclean exit: asks whether to restore the autosaved edits
  // (app/gui_main.cpp calls it once the window shows).
  void offer_recovery();
  // Restores the autosaved edits without asking; false when there are none.
  bool recover_autosave();
  // Starts the step-through animation over the output elements; asked for
  // before the spec is evaluated (`stridescope SPEC --play`), it starts with
  // the first result.
  void play_animation();
  void set_backend(const QString& name);
  QString backend() const { return backend_; }
  void set_compare(bool on);
  void set_value_palette(ValuePalette palette);
  // File > New Window needs backends of its own for each window: the entry
  // point hands over how it made this window's. Without it the action is off.
  void set_backend_maker(std::function<BackendSet()> maker);
  // File > New Window: another window beside this one with its own spec,
  // history and autosave (two specs side by side, REFLECTION next to
  // SYMMETRIC); it deletes itself when closed. Null without a backend maker.
  MainWindow* open_new_window();
  QAction* new_window_action() const { return new_window_action_; }
  // Help: one of the documentation pages (HelpBrowser::pages()), in the help window.
  HelpBrowser* show_help(const QString& file);

 protected:
  void closeEvent(QCloseEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;

 private:
  void create_models();
  void create_central();
  void create_docks();
  void create_teaching_docks();
  void create_status_bar();
  void create_actions();
  void create_file_actions();
  void create_edit_actions();
  void create_view_actions();
  void create_run_actions();
  void create_animation_actions();
  void create_animation_menu(QMenu* run);
  void create_animation_toolbar();
  void follow_animation(const Coord& coord);
  void open_export_dialog(bool animate);
  void create_menus();
  void create_file_menu(QMenu* file);
  void create_view_menu(QMenu* view);
  void create_help_menu(QMenu* help);
  void create_toolbars();
  void create_run_toolbar();
  void connect_views();
  void restore_settings();
  // A window opened by New Window keeps its unsaved edits in a folder of its
  // own, so it never overwrites (or discards) the first window's copy.
  void use_autosave_folder(const QString& folder);
  void save_settings();

  void submit();
  void on_evaluated(const EvaluationOutcome& outcome);
  // A backend that failed to run (device lost, out of memory, unavailable),
  // told apart from a spec that breaks a rule.
  static bool is_backend_fault(const Error& error);
  void show_backend_fault(const Error& error);
  void report_compare_failures(const CompareReport& report);
  void update_title();
  void show_evaluation(EvaluationPtr evaluation);  // nullptr: empty views
  void fit_editor_width();
  void update_panels_visibility();
  bool maybe_save();
  void add_recent(const QString& path);
  void rebuild_recent_menu();
  void rebuild_examples_menu();
  void open_interactively(const QString& path);
  void on_open();
  bool on_save();
  bool on_save_as();
  bool save_and_report(const QString& path);
  void on_npy_requested();
  void on_value_typed(quint64 offset, const QString& text);
  // The grid the View menu's zoom acts on: the one used last (the output's before any).
  class TensorGridView* active_grid() const;

  SpecDocument* document_;
  EvaluationEngine* engine_;
  Autosave* autosave_ = nullptr;
  QString backend_ = QStringLiteral("cpu");
  bool compare_ = false;
  bool unattended_ = false;
  ValuePalette palette_ = ValuePalette::Viridis;

  TensorPlaneModel* input_model_;
  TensorPlaneModel* output_model_;
  IndicesModel* indices_model_;
  MemoryStripModel* input_memory_;
  MemoryStripModel* output_memory_;
  MemoryStripModel* indices_memory_;
  DiffModel* diff_model_;
  LinkedSelection* selection_;
  AnimationPlayer* player_;

  SpecEditor* editor_ = nullptr;
  QWidget* views_ = nullptr;
  QSplitter* panels_splitter_ = nullptr;
  TensorPanel* input_panel_ = nullptr;
  TensorPanel* output_panel_ = nullptr;
  TensorPanel* indices_panel_ = nullptr;
  LegendBar* legend_ = nullptr;
  QDockWidget* editor_dock_ = nullptr;
  QScrollArea* editor_scroll_ = nullptr;
  QDockWidget* compare_dock_ = nullptr;
  ResultCompare* result_compare_ = nullptr;  // File > Compare with Result
  HelpBrowser* help_ = nullptr;
  ExplanationPanel* explanation_ = nullptr;
  QDockWidget* explanation_dock_ = nullptr;
  CodePanel* code_ = nullptr;
  QDockWidget* code_dock_ = nullptr;
  QLabel* compare_summary_ = nullptr;
  QTableView* compare_table_ = nullptr;
  StatusRule* rule_label_ = nullptr;
  QLabel* backend_label_ = nullptr;
  QComboBox* backend_combo_ = nullptr;
  AnimationBar* animation_bar_ = nullptr;

  QAction* new_action_ = nullptr;
  QAction* new_window_action_ = nullptr;
  std::function<BackendSet()> backend_maker_;
  QAction* open_action_ = nullptr;
  QAction* save_action_ = nullptr;
  QAction* save_as_action_ = nullptr;
  QAction* export_figure_action_ = nullptr;
  QAction* export_animation_action_ = nullptr;
  QAction* quit_action_ = nullptr;
  QAction* undo_action_ = nullptr;
  QAction* redo_action_ = nullptr;
  QAction* compare_action_ = nullptr;
  QAction* zoom_in_action_ = nullptr;
  QAction* zoom_out_action_ = nullptr;
  QAction* zoom_fit_action_ = nullptr;
  QAction* zoom_reset_action_ = nullptr;
  QAction* memory_action_ = nullptr;
  QAction* play_action_ = nullptr;
  QAction* step_back_action_ = nullptr;
  QAction* step_forward_action_ = nullptr;
  QActionGroup* backend_group_ = nullptr;
  QActionGroup* palette_group_ = nullptr;
  QMenu* recent_menu_ = nullptr;
  QMenu* examples_menu_ = nullptr;

  EvaluationPtr shown_;
  std::optional<Error> current_error_;
  quint64 last_shown_serial_ = 0;
  bool has_shown_once_ = false;
  quint64 shown_serial_ = 0;           // the evaluation serial of shown_
  quint64 document_first_serial_ = 0;  // the first serial of the spec opened last (File > Open, New)
  bool select_first_output_ = true;    // at the first valid result of a newly opened spec
};

}  // namespace stridescope::ui
