// Where the input buffer's values come from: iota, zeros, seeded random,
// typed values or a .npy file, with the rows each source needs. Rows of the
// input tensor's form.
#pragma once

#include <QWidget>

#include "ui/evaluation.h"
#include "ui/widgets/spec_form_part.h"

class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QStackedWidget;

namespace stridescope::ui {

class InputValuesForm : public QObject {
  Q_OBJECT

 public:
  InputValuesForm(SpecFormHost* host, QWidget* parent);

  QComboBox* source() const { return fill_; }    // the "Values" row
  QWidget* details() const;                      // the row below it

  // The last valid evaluation: "typed values" starts from its input.
  void set_evaluation(EvaluationPtr evaluation) { evaluation_ = std::move(evaluation); }
  // Shows the spec's source without emitting edits.
  void sync();

 signals:
  void npyFileRequested();

 private:
  QWidget* build_random_page();
  QWidget* build_values_page();
  QWidget* build_npy_page();
  void on_fill_chosen(int index);
  void on_random_changed();
  void on_values_edited();

  SpecFormHost* host_;
  EvaluationPtr evaluation_;
  QComboBox* fill_;
  QStackedWidget* pages_;
  QSpinBox* random_seed_ = nullptr;
  QDoubleSpinBox* random_min_ = nullptr;
  QDoubleSpinBox* random_max_ = nullptr;
  QLineEdit* values_ = nullptr;
  QLineEdit* npy_path_ = nullptr;
};

}  // namespace stridescope::ui
