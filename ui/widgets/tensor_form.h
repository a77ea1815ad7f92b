// One tensor of the spec as a form: data type, stride preset, a row per
// dimension with its size and stride, and a summary of the layout. The
// editor holds two: the input (which also sets the rank, and carries the
// values rows) and the output (whose sizes the op determines, typed only for
// slice1, and which offers max_pooling2's indices output).
#pragma once

#include <QGroupBox>

#include "core/tensor_desc.h"
#include "ui/spec_edits.h"
#include "ui/widgets/spec_form_part.h"

class QComboBox;
class QFormLayout;
class QGridLayout;
class QLabel;
class QSpinBox;

namespace stridescope::ui {

class TensorForm : public QGroupBox {
  Q_OBJECT

 public:
  enum class Role { Input, Output };
  TensorForm(Role role, SpecFormHost* host, QWidget* parent);

  // The preset the stride rows follow: what the strides are, except that
  // strides a person chose to edit as Custom stay Custom even when they
  // happen to equal a preset's.
  StridePreset preset() const { return choice().preset; }
  // The same with the dimensions a transpose swaps.
  StrideChoice choice() const;
  // A different spec was loaded: the strides are what they are.
  void forget_custom_choice() { custom_chosen_ = false; }

  // More rows below the tensor's own (the input's values).
  void add_row(const QString& label, QWidget* field);
  void add_row(QWidget* widget);

  // Rebuilds the dimension rows for the spec's rank and op.
  void rebuild_rows();
  // Shows the spec's values without emitting edits.
  void sync();
  // The layout words and buffer size of a valid tensor; empty clears them.
  void set_summary(const TensorDesc* desc);

 private:
  const TensorRequest& tensor() const;
  void build_input_rows();
  void build_output_rows();
  QComboBox* make_preset_combo(const QString& tip);
  // The menu's entries for `rank` dimensions: channels-last from 3, a
  // transpose for every pair of dimensions.
  void fill_preset_items(std::size_t rank);
  void add_header_row();
  void add_dimension_row(std::size_t rank, std::size_t d, bool typed_size, bool custom);
  void sync_dimensions(const std::optional<std::vector<uint64_t>>& sizes);

  void on_type_chosen(int index);
  void on_preset_chosen(int index);
  void on_rank_changed(int rank);
  void on_indices_type_chosen(int index);

  Role role_;
  SpecFormHost* host_;
  QString prefix_;  // "input" or "output": the spec paths of the rows
  bool custom_chosen_ = false;
  std::size_t preset_rank_ = 0;  // the rank the preset menu lists entries for
  QFormLayout* form_;
  QComboBox* type_;
  QSpinBox* rank_ = nullptr;             // input only
  QComboBox* preset_;
  QWidget* dims_;
  QGridLayout* dims_layout_;
  QLabel* summary_;
  QLabel* indices_label_ = nullptr;      // output only
  QComboBox* indices_type_ = nullptr;    // output only
};

}  // namespace stridescope::ui
