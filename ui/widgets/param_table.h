// The operator's parameters, laid out from its schema (op_schema.h): a row
// for each single-valued field (padding's mode and value), then a column per
// array field and a row per dimension it describes, and the output sizes the
// parameters give. Every field widget is named by its spec path
// ("params.windowSize[1]").
#pragma once

#include <QGroupBox>

#include "core/op_schema.h"
#include "ui/widgets/spec_form_part.h"

class QComboBox;
class QFormLayout;
class QGridLayout;
class QLabel;
class QLineEdit;

namespace stridescope::ui {

class ParamTable : public QGroupBox {
  Q_OBJECT

 public:
  ParamTable(SpecFormHost* host, QWidget* parent);

  // Rebuilds the rows for the spec's op and rank.
  void rebuild_rows();
  // Shows the spec's values without emitting edits.
  void sync();

 private:
  void build_single_row(const ParamField& field);
  void build_array_columns(OpKind kind, std::size_t rank);
  void sync_single(const ParamField& field);
  void on_mode_chosen(const ParamField& field, int index);
  void on_value_edited(const ParamField& field);

  SpecFormHost* host_;
  QLabel* help_;
  QWidget* singles_;
  QFormLayout* singles_layout_;
  QWidget* dims_;
  QGridLayout* dims_layout_;
  QLabel* output_sizes_;
};

}  // namespace stridescope::ui
