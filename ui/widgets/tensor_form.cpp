#include "ui/widgets/tensor_form.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>

#include "ui/text_format.h"

namespace stridescope::ui {
namespace {

// The strides a row shows: the spec's, or the packed ones it leaves implied.
std::vector<uint64_t> shown_strides(const std::optional<std::vector<uint64_t>>& strides,
                                    const std::vector<uint64_t>& sizes) {
  if (strides) return *strides;
  if (sizes.empty() || sizes.size() > kMaxRank) return std::vector<uint64_t>(sizes.size(), 0);
  return packed_strides(sizes);
}

// A menu entry's data: the preset, and for a transpose its two dimensions.
int choice_code(const StrideChoice& choice) {
  const bool transpose = choice.preset == StridePreset::Transpose;
  return static_cast<int>(choice.preset) * 100 + (transpose ? static_cast<int>(choice.first * 10 + choice.second) : 0);
}

StrideChoice choice_of_code(int code) {
  return {static_cast<StridePreset>(code / 100), static_cast<std::size_t>(code % 100 / 10),
          static_cast<std::size_t>(code % 10)};
}

QString tensor_summary(const TensorDesc& desc) {
  const QString w = layout_words(desc.layout());
  return QStringLiteral("%1 \u2014 %2").arg(w.isEmpty() ? QObject::tr("layout") : w, buffer_summary(desc));
}

}  // namespace

TensorForm::TensorForm(Role role, SpecFormHost* host, QWidget* parent)
    : QGroupBox(role == Role::Input ? tr("Input tensor") : tr("Output tensor"), parent),
      role_(role),
      host_(host),
      prefix_(role == Role::Input ? QStringLiteral("input") : QStringLiteral("output")) {
  setObjectName(role == Role::Input ? QStringLiteral("inputGroup") : QStringLiteral("outputGroup"));
  form_ = new QFormLayout(this);
  type_ = new QComboBox(this);
  type_->setObjectName(prefix_ + QStringLiteral(".dataType"));
  if (role == Role::Output) type_->addItem(tr("Same as input"), -1);
  for (DataType type : kAllDataTypes) type_->addItem(q(to_string(type)), static_cast<int>(type));
  dims_ = new QWidget(this);
  dims_layout_ = new QGridLayout(dims_);
  dims_layout_->setContentsMargins(0, 0, 0, 0);
  summary_ = new QLabel(this);
  summary_->setObjectName(prefix_ + QStringLiteral(".layout"));
  summary_->setWordWrap(true);
  if (role == Role::Input) {
    build_input_rows();
  } else {
    build_output_rows();
  }
  connect(type_, &QComboBox::activated, this, &TensorForm::on_type_chosen);
  connect(preset_, &QComboBox::activated, this, &TensorForm::on_preset_chosen);
}

QComboBox* TensorForm::make_preset_combo(const QString& tip) {
  auto* preset = new QComboBox(this);
  preset->setObjectName(prefix_ + QStringLiteral(".stridePreset"));
  preset->setToolTip(tip);
  return preset;
}

void TensorForm::fill_preset_items(std::size_t rank) {
  if (rank == preset_rank_ && preset_->count() > 0) return;
  preset_rank_ = rank;
  const QSignalBlocker block(preset_);
  preset_->clear();
  preset_->addItem(tr("Packed (row-major)"), choice_code({StridePreset::Packed}));
  preset_->addItem(tr("Column-major (reversed order)"), choice_code({StridePreset::ColumnMajor}));
  if (rank >= 3) preset_->addItem(tr("Channels last (NHWC)"), choice_code({StridePreset::ChannelsLast}));
  for (std::size_t a = 0; a < rank; ++a) {
    for (std::size_t b = a + 1; b < rank; ++b) {
      preset_->addItem(tr("Transpose d%1 \u2194 d%2").arg(a).arg(b), choice_code({StridePreset::Transpose, a, b}));
    }
  }
  preset_->addItem(tr("Custom"), choice_code({StridePreset::Custom}));
}

void TensorForm::build_input_rows() {
  type_->setToolTip(tr("Element type (DML_TENSOR_DATA_TYPE_*)"));
  rank_ = new QSpinBox(this);
  rank_->setObjectName(QStringLiteral("input.rank"));
  rank_->setRange(1, 8);
  rank_->setToolTip(tr("Number of dimensions; new dimensions of size 1 are added in front"));
  preset_ = make_preset_combo(tr("Packed: strides omitted, the last dimension innermost. Column-major: the first "
                                 "dimension innermost. Channels last: dimension 1 innermost. Transpose: two "
                                 "dimensions swap places in memory. Custom: type any strides; 0 broadcasts, "
                                 "larger than packed leaves gaps."));
  form_->addRow(tr("&Data type"), type_);
  form_->addRow(tr("Di&mensions"), rank_);
  form_->addRow(tr("S&trides"), preset_);
  form_->addRow(dims_);
  form_->addRow(summary_);
  connect(rank_, &QSpinBox::valueChanged, this, &TensorForm::on_rank_changed);
}

void TensorForm::build_output_rows() {
  preset_ = make_preset_combo(tr("How the output is laid out in its buffer; an output must not overlap itself"));
  indices_type_ = new QComboBox(this);
  indices_type_->setObjectName(QStringLiteral("outputIndices.dataType"));
  indices_type_->addItem(tr("None"), -1);
  indices_type_->addItem(QStringLiteral("UINT32"), static_cast<int>(DataType::UInt32));
  indices_type_->addItem(QStringLiteral("UINT64"), static_cast<int>(DataType::UInt64));
  indices_type_->setToolTip(tr("max_pooling2's optional indices output: the flat input position of each winner"));
  indices_label_ = new QLabel(tr("&Indices"), this);
  indices_label_->setBuddy(indices_type_);
  form_->addRow(tr("Data t&ype"), type_);
  form_->addRow(tr("St&rides"), preset_);
  form_->addRow(dims_);
  form_->addRow(summary_);
  form_->addRow(indices_label_, indices_type_);
  connect(indices_type_, &QComboBox::activated, this, &TensorForm::on_indices_type_chosen);
}

void TensorForm::add_row(const QString& label, QWidget* field) { form_->addRow(label, field); }
void TensorForm::add_row(QWidget* widget) { form_->addRow(widget); }

const TensorRequest& TensorForm::tensor() const {
  const OpRequest& r = host_->spec().request;
  return role_ == Role::Input ? r.input : r.output;
}

StrideChoice TensorForm::choice() const {
  const TensorRequest& t = tensor();
  return custom_chosen_ && t.strides ? StrideChoice{StridePreset::Custom} : detect_stride_choice(t);
}

void TensorForm::add_header_row() {
  dims_layout_->addWidget(header_label(tr("Dim"), dims_), 0, 0);
  if (role_ == Role::Input) {
    dims_layout_->addWidget(header_label(tr("Size"), dims_, tr("Logical size (at least 1)")), 0, 1);
    dims_layout_->addWidget(
        header_label(tr("Stride"), dims_, tr("Elements to skip for the next index; 0 broadcasts")), 0, 2);
  } else {
    dims_layout_->addWidget(header_label(tr("Size"), dims_), 0, 1);
    dims_layout_->addWidget(header_label(tr("Stride"), dims_), 0, 2);
  }
}

void TensorForm::add_dimension_row(std::size_t rank, std::size_t d, bool typed_size, bool custom) {
  const int row = static_cast<int>(d) + 1;
  const QString size_path = QStringLiteral("%1.sizes[%2]").arg(prefix_).arg(d);
  dims_layout_->addWidget(new QLabel(dimension_name(rank, d), dims_), row, 0);
  if (typed_size) {
    QSpinBox* size = make_int_field(host_, size_path, 0, dims_);
    if (role_ == Role::Output) {
      size->setToolTip(tr("slice1 copies this many elements; at most 1 + (window size \u2212 1) / |stride|"));
    }
    dims_layout_->addWidget(size, row, 1);
  } else {
    auto* size = new QLabel(dims_);
    size->setObjectName(size_path);
    size->setToolTip(tr("Determined by the operator"));
    dims_layout_->addWidget(size, row, 1);
  }
  QSpinBox* stride = make_int_field(host_, QStringLiteral("%1.strides[%2]").arg(prefix_).arg(d), 0, dims_);
  stride->setReadOnly(!custom);
  stride->setButtonSymbols(custom ? QAbstractSpinBox::UpDownArrows : QAbstractSpinBox::NoButtons);
  const QString custom_tip = role_ == Role::Input ? tr("Stride in elements; 0 broadcasts this dimension")
                                                  : tr("Output stride in elements; larger than packed leaves gaps");
  stride->setToolTip(custom ? custom_tip : tr("Choose Custom strides to edit"));
  dims_layout_->addWidget(stride, row, 2);
}

void TensorForm::rebuild_rows() {
  const Spec& spec = host_->spec();
  const std::size_t rank = spec_rank(spec);
  // The op determines the output's sizes, except slice1's, which a person may lower.
  const bool typed_sizes = role_ == Role::Input || spec.request.kind() == OpKind::Slice1;
  const bool custom = preset() == StridePreset::Custom;
  clear_children(dims_);
  add_header_row();
  for (std::size_t d = 0; d < rank; ++d) add_dimension_row(rank, d, typed_sizes, custom);
}

void TensorForm::sync_dimensions(const std::optional<std::vector<uint64_t>>& sizes) {
  const std::size_t rank = spec_rank(host_->spec());
  std::vector<uint64_t> strides;
  if (sizes) strides = shown_strides(tensor().strides, *sizes);
  for (std::size_t d = 0; d < rank; ++d) {
    const QString size_path = QStringLiteral("%1.sizes[%2]").arg(prefix_).arg(d);
    const bool known = sizes && d < sizes->size();
    if (auto* spin = findChild<QSpinBox*>(size_path)) {
      if (known) set_spin(spin, static_cast<int64_t>((*sizes)[d]));
    } else if (auto* label = findChild<QLabel*>(size_path)) {
      label->setText(known ? QString::number((*sizes)[d]) : QStringLiteral("\u2014"));
    }
    if (auto* stride = findChild<QSpinBox*>(QStringLiteral("%1.strides[%2]").arg(prefix_).arg(d))) {
      stride->setEnabled(sizes.has_value());
      if (d < strides.size()) set_spin(stride, static_cast<int64_t>(strides[d]));
    }
  }
}

void TensorForm::sync() {
  const Spec& spec = host_->spec();
  const OpRequest& r = spec.request;
  const std::size_t rank = spec_rank(spec);
  const bool pooling = r.kind() == OpKind::MaxPooling2;
  if (role_ == Role::Input) {
    if (r.input.data_type) set_combo(type_, static_cast<int>(*r.input.data_type));
    const QSignalBlocker block(rank_);
    rank_->setRange(pooling ? 4 : 1, pooling ? 5 : 8);
    rank_->setValue(static_cast<int>(rank));
  } else {
    set_combo(type_, r.output.data_type ? static_cast<int>(*r.output.data_type) : -1);
  }
  fill_preset_items(rank);
  set_combo(preset_, choice_code(choice()));
  if (role_ == Role::Input) {
    sync_dimensions(r.input.sizes.value_or(std::vector<uint64_t>{}));
    return;
  }
  sync_dimensions(output_sizes_of(spec));
  indices_label_->setVisible(pooling);
  indices_type_->setVisible(pooling);
  set_combo(indices_type_,
            r.output_indices && r.output_indices->data_type ? static_cast<int>(*r.output_indices->data_type) : -1);
}

void TensorForm::set_summary(const TensorDesc* desc) { summary_->setText(desc ? tensor_summary(*desc) : QString()); }

void TensorForm::on_type_chosen(int index) {
  Spec next = host_->spec();
  const int chosen = type_->itemData(index).toInt();
  if (role_ == Role::Output) {
    next.request.output.data_type = chosen < 0 ? std::nullopt : std::optional(static_cast<DataType>(chosen));
    host_->edit(std::move(next), tr("Set output type to %1").arg(type_->itemText(index)));
    return;
  }
  const auto type = static_cast<DataType>(chosen);
  // An output that followed the input's type keeps following it.
  if (next.request.output.data_type && next.request.output.data_type == next.request.input.data_type) {
    next.request.output.data_type = type;
  }
  next.request.input.data_type = type;
  host_->edit(std::move(next), tr("Set input type to %1").arg(type_->itemText(index)));
}

void TensorForm::on_preset_chosen(int index) {
  Spec next = host_->spec();
  const StrideChoice chosen = choice_of_code(preset_->itemData(index).toInt());
  if (role_ == Role::Input) {
    if (!next.request.input.sizes) return;
    custom_chosen_ = chosen.preset == StridePreset::Custom;
    next.request.input.strides = choice_strides(chosen, *next.request.input.sizes, next.request.input.strides);
    fit_values_to_input(next);
    host_->edit(std::move(next), tr("Input strides: %1").arg(preset_->itemText(index)));
    return;
  }
  const auto sizes = output_sizes_of(next);
  if (chosen.preset != StridePreset::Packed && !sizes) return;
  custom_chosen_ = chosen.preset == StridePreset::Custom;
  next.request.output.strides = chosen.preset == StridePreset::Packed
                                    ? std::nullopt
                                    : choice_strides(chosen, *sizes, next.request.output.strides);
  host_->edit(std::move(next), tr("Output strides: %1").arg(preset_->itemText(index)));
}

void TensorForm::on_rank_changed(int rank) {
  const StrideChoice before = choice();
  Spec next = with_rank(host_->spec(), static_cast<std::size_t>(rank));
  // Column-major and channels-last name a layout for any rank: they follow
  // it. A transpose keeps its two dimensions (with_rank keeps the strides'
  // order), and so does Custom.
  const bool by_rank = before.preset == StridePreset::ColumnMajor || before.preset == StridePreset::ChannelsLast;
  if (by_rank && next.request.input.sizes && choice_fits_rank(before, next.request.input.sizes->size())) {
    next.request.input.strides = choice_strides(before, *next.request.input.sizes, std::nullopt);
  }
  fit_values_to_input(next);
  host_->edit(std::move(next), tr("Set dimensions to %1").arg(rank), QStringLiteral("input.rank"));
}

void TensorForm::on_indices_type_chosen(int index) {
  Spec next = host_->spec();
  const int chosen = indices_type_->itemData(index).toInt();
  if (chosen < 0) {
    next.request.output_indices.reset();
  } else {
    next.request.output_indices = TensorRequest{static_cast<DataType>(chosen), std::nullopt, std::nullopt};
  }
  host_->edit(std::move(next), tr("Indices: %1").arg(indices_type_->itemText(index)));
}

}  // namespace stridescope::ui
