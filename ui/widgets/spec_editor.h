// The form that defines the work: the operator picker, the input tensor
// (type, sizes, strides, values), the operator's parameters (a table laid out
// from its schema) and the output tensor. Every field widget is named by its
// spec path (objectName "params.inputWindowStrides[2]"), so an Error from
// the core lands on the widget it is about: the field turns red and carries
// the message, while the views keep the last valid result.
#pragma once

#include <optional>

#include <QPointer>
#include <QWidget>

#include "core/error.h"
#include "ui/evaluation.h"
#include "ui/spec_document.h"
#include "ui/spec_edits.h"
#include "ui/widgets/spec_form_part.h"

class QLabel;

namespace stridescope::ui {

class InputValuesForm;
class OpPicker;
class ParamTable;
class TensorForm;

class SpecEditor : public QWidget, private SpecFormHost {
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
  // SpecFormHost: what the parts of the form edit through.
  const Spec& spec() const override { return document_->spec(); }
  void edit(Spec next, const QString& text, const QString& merge_key = {}) override;
  void edit_int(const QString& path, int value) override;
  void end_field_edit() override { document_->end_merging(); }
  void set_local_error(std::optional<Error> error) override;
  bool syncing() const override { return syncing_; }

  void build();
  QWidget* build_status_line();
  void sync_from_spec();
  // Changes when the rows must be rebuilt: op, rank, which strides are typed.
  QString structure_key() const;
  void refresh_error();
  void mark(QWidget* widget, const QString& message);
  void unmark();

  SpecDocument* document_;
  EvaluationPtr evaluation_;
  std::optional<Error> core_error_;
  std::optional<Error> local_error_;
  QPointer<QWidget> invalid_;
  QString invalid_tooltip_;
  bool syncing_ = false;
  QString built_key_;

  QLabel* error_banner_ = nullptr;
  QLabel* valid_note_ = nullptr;
  QLabel* description_ = nullptr;  // the spec's one-line description, if it has one
  OpPicker* op_picker_ = nullptr;
  TensorForm* input_ = nullptr;
  InputValuesForm* values_ = nullptr;
  ParamTable* params_ = nullptr;
  TensorForm* output_ = nullptr;
};

}  // namespace stridescope::ui
