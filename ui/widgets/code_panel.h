// The current spec as code for the frameworks people come from (NumPy,
// PyTorch, ONNX, DirectML C++, a DxDispatch model), written by core's code
// writers (core/codegen/code_writer.h): a tab per language, updated as the
// spec changes, a Copy button, and beside the code where that framework
// differs from DirectML for this spec.
//
// Only the tab on show is written, and only while the panel is visible: a
// spec with a large inline input makes long programs.
#pragma once

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

  EvaluationPtr evaluation_;
  EvaluationPtr written_for_;  // the evaluation the shown code was written from
  QTabBar* tabs_;
  QPlainTextEdit* code_;
  QLabel* notes_;
  QPushButton* copy_;
};

}  // namespace stridescope::ui
