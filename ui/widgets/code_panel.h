// The current spec as code for the frameworks people come from (NumPy,
// PyTorch, ONNX, DirectML C++, a DxDispatch model), written by core's code
// writers (core/codegen/code_writer.h): a tab per language, updated as the
// spec changes, a Copy button, and beside the code where that framework
// differs from DirectML for this spec.
//
// Only the tab on show is written, and only while the panel is visible: a
// spec with a large inline input makes long programs. Past
// kLargestInputWrittenLive input elements the panel waits for Write program:
// a 1x3x1024x1024 random input is a 30 MB program, seconds of the UI thread on
// every edit.
#pragma once

#include <cstdint>

#include <QString>
#include <QWidget>

#include "core/codegen/code_writer.h"
#include "ui/evaluation.h"

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTabBar;

namespace stridescope::ui {

class CodePanel : public QWidget {
  Q_OBJECT

 public:
  static constexpr uint64_t kLargestInputWrittenLive = 65536;

  explicit CodePanel(QWidget* parent = nullptr);

  void set_evaluation(EvaluationPtr evaluation);
  void set_language(CodeLanguage language);
  CodeLanguage language() const;

  // What the panel shows now (for tests and the clipboard).
  QString code() const;
  QString notes() const;

 protected:
  void showEvent(QShowEvent* event) override;

 private:
  void refresh();
  void write_program();
  void show_deferred(uint64_t input_elements);

  EvaluationPtr evaluation_;
  EvaluationPtr written_for_;  // the evaluation the shown code was written from
  QTabBar* tabs_;
  QPlainTextEdit* code_;
  QLabel* notes_;
  QPushButton* copy_;
  QPushButton* write_;  // shown while a large input's program waits to be written
};

}  // namespace stridescope::ui
