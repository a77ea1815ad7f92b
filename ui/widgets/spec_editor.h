// The form that defines the work: operator, input tensor (type, sizes,
// strides, values), output tensor, and the operator's parameters with one row
// per dimension. Every field widget is named by its spec path
// (objectName "params.inputWindowStrides[2]"), so an Error from the core
// lands on the widget it is about: the field turns red and carries the
// message, while the views keep the last valid result.
#pragma once

#include <map>
#include <optional>
#include <vector>

#include <QPointer>
#include <QWidget>

#include "core/error.h"
#include "ui/evaluation.h"
#include "ui/spec_document.h"
#include "ui/spec_edits.h"

class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QGridLayout;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QStackedWidget;

namespace stridescope::ui {

class SpecEditor : public QWidget {
  Q_OBJECT

 public:
  explicit SpecEditor(SpecDocument* document, QWidget* parent = nullptr);

  // The last valid evaluation: layout words, values for "typed values".
  void set_evaluation(EvaluationPtr evaluation);
  // The spec is invalid: the tensor summaries describe what can be known of
  // it (the input alone), not the last valid evaluation.
  void summarise_invalid_spec();
  // The core's verdict on the current spec (nullopt: valid).
  void show_error(const std::optional<Error>& error);

  // The widget showing `path`, following the same fallbacks as error marking.
  QWidget* field_widget(const QString& path) const;
  // The widget currently marked invalid, if any.
  QWidget* invalid_widget() const { return invalid_; }
  QString error_text() const;

 signals:
  // An .npy file is wanted; the window owns file dialogs.
  void npyFileRequested();

 public slots:
  void set_npy_file(const QString& path);

 private:
  void build_static();
  void rebuild_dimension_rows();
  void sync_from_spec();
  QString structure_key() const;
  // The preset the stride rows follow: what the strides are, except that
  // strides a person chose to edit as Custom stay Custom even when they
  // happen to equal a preset's.
  StridePreset input_preset() const;
  StridePreset output_preset() const;

  QSpinBox* make_int_field(const QString& path, int minimum, QWidget* parent);
  void edit_int(const QString& path, int value);
  void edit(Spec next, const QString& text, const QString& merge_key = {});
  void set_local_error(std::optional<Error> error);
  void refresh_error();
  void mark(QWidget* widget, const QString& message);
  void unmark();

  void on_op_chosen(int index);
  void on_rank_changed(int rank);
  void on_input_type_chosen(int index);
  void on_input_preset_chosen(int index);
  void on_output_preset_chosen(int index);
  void on_output_type_chosen(int index);
  void on_indices_type_chosen(int index);
  void on_fill_chosen(int index);
  void on_random_changed();
  void on_values_edited();
  void on_padding_mode_chosen(int index);
  void on_padding_value_edited();

  SpecDocument* document_;
  EvaluationPtr evaluation_;
  std::optional<Error> core_error_;
  std::optional<Error> local_error_;
  QPointer<QWidget> invalid_;
  QString invalid_tooltip_;
  bool syncing_ = false;
  bool input_custom_chosen_ = false;
  bool output_custom_chosen_ = false;
  QString built_key_;

  QLabel* error_banner_;
  QComboBox* op_combo_;
  QLabel* op_help_;
  QComboBox* input_type_;
  QSpinBox* rank_;
  QComboBox* input_preset_;
  QWidget* input_dims_;
  QGridLayout* input_dims_layout_;
  QLabel* input_layout_;
  QComboBox* fill_;
  QStackedWidget* fill_pages_;
  QSpinBox* random_seed_;
  QDoubleSpinBox* random_min_;
  QDoubleSpinBox* random_max_;
  QLineEdit* values_;
  QLineEdit* npy_path_;
  QPushButton* npy_browse_;

  QGroupBox* output_group_;
  QComboBox* output_type_;
  QComboBox* output_preset_;
  QWidget* output_dims_;
  QGridLayout* output_dims_layout_;
  QLabel* output_layout_;
  QLabel* indices_label_;
  QComboBox* indices_type_;

  QGroupBox* params_group_;
  QLabel* params_help_;
  QWidget* padding_row_;
  QComboBox* padding_mode_;
  QLineEdit* padding_value_;
  QWidget* params_dims_;
  QGridLayout* params_dims_layout_;
  QLabel* output_sizes_;
};

}  // namespace stridescope::ui
