#include "ui/widgets/spec_editor.h"

#include <climits>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QPalette>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>

#include "core/operation.h"
#include "ui/spec_edits.h"
#include "ui/text_format.h"

namespace stridescope::ui {
namespace {

enum FillIndex { kFillIota, kFillZeros, kFillRandom, kFillValues, kFillNpy };

int fill_index(const InputSource& source) {
  if (const auto* fill = std::get_if<Fill>(&source)) return static_cast<int>(fill->index());
  return std::holds_alternative<std::vector<Scalar>>(source) ? kFillValues : kFillNpy;
}

QString q(const std::string& s) { return QString::fromStdString(s); }
QString q(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }

struct ColumnInfo {
  QString title;
  QString tip;
};

// The tensor dimension that entry i of a parameter array describes:
// max_pooling2's arrays have one entry per spatial dimension (2, 3, ...).
std::size_t param_dimension(OpKind kind, std::size_t i) { return kind == OpKind::MaxPooling2 ? i + 2 : i; }

ColumnInfo column_info(OpKind kind, const std::string& field) {
  const bool pooling = kind == OpKind::MaxPooling2;
  if (field == "params.offsets") return {QObject::tr("Offset"), QObject::tr("First input index the slice reads")};
  if (field == "params.sizes") return {QObject::tr("Size"), QObject::tr("Output size: how many elements the slice takes")};
  if (field == "params.strides") {
    return pooling ? ColumnInfo{QObject::tr("Stride"), QObject::tr("Step between neighbouring windows")}
                   : ColumnInfo{QObject::tr("Stride"), QObject::tr("Step between the input indices read (at least 1)")};
  }
  if (field == "params.inputWindowOffsets") return {QObject::tr("Window offset"), QObject::tr("Where the input window starts")};
  if (field == "params.inputWindowSizes") return {QObject::tr("Window size"), QObject::tr("Extent of the input window; it must lie inside the input")};
  if (field == "params.inputWindowStrides") {
    return {QObject::tr("Window stride"),
            QObject::tr("Step through the window; a negative stride starts at the window's end and walks back")};
  }
  if (field == "params.startPadding") {
    return pooling ? ColumnInfo{QObject::tr("Start pad"), QObject::tr("Padding before the input; padded taps never win")}
                   : ColumnInfo{QObject::tr("Start pad"), QObject::tr("Elements added before the input")};
  }
  if (field == "params.endPadding") {
    return pooling ? ColumnInfo{QObject::tr("End pad"), QObject::tr("Padding after the input; padded taps never win")}
                   : ColumnInfo{QObject::tr("End pad"), QObject::tr("Elements added after the input")};
  }
  if (field == "params.windowSize") return {QObject::tr("Window"), QObject::tr("Taps per window in this spatial dimension")};
  if (field == "params.dilations") return {QObject::tr("Dilation"), QObject::tr("Distance between window taps (1: adjacent)")};
  return {q(field), {}};
}

// What the form calls the field at spec path `path` ("Window stride, dim 2
// (H)" for params.inputWindowStrides[2]); empty for paths it has no field for.
QString field_label(OpKind kind, std::size_t rank, const QString& path) {
  const QString base = path.section(QLatin1Char('['), 0, 0);
  bool has_index = false;
  const int index = path.section(QLatin1Char('['), 1).section(QLatin1Char(']'), 0, 0).toInt(&has_index);
  const QString group = base.section(QLatin1Char('.'), 0, 0);
  const QString field = base.section(QLatin1Char('.'), 1);
  auto dim = [&](std::size_t d) { return QObject::tr(", dim %1").arg(dimension_name(rank, d)); };
  if (group == QLatin1String("params")) {
    if (field == QLatin1String("paddingValue")) return QObject::tr("Padding value");
    if (field == QLatin1String("paddingMode")) return QObject::tr("Mode");
    const ColumnInfo column = column_info(kind, base.toStdString());
    if (column.tip.isEmpty()) return {};
    if (!has_index) return column.title;
    return column.title + dim(param_dimension(kind, static_cast<std::size_t>(index)));
  }
  const QString tensor = group == QLatin1String("input")           ? QObject::tr("Input")
                         : group == QLatin1String("output")        ? QObject::tr("Output")
                         : group == QLatin1String("outputIndices") ? QObject::tr("Indices")
                                                                   : QString();
  if (tensor.isEmpty()) return {};
  if (field == QLatin1String("sizes")) return has_index ? tensor + QObject::tr(" size") + dim(index) : tensor + QObject::tr(" sizes");
  if (field == QLatin1String("strides")) {
    return has_index ? tensor + QObject::tr(" stride") + dim(index) : tensor + QObject::tr(" strides");
  }
  if (field == QLatin1String("dataType")) return tensor + QObject::tr(" data type");
  if (field == QLatin1String("data")) return has_index ? QObject::tr("Values, element %1").arg(index) : QObject::tr("Values");
  if (field.startsWith(QLatin1String("fill")) || field == QLatin1String("npy")) return QObject::tr("Values");
  return {};
}

QString op_help(OpKind kind) {
  switch (kind) {
    case OpKind::Identity:
      return QObject::tr("A tensor and its strides, no operator: the output is the same logical tensor "
                         "copied through both tensors' strides. Watch the memory strips.");
    case OpKind::Slice:
      return QObject::tr("DML_SLICE: Output[o] = Input[Offsets + Strides \u00d7 o]; Sizes are the output sizes.");
    case OpKind::Slice1:
      return QObject::tr("DML_SLICE1: copies from an input window. A negative stride starts at the window's "
                         "end (offset + size \u2212 1) and walks backwards.");
    case OpKind::Padding:
      return QObject::tr("DML_PADDING: each output dimension is input + start + end; the mode fills the padding "
                         "(CONSTANT value, EDGE clamp, REFLECTION, SYMMETRIC mirrors).");
    case OpKind::MaxPooling2:
      return QObject::tr("DML_MAX_POOLING2: the maximum of each window over the spatial dimensions; padded "
                         "taps never win; indices give the winner's flat position in the input.");
  }
  return {};
}

std::optional<std::vector<uint64_t>> output_sizes_of(const Spec& spec) {
  if (spec.request.output.sizes) return spec.request.output.sizes;
  const Expected<std::optional<Sizes>> inferred = infer_output_sizes(spec.request);
  if (!inferred || !inferred.value()) return std::nullopt;
  return std::vector<uint64_t>(inferred.value()->begin(), inferred.value()->end());
}

// Removes a grid's widgets. Deferred, because the edit that changed the
// form's shape may still be inside one of their signals; renamed at once, so
// field lookups by spec path find only the new ones.
void clear_children(QWidget* container) {
  const auto children = container->findChildren<QWidget*>(QString(), Qt::FindDirectChildrenOnly);
  for (QWidget* child : children) {
    child->setObjectName(QString());
    for (QWidget* inner : child->findChildren<QWidget*>()) inner->setObjectName(QString());
    child->hide();
    if (QLayout* layout = container->layout()) layout->removeWidget(child);
    child->disconnect();
    child->deleteLater();
  }
}

QLabel* header_label(const QString& text, QWidget* parent, const QString& tip = {}) {
  auto* label = new QLabel(text, parent);
  QFont font = label->font();
  font.setBold(true);
  label->setFont(font);
  label->setToolTip(tip);
  return label;
}

}  // namespace

SpecEditor::SpecEditor(SpecDocument* document, QWidget* parent) : QWidget(parent), document_(document) {
  setObjectName(QStringLiteral("specEditor"));
  build_static();
  connect(document_, &SpecDocument::fileChanged, this, [this] {
    input_custom_chosen_ = false;
    output_custom_chosen_ = false;
  });
  connect(document_, &SpecDocument::specChanged, this, &SpecEditor::sync_from_spec);
  sync_from_spec();
}

void SpecEditor::build_static() {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 6, 6, 6);

  error_banner_ = new QLabel(this);
  error_banner_->setObjectName(QStringLiteral("errorBanner"));
  error_banner_->setWordWrap(true);
  error_banner_->setTextFormat(Qt::RichText);
  error_banner_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  error_banner_->setStyleSheet(QStringLiteral(
      "QLabel { background: #fce3d5; color: #000; border: 1px solid #d55e00; border-radius: 3px; padding: 4px; }"));
  error_banner_->hide();
  layout->addWidget(error_banner_);

  // Operator.
  auto* op_group = new QGroupBox(tr("Operator"), this);
  op_group->setObjectName(QStringLiteral("opGroup"));
  auto* op_layout = new QVBoxLayout(op_group);
  op_combo_ = new QComboBox(op_group);
  op_combo_->setObjectName(QStringLiteral("op"));
  op_combo_->addItem(tr("Layout only (no operator)"), static_cast<int>(OpKind::Identity));
  op_combo_->addItem(QStringLiteral("slice"), static_cast<int>(OpKind::Slice));
  op_combo_->addItem(QStringLiteral("slice1"), static_cast<int>(OpKind::Slice1));
  op_combo_->addItem(QStringLiteral("padding"), static_cast<int>(OpKind::Padding));
  op_combo_->addItem(QStringLiteral("max_pooling2"), static_cast<int>(OpKind::MaxPooling2));
  op_combo_->setToolTip(tr("The DirectML operator to apply"));
  op_help_ = new QLabel(op_group);
  op_help_->setWordWrap(true);
  op_layout->addWidget(op_combo_);
  op_layout->addWidget(op_help_);
  layout->addWidget(op_group);
  connect(op_combo_, &QComboBox::activated, this, &SpecEditor::on_op_chosen);

  // Input tensor.
  auto* input_group = new QGroupBox(tr("Input tensor"), this);
  input_group->setObjectName(QStringLiteral("inputGroup"));
  auto* input_form = new QFormLayout(input_group);
  input_type_ = new QComboBox(input_group);
  input_type_->setObjectName(QStringLiteral("input.dataType"));
  for (DataType type : kAllDataTypes) input_type_->addItem(q(to_string(type)), static_cast<int>(type));
  input_type_->setToolTip(tr("Element type (DML_TENSOR_DATA_TYPE_*)"));
  rank_ = new QSpinBox(input_group);
  rank_->setObjectName(QStringLiteral("input.rank"));
  rank_->setRange(1, 8);
  rank_->setToolTip(tr("Number of dimensions; new dimensions of size 1 are added in front"));
  input_preset_ = new QComboBox(input_group);
  input_preset_->setObjectName(QStringLiteral("input.stridePreset"));
  input_preset_->addItem(tr("Packed (row-major)"), static_cast<int>(StridePreset::Packed));
  input_preset_->addItem(tr("Channels last (NHWC)"), static_cast<int>(StridePreset::ChannelsLast));
  input_preset_->addItem(tr("Custom"), static_cast<int>(StridePreset::Custom));
  input_preset_->setToolTip(tr("Packed: strides omitted. Channels last: dimension 1 innermost. "
                               "Custom: type any strides; 0 broadcasts, larger than packed leaves gaps."));
  input_dims_ = new QWidget(input_group);
  input_dims_layout_ = new QGridLayout(input_dims_);
  input_dims_layout_->setContentsMargins(0, 0, 0, 0);
  input_layout_ = new QLabel(input_group);
  input_layout_->setObjectName(QStringLiteral("input.layout"));
  input_layout_->setWordWrap(true);

  fill_ = new QComboBox(input_group);
  fill_->setObjectName(QStringLiteral("input.fill"));
  fill_->addItem(tr("Iota (1, 2, 3, \u2026 in buffer order)"));
  fill_->addItem(tr("Zeros"));
  fill_->addItem(tr("Seeded random"));
  fill_->addItem(tr("Typed values"));
  fill_->addItem(tr("NumPy .npy file"));
  fill_->setToolTip(tr("Where the input buffer's values come from"));
  fill_pages_ = new QStackedWidget(input_group);
  fill_pages_->addWidget(new QWidget(fill_pages_));  // iota
  fill_pages_->addWidget(new QWidget(fill_pages_));  // zeros
  auto* random_page = new QWidget(fill_pages_);
  auto* random_layout = new QHBoxLayout(random_page);
  random_layout->setContentsMargins(0, 0, 0, 0);
  random_seed_ = new QSpinBox(random_page);
  random_seed_->setObjectName(QStringLiteral("input.fill.random.seed"));
  random_seed_->setRange(0, INT_MAX);
  random_seed_->setPrefix(tr("seed "));
  random_min_ = new QDoubleSpinBox(random_page);
  random_min_->setObjectName(QStringLiteral("input.fill.random.min"));
  random_max_ = new QDoubleSpinBox(random_page);
  random_max_->setObjectName(QStringLiteral("input.fill.random.max"));
  for (QDoubleSpinBox* box : {random_min_, random_max_}) {
    box->setRange(-1e9, 1e9);
    box->setDecimals(2);
  }
  random_min_->setPrefix(tr("min "));
  random_max_->setPrefix(tr("max "));
  random_layout->addWidget(random_seed_);
  random_layout->addWidget(random_min_);
  random_layout->addWidget(random_max_);
  fill_pages_->addWidget(random_page);
  auto* values_page = new QWidget(fill_pages_);
  auto* values_layout = new QVBoxLayout(values_page);
  values_layout->setContentsMargins(0, 0, 0, 0);
  values_ = new QLineEdit(values_page);
  values_->setObjectName(QStringLiteral("input.data"));
  values_->setPlaceholderText(tr("1, 2, 3, \u2026 in buffer order"));
  values_->setToolTip(tr("The physical buffer, element by element (Enter applies). "
                         "You can also double-click an input cell to type its value."));
  values_layout->addWidget(values_);
  fill_pages_->addWidget(values_page);
  auto* npy_page = new QWidget(fill_pages_);
  auto* npy_layout = new QHBoxLayout(npy_page);
  npy_layout->setContentsMargins(0, 0, 0, 0);
  npy_path_ = new QLineEdit(npy_page);
  npy_path_->setObjectName(QStringLiteral("input.npy"));
  npy_path_->setReadOnly(true);
  npy_browse_ = new QPushButton(tr("&Browse\u2026"), npy_page);
  npy_browse_->setObjectName(QStringLiteral("input.npyBrowse"));
  npy_layout->addWidget(npy_path_, 1);
  npy_layout->addWidget(npy_browse_);
  fill_pages_->addWidget(npy_page);

  input_form->addRow(tr("&Data type"), input_type_);
  input_form->addRow(tr("Di&mensions"), rank_);
  input_form->addRow(tr("S&trides"), input_preset_);
  input_form->addRow(input_dims_);
  input_form->addRow(input_layout_);
  input_form->addRow(tr("&Values"), fill_);
  input_form->addRow(fill_pages_);
  layout->addWidget(input_group);

  connect(input_type_, &QComboBox::activated, this, &SpecEditor::on_input_type_chosen);
  connect(rank_, &QSpinBox::valueChanged, this, &SpecEditor::on_rank_changed);
  connect(input_preset_, &QComboBox::activated, this, &SpecEditor::on_input_preset_chosen);
  connect(fill_, &QComboBox::activated, this, &SpecEditor::on_fill_chosen);
  connect(random_seed_, &QSpinBox::valueChanged, this, &SpecEditor::on_random_changed);
  connect(random_min_, &QDoubleSpinBox::valueChanged, this, &SpecEditor::on_random_changed);
  connect(random_max_, &QDoubleSpinBox::valueChanged, this, &SpecEditor::on_random_changed);
  connect(values_, &QLineEdit::editingFinished, this, &SpecEditor::on_values_edited);
  connect(npy_browse_, &QPushButton::clicked, this, &SpecEditor::npyFileRequested);

  // Parameters.
  params_group_ = new QGroupBox(tr("Parameters"), this);
  params_group_->setObjectName(QStringLiteral("paramsGroup"));
  auto* params_layout = new QVBoxLayout(params_group_);
  params_help_ = new QLabel(params_group_);
  params_help_->setWordWrap(true);
  padding_row_ = new QWidget(params_group_);
  auto* padding_layout = new QFormLayout(padding_row_);
  padding_layout->setContentsMargins(0, 0, 0, 0);
  padding_mode_ = new QComboBox(padding_row_);
  padding_mode_->setObjectName(QStringLiteral("params.paddingMode"));
  for (PaddingMode mode : {PaddingMode::Constant, PaddingMode::Edge, PaddingMode::Reflection, PaddingMode::Symmetric}) {
    padding_mode_->addItem(q(to_string(mode)), static_cast<int>(mode));
  }
  padding_mode_->setToolTip(tr("CONSTANT: the padding value. EDGE: the nearest edge element. REFLECTION: mirror "
                               "without repeating the edge. SYMMETRIC: mirror repeating the edge."));
  padding_value_ = new QLineEdit(padding_row_);
  padding_value_->setObjectName(QStringLiteral("params.paddingValue"));
  padding_value_->setToolTip(tr("The CONSTANT padding value, converted to the tensor's type "
                                "(integers truncate toward zero)"));
  padding_layout->addRow(tr("M&ode"), padding_mode_);
  padding_layout->addRow(tr("Padding va&lue"), padding_value_);
  params_dims_ = new QWidget(params_group_);
  params_dims_layout_ = new QGridLayout(params_dims_);
  params_dims_layout_->setContentsMargins(0, 0, 0, 0);
  output_sizes_ = new QLabel(params_group_);
  output_sizes_->setObjectName(QStringLiteral("outputSizes"));
  output_sizes_->setToolTip(tr("The output sizes these parameters give, updated as you type"));
  params_layout->addWidget(params_help_);
  params_layout->addWidget(padding_row_);
  params_layout->addWidget(params_dims_);
  params_layout->addWidget(output_sizes_);
  layout->addWidget(params_group_);
  connect(padding_mode_, &QComboBox::activated, this, &SpecEditor::on_padding_mode_chosen);
  connect(padding_value_, &QLineEdit::textEdited, this, &SpecEditor::on_padding_value_edited);

  // Output tensor.
  output_group_ = new QGroupBox(tr("Output tensor"), this);
  output_group_->setObjectName(QStringLiteral("outputGroup"));
  auto* output_form = new QFormLayout(output_group_);
  output_type_ = new QComboBox(output_group_);
  output_type_->setObjectName(QStringLiteral("output.dataType"));
  output_type_->addItem(tr("Same as input"), -1);
  for (DataType type : kAllDataTypes) output_type_->addItem(q(to_string(type)), static_cast<int>(type));
  output_preset_ = new QComboBox(output_group_);
  output_preset_->setObjectName(QStringLiteral("output.stridePreset"));
  output_preset_->addItem(tr("Packed (row-major)"), static_cast<int>(StridePreset::Packed));
  output_preset_->addItem(tr("Channels last (NHWC)"), static_cast<int>(StridePreset::ChannelsLast));
  output_preset_->addItem(tr("Custom"), static_cast<int>(StridePreset::Custom));
  output_preset_->setToolTip(tr("How the output is laid out in its buffer; an output must not overlap itself"));
  output_dims_ = new QWidget(output_group_);
  output_dims_layout_ = new QGridLayout(output_dims_);
  output_dims_layout_->setContentsMargins(0, 0, 0, 0);
  output_layout_ = new QLabel(output_group_);
  output_layout_->setObjectName(QStringLiteral("output.layout"));
  output_layout_->setWordWrap(true);
  indices_type_ = new QComboBox(output_group_);
  indices_type_->setObjectName(QStringLiteral("outputIndices.dataType"));
  indices_type_->addItem(tr("None"), -1);
  indices_type_->addItem(QStringLiteral("UINT32"), static_cast<int>(DataType::UInt32));
  indices_type_->addItem(QStringLiteral("UINT64"), static_cast<int>(DataType::UInt64));
  indices_type_->setToolTip(tr("max_pooling2's optional indices output: the flat input position of each winner"));
  indices_label_ = new QLabel(tr("&Indices"), output_group_);
  indices_label_->setBuddy(indices_type_);
  output_form->addRow(tr("Data t&ype"), output_type_);
  output_form->addRow(tr("St&rides"), output_preset_);
  output_form->addRow(output_dims_);
  output_form->addRow(output_layout_);
  output_form->addRow(indices_label_, indices_type_);
  layout->addWidget(output_group_);
  connect(output_type_, &QComboBox::activated, this, &SpecEditor::on_output_type_chosen);
  connect(output_preset_, &QComboBox::activated, this, &SpecEditor::on_output_preset_chosen);
  connect(indices_type_, &QComboBox::activated, this, &SpecEditor::on_indices_type_chosen);

  layout->addStretch(1);
}

QString SpecEditor::structure_key() const {
  const Spec& spec = document_->spec();
  return QStringLiteral("%1|%2|%3|%4|%5")
      .arg(static_cast<int>(spec.request.kind()))
      .arg(spec_rank(spec))
      .arg(input_preset() == StridePreset::Custom)
      .arg(output_preset() == StridePreset::Custom)
      .arg(spec.request.output.sizes.has_value() && spec.request.kind() == OpKind::Slice1);
}

StridePreset SpecEditor::input_preset() const {
  const TensorRequest& t = document_->spec().request.input;
  return input_custom_chosen_ && t.strides ? StridePreset::Custom : detect_preset(t);
}

StridePreset SpecEditor::output_preset() const {
  const TensorRequest& t = document_->spec().request.output;
  return output_custom_chosen_ && t.strides ? StridePreset::Custom : detect_preset(t);
}

QSpinBox* SpecEditor::make_int_field(const QString& path, int minimum, QWidget* parent) {
  auto* spin = new QSpinBox(parent);
  spin->setObjectName(path);
  spin->setRange(minimum, INT_MAX);
  spin->setAccelerated(true);
  spin->setMinimumWidth(spin->fontMetrics().horizontalAdvance(QStringLiteral("-00000")) + 30);
  connect(spin, &QSpinBox::valueChanged, this, [this, path](int value) { edit_int(path, value); });
  return spin;
}

void SpecEditor::rebuild_dimension_rows() {
  const Spec& spec = document_->spec();
  const std::size_t rank = spec_rank(spec);
  const OpKind kind = spec.request.kind();
  built_key_ = structure_key();
  unmark();

  // Input: one row per dimension.
  clear_children(input_dims_);
  input_dims_layout_->addWidget(header_label(tr("Dim"), input_dims_), 0, 0);
  input_dims_layout_->addWidget(header_label(tr("Size"), input_dims_, tr("Logical size (at least 1)")), 0, 1);
  input_dims_layout_->addWidget(
      header_label(tr("Stride"), input_dims_, tr("Elements to skip for the next index; 0 broadcasts")), 0, 2);
  const bool input_custom = input_preset() == StridePreset::Custom;
  for (std::size_t d = 0; d < rank; ++d) {
    const int row = static_cast<int>(d) + 1;
    input_dims_layout_->addWidget(new QLabel(dimension_name(rank, d), input_dims_), row, 0);
    input_dims_layout_->addWidget(make_int_field(QStringLiteral("input.sizes[%1]").arg(d), 0, input_dims_), row, 1);
    QSpinBox* stride = make_int_field(QStringLiteral("input.strides[%1]").arg(d), 0, input_dims_);
    stride->setReadOnly(!input_custom);
    stride->setButtonSymbols(input_custom ? QAbstractSpinBox::UpDownArrows : QAbstractSpinBox::NoButtons);
    stride->setToolTip(input_custom ? tr("Stride in elements; 0 broadcasts this dimension")
                                    : tr("Choose Custom strides to edit"));
    input_dims_layout_->addWidget(stride, row, 2);
  }

  // Output: sizes (typed for slice1, inferred otherwise) and strides.
  clear_children(output_dims_);
  output_dims_layout_->addWidget(header_label(tr("Dim"), output_dims_), 0, 0);
  output_dims_layout_->addWidget(header_label(tr("Size"), output_dims_), 0, 1);
  output_dims_layout_->addWidget(header_label(tr("Stride"), output_dims_), 0, 2);
  const bool output_custom = output_preset() == StridePreset::Custom;
  const bool typed_sizes = kind == OpKind::Slice1;
  for (std::size_t d = 0; d < rank; ++d) {
    const int row = static_cast<int>(d) + 1;
    const QString size_path = QStringLiteral("output.sizes[%1]").arg(d);
    output_dims_layout_->addWidget(new QLabel(dimension_name(rank, d), output_dims_), row, 0);
    if (typed_sizes) {
      QSpinBox* size = make_int_field(size_path, 0, output_dims_);
      size->setToolTip(tr("slice1 copies this many elements; at most 1 + (window size \u2212 1) / |stride|"));
      output_dims_layout_->addWidget(size, row, 1);
    } else {
      auto* size = new QLabel(output_dims_);
      size->setObjectName(size_path);
      size->setToolTip(tr("Determined by the operator"));
      output_dims_layout_->addWidget(size, row, 1);
    }
    QSpinBox* stride = make_int_field(QStringLiteral("output.strides[%1]").arg(d), 0, output_dims_);
    stride->setReadOnly(!output_custom);
    stride->setButtonSymbols(output_custom ? QAbstractSpinBox::UpDownArrows : QAbstractSpinBox::NoButtons);
    stride->setToolTip(output_custom ? tr("Output stride in elements; larger than packed leaves gaps")
                                     : tr("Choose Custom strides to edit"));
    output_dims_layout_->addWidget(stride, row, 2);
  }

  // Parameters: a column per array field, a row per dimension it describes.
  clear_children(params_dims_);
  const std::vector<std::string> fields = param_array_fields(kind);
  const bool pooling = kind == OpKind::MaxPooling2;
  if (!fields.empty()) params_dims_layout_->addWidget(header_label(tr("Dim"), params_dims_), 0, 0);
  for (std::size_t f = 0; f < fields.size(); ++f) {
    const ColumnInfo info = column_info(kind, fields[f]);
    params_dims_layout_->addWidget(header_label(info.title, params_dims_, info.tip), 0, static_cast<int>(f) + 1);
  }
  const std::size_t rows = fields.empty() ? 0 : (pooling ? (rank > 2 ? rank - 2 : 0) : rank);
  for (std::size_t i = 0; i < rows; ++i) {
    const int row = static_cast<int>(i) + 1;
    params_dims_layout_->addWidget(new QLabel(dimension_name(rank, param_dimension(kind, i)), params_dims_), row, 0);
    for (std::size_t f = 0; f < fields.size(); ++f) {
      const bool signed_field = fields[f] == "params.inputWindowStrides";
      QSpinBox* spin = make_int_field(QStringLiteral("%1[%2]").arg(q(fields[f])).arg(i), signed_field ? -INT_MAX : 0,
                                      params_dims_);
      spin->setToolTip(column_info(kind, fields[f]).tip);
      params_dims_layout_->addWidget(spin, row, static_cast<int>(f) + 1);
    }
  }
}

void SpecEditor::sync_from_spec() {
  syncing_ = true;
  const Spec& spec = document_->spec();
  const OpRequest& r = spec.request;
  const OpKind kind = r.kind();
  const std::size_t rank = spec_rank(spec);
  if (structure_key() != built_key_) rebuild_dimension_rows();

  const auto set_combo = [](QComboBox* combo, int item_data) {
    const QSignalBlocker block(combo);
    combo->setCurrentIndex(std::max(0, combo->findData(item_data)));
  };
  const auto set_spin = [](QSpinBox* spin, int64_t value) {
    if (!spin) return;
    const QSignalBlocker block(spin);
    spin->setValue(static_cast<int>(std::clamp<int64_t>(value, spin->minimum(), spin->maximum())));
  };

  set_combo(op_combo_, static_cast<int>(kind));
  op_help_->setText(op_help(kind));

  // Input.
  if (r.input.data_type) set_combo(input_type_, static_cast<int>(*r.input.data_type));
  {
    const QSignalBlocker block(rank_);
    rank_->setRange(kind == OpKind::MaxPooling2 ? 4 : 1, kind == OpKind::MaxPooling2 ? 5 : 8);
    rank_->setValue(static_cast<int>(rank));
  }
  set_combo(input_preset_, static_cast<int>(input_preset()));
  input_preset_->setItemData(1, rank >= 3 ? QVariant() : QVariant(0), Qt::UserRole - 1);  // NHWC needs 3+ dims
  std::vector<uint64_t> in_sizes = r.input.sizes.value_or(std::vector<uint64_t>{});
  const auto shown_strides = [](const std::optional<std::vector<uint64_t>>& strides, const std::vector<uint64_t>& sizes) {
    if (strides) return *strides;
    if (sizes.empty() || sizes.size() > kMaxRank) return std::vector<uint64_t>(sizes.size(), 0);
    return *preset_strides(StridePreset::Custom, sizes, std::nullopt);
  };
  const std::vector<uint64_t> in_strides = shown_strides(r.input.strides, in_sizes);
  for (std::size_t d = 0; d < rank; ++d) {
    set_spin(findChild<QSpinBox*>(QStringLiteral("input.sizes[%1]").arg(d)), static_cast<int64_t>(in_sizes[d]));
    if (d < in_strides.size()) {
      set_spin(findChild<QSpinBox*>(QStringLiteral("input.strides[%1]").arg(d)), static_cast<int64_t>(in_strides[d]));
    }
  }

  const int fill = fill_index(spec.input_source);
  {
    const QSignalBlocker block(fill_);
    fill_->setCurrentIndex(fill);
  }
  fill_pages_->setCurrentIndex(fill);
  fill_pages_->setVisible(fill >= kFillRandom);
  if (const auto* f = std::get_if<Fill>(&spec.input_source)) {
    if (const auto* random = std::get_if<FillRandom>(f)) {
      set_spin(random_seed_, static_cast<int64_t>(std::min<uint64_t>(random->seed, INT_MAX)));
      const QSignalBlocker b1(random_min_);
      const QSignalBlocker b2(random_max_);
      random_min_->setValue(random->min);
      random_max_->setValue(random->max);
    }
  } else if (const auto* values = std::get_if<std::vector<Scalar>>(&spec.input_source)) {
    if (!values_->hasFocus() || values_->text().isEmpty()) values_->setText(q(format_values(*values)));
  } else if (const auto* file = std::get_if<std::filesystem::path>(&spec.input_source)) {
    npy_path_->setText(q(file->string()));
  }

  // Parameters.
  params_group_->setTitle(kind == OpKind::Identity ? tr("Parameters") : tr("Parameters \u2014 %1").arg(q(to_string(kind))));
  params_help_->setVisible(kind == OpKind::Identity || kind == OpKind::MaxPooling2);
  params_help_->setText(kind == OpKind::Identity
                            ? tr("No parameters: change the input's and the output's strides to see the same "
                                 "logical tensor laid out differently in memory.")
                            : tr("One row per spatial dimension."));
  padding_row_->setVisible(kind == OpKind::Padding);
  if (const auto* pad = std::get_if<PaddingRequest>(&r.params)) {
    set_combo(padding_mode_, static_cast<int>(pad->padding_mode));
    if (!padding_value_->hasFocus()) padding_value_->setText(q(format_scalar(pad->padding_value)));
    padding_value_->setEnabled(pad->padding_mode == PaddingMode::Constant);
  }
  for (const std::string& field : param_array_fields(kind)) {
    for (int i = 0; i < static_cast<int>(kMaxRank); ++i) {
      const QString path = QStringLiteral("%1[%2]").arg(q(field)).arg(i);
      QSpinBox* spin = findChild<QSpinBox*>(path);
      if (!spin) break;
      if (const auto value = int_field(spec, path.toStdString())) set_spin(spin, *value);
    }
  }

  // Output.
  set_combo(output_type_, r.output.data_type ? static_cast<int>(*r.output.data_type) : -1);
  set_combo(output_preset_, static_cast<int>(output_preset()));
  output_preset_->setItemData(1, rank >= 3 ? QVariant() : QVariant(0), Qt::UserRole - 1);
  const std::optional<std::vector<uint64_t>> out_sizes = output_sizes_of(spec);
  std::vector<uint64_t> out_strides;
  if (out_sizes) out_strides = shown_strides(r.output.strides, *out_sizes);
  for (std::size_t d = 0; d < rank; ++d) {
    const QString size_path = QStringLiteral("output.sizes[%1]").arg(d);
    const QString size_text = out_sizes && d < out_sizes->size() ? QString::number((*out_sizes)[d]) : QStringLiteral("\u2014");
    if (auto* spin = findChild<QSpinBox*>(size_path)) {
      if (out_sizes && d < out_sizes->size()) set_spin(spin, static_cast<int64_t>((*out_sizes)[d]));
    } else if (auto* label = findChild<QLabel*>(size_path)) {
      label->setText(size_text);
    }
    if (auto* stride = findChild<QSpinBox*>(QStringLiteral("output.strides[%1]").arg(d))) {
      stride->setEnabled(out_sizes.has_value());
      if (d < out_strides.size()) set_spin(stride, static_cast<int64_t>(out_strides[d]));
    }
  }
  const bool pooling = kind == OpKind::MaxPooling2;
  indices_label_->setVisible(pooling);
  indices_type_->setVisible(pooling);
  set_combo(indices_type_, r.output_indices && r.output_indices->data_type ? static_cast<int>(*r.output_indices->data_type) : -1);

  output_sizes_->setText(out_sizes ? tr("Output sizes: %1").arg(shape_text(Sizes(std::span<const uint64_t>(*out_sizes))))
                                   : tr("Output sizes: \u2014"));
  syncing_ = false;
  refresh_error();
}

namespace {
QString tensor_summary(const TensorDesc& desc) {
  const QString w = layout_words(desc.layout());
  return QStringLiteral("%1 \u2014 %2").arg(w.isEmpty() ? QObject::tr("layout") : w, buffer_summary(desc));
}
}  // namespace

void SpecEditor::set_evaluation(EvaluationPtr evaluation) {
  evaluation_ = std::move(evaluation);
  if (!evaluation_) return;
  const Operation& op = evaluation_->op();
  input_layout_->setText(tensor_summary(op.input()));
  output_layout_->setText(tensor_summary(op.output()));
}

void SpecEditor::summarise_invalid_spec() {
  // The input may be valid on its own; the output depends on the whole op.
  const Expected<TensorDesc> input = validate_input(document_->spec().request);
  input_layout_->setText(input ? tensor_summary(*input) : QString());
  output_layout_->setText(QString());
}

void SpecEditor::edit(Spec next, const QString& text, const QString& merge_key) {
  if (syncing_) return;
  local_error_.reset();
  // Sizes the operator determines follow its parameters: a spec that spelled
  // them out (as the examples do) must not turn invalid when an edit moves them.
  if (next.request.kind() != OpKind::Slice1) next.request.output.sizes.reset();
  document_->edit(std::move(next), text, merge_key);
}

void SpecEditor::edit_int(const QString& path, int value) {
  if (syncing_) return;
  Spec next = document_->spec();
  OpRequest& r = next.request;
  const std::string p = path.toStdString();
  if (path.startsWith(QLatin1String("input.strides")) && !r.input.strides && r.input.sizes) {
    r.input.strides = preset_strides(StridePreset::Custom, *r.input.sizes, std::nullopt);
  }
  if (path.startsWith(QLatin1String("output.strides")) && !r.output.strides) {
    if (const auto sizes = output_sizes_of(next)) r.output.strides = preset_strides(StridePreset::Custom, *sizes, std::nullopt);
  }
  if (!set_int_field(next, p, value)) return;
  if (path.startsWith(QLatin1String("input.sizes")) && input_preset() == StridePreset::ChannelsLast) {
    r.input.strides = preset_strides(StridePreset::ChannelsLast, *r.input.sizes, std::nullopt);
  }
  fit_values_to_input(next);
  edit(std::move(next), tr("Set %1 to %2").arg(path).arg(value), path);
}

void SpecEditor::on_op_chosen(int index) {
  const auto kind = static_cast<OpKind>(op_combo_->itemData(index).toInt());
  if (kind == document_->spec().request.kind()) return;
  Spec next = with_op(document_->spec(), kind);
  fit_values_to_input(next);
  edit(std::move(next), tr("Choose %1").arg(op_combo_->itemText(index)));
}

void SpecEditor::on_rank_changed(int rank) {
  if (syncing_) return;
  Spec next = with_rank(document_->spec(), static_cast<std::size_t>(rank));
  if (input_preset() == StridePreset::ChannelsLast && next.request.input.sizes) {
    next.request.input.strides = preset_strides(StridePreset::ChannelsLast, *next.request.input.sizes, std::nullopt);
  }
  fit_values_to_input(next);
  edit(std::move(next), tr("Set dimensions to %1").arg(rank), QStringLiteral("input.rank"));
}

void SpecEditor::on_input_type_chosen(int index) {
  Spec next = document_->spec();
  const auto type = static_cast<DataType>(input_type_->itemData(index).toInt());
  // An output that followed the input's type keeps following it.
  if (next.request.output.data_type && next.request.output.data_type == next.request.input.data_type) {
    next.request.output.data_type = type;
  }
  next.request.input.data_type = type;
  edit(std::move(next), tr("Set input type to %1").arg(input_type_->itemText(index)));
}

void SpecEditor::on_input_preset_chosen(int index) {
  Spec next = document_->spec();
  const auto preset = static_cast<StridePreset>(input_preset_->itemData(index).toInt());
  if (!next.request.input.sizes) return;
  input_custom_chosen_ = preset == StridePreset::Custom;
  next.request.input.strides = preset_strides(preset, *next.request.input.sizes, next.request.input.strides);
  fit_values_to_input(next);
  edit(std::move(next), tr("Input strides: %1").arg(input_preset_->itemText(index)));
}

void SpecEditor::on_output_preset_chosen(int index) {
  Spec next = document_->spec();
  const auto preset = static_cast<StridePreset>(output_preset_->itemData(index).toInt());
  const auto sizes = output_sizes_of(next);
  if (preset != StridePreset::Packed && !sizes) return;
  output_custom_chosen_ = preset == StridePreset::Custom;
  next.request.output.strides = preset == StridePreset::Packed
                                    ? std::nullopt
                                    : preset_strides(preset, *sizes, next.request.output.strides);
  edit(std::move(next), tr("Output strides: %1").arg(output_preset_->itemText(index)));
}

void SpecEditor::on_output_type_chosen(int index) {
  Spec next = document_->spec();
  const int chosen = output_type_->itemData(index).toInt();
  next.request.output.data_type = chosen < 0 ? std::nullopt : std::optional(static_cast<DataType>(chosen));
  edit(std::move(next), tr("Set output type to %1").arg(output_type_->itemText(index)));
}

void SpecEditor::on_indices_type_chosen(int index) {
  Spec next = document_->spec();
  const int chosen = indices_type_->itemData(index).toInt();
  if (chosen < 0) {
    next.request.output_indices.reset();
  } else {
    next.request.output_indices = TensorRequest{static_cast<DataType>(chosen), std::nullopt, std::nullopt};
  }
  edit(std::move(next), tr("Indices: %1").arg(indices_type_->itemText(index)));
}

void SpecEditor::on_fill_chosen(int index) {
  Spec next = document_->spec();
  switch (index) {
    case kFillIota: next.input_source = Fill{FillIota{}}; break;
    case kFillZeros: next.input_source = Fill{FillZeros{}}; break;
    case kFillRandom: next.input_source = Fill{FillRandom{1, 0, 9}}; break;
    case kFillValues: {
      // Start from what the input holds now, so typing changes one value at a time.
      std::vector<Scalar> values;
      if (evaluation_ && evaluation_->spec().request.input.data_type == next.request.input.data_type) {
        values = values_from_buffer(evaluation_->op().input().data_type(), evaluation_->input,
                                    evaluation_->op().input().buffer_elements());
      }
      next.input_source = std::move(values);
      fit_values_to_input(next);
      break;
    }
    case kFillNpy:
      emit npyFileRequested();
      return;  // the window calls set_npy_file when a file was chosen
    default: return;
  }
  edit(std::move(next), tr("Values: %1").arg(fill_->itemText(index)));
}

void SpecEditor::set_npy_file(const QString& path) {
  if (path.isEmpty()) {
    sync_from_spec();  // dialog cancelled: show the source the spec still has
    return;
  }
  Spec next = document_->spec();
  next.input_source = std::filesystem::path(path.toStdString());
  edit(std::move(next), tr("Values from %1").arg(path));
}

void SpecEditor::on_random_changed() {
  if (syncing_) return;
  Spec next = document_->spec();
  next.input_source = Fill{FillRandom{static_cast<uint64_t>(random_seed_->value()), random_min_->value(),
                                      random_max_->value()}};
  edit(std::move(next), tr("Random values"), QStringLiteral("input.fill.random"));
}

void SpecEditor::on_values_edited() {
  if (syncing_ || fill_->currentIndex() != kFillValues) return;
  Expected<std::vector<Scalar>> values = parse_values(values_->text().toStdString());
  if (!values) {
    set_local_error(values.error());
    return;
  }
  Spec next = document_->spec();
  if (auto* current = std::get_if<std::vector<Scalar>>(&next.input_source)) {
    if (format_values(*current) == format_values(*values)) return;
  }
  next.input_source = std::move(values.value());
  edit(std::move(next), tr("Edit input values"));
}

void SpecEditor::on_padding_mode_chosen(int index) {
  Spec next = document_->spec();
  auto* pad = std::get_if<PaddingRequest>(&next.request.params);
  if (!pad) return;
  pad->padding_mode = static_cast<PaddingMode>(padding_mode_->itemData(index).toInt());
  edit(std::move(next), tr("Padding mode %1").arg(padding_mode_->itemText(index)));
}

void SpecEditor::on_padding_value_edited() {
  Expected<std::vector<Scalar>> values = parse_values(padding_value_->text().toStdString());
  if (!values || values->size() != 1) {
    set_local_error(invalid("params.paddingValue", "enter one number"));
    return;
  }
  Spec next = document_->spec();
  auto* pad = std::get_if<PaddingRequest>(&next.request.params);
  if (!pad) return;
  pad->padding_value = values->front();
  edit(std::move(next), tr("Padding value %1").arg(padding_value_->text()), QStringLiteral("params.paddingValue"));
}

void SpecEditor::show_error(const std::optional<Error>& error) {
  core_error_ = error;
  refresh_error();
}

void SpecEditor::set_local_error(std::optional<Error> error) {
  local_error_ = std::move(error);
  refresh_error();
}

QString SpecEditor::error_text() const {
  const std::optional<Error>& error = local_error_ ? local_error_ : core_error_;
  return error ? q(error->to_string()) : QString();
}

QWidget* SpecEditor::field_widget(const QString& path) const {
  if (path.isEmpty()) return nullptr;
  if (auto* exact = findChild<QWidget*>(path)) return exact;
  // "input.data[3]" -> "input.data"; "params.offsets" -> "params.offsets[0]".
  const QString base = path.section(QLatin1Char('['), 0, 0);
  if (auto* widget = findChild<QWidget*>(base)) return widget;
  if (auto* first = findChild<QWidget*>(base + QStringLiteral("[0]"))) return first;
  const QString group = path.section(QLatin1Char('.'), 0, 0);
  if (group == QLatin1String("input")) {
    if (base.startsWith(QLatin1String("input.fill"))) return fill_;
    return findChild<QWidget*>(QStringLiteral("inputGroup"));
  }
  if (group == QLatin1String("outputIndices")) return indices_type_;
  if (group == QLatin1String("output")) return output_group_;
  if (group == QLatin1String("params")) return params_group_;
  return nullptr;
}

void SpecEditor::unmark() {
  if (invalid_) {
    invalid_->setStyleSheet(QString());
    invalid_->setPalette(QPalette());  // back to the inherited one
    invalid_->setToolTip(invalid_tooltip_);
    invalid_->setProperty("invalid", false);
  }
  invalid_ = nullptr;
}

void SpecEditor::mark(QWidget* widget, const QString& message) {
  unmark();
  if (!widget) return;
  invalid_ = widget;
  invalid_tooltip_ = widget->toolTip();
  widget->setProperty("invalid", true);
  widget->setToolTip(message);
  const QString type = widget->metaObject()->className();
  if (qobject_cast<QGroupBox*>(widget)) {
    widget->setStyleSheet(QStringLiteral("QGroupBox { border: 2px solid #d55e00; }"));
  } else if (qobject_cast<QAbstractSpinBox*>(widget)) {
    // A style sheet would replace the style's arrow buttons: tint through
    // the palette instead.
    QPalette tinted = widget->palette();
    tinted.setColor(QPalette::Base, QColor(0xfc, 0xe3, 0xd5));
    tinted.setColor(QPalette::Text, Qt::black);
    widget->setPalette(tinted);
  } else {
    widget->setStyleSheet(QStringLiteral("%1 { border: 2px solid #d55e00; background-color: #fce3d5; color: black; }")
                              .arg(type));
  }
}

void SpecEditor::refresh_error() {
  const std::optional<Error>& error = local_error_ ? local_error_ : core_error_;
  if (!error) {
    unmark();
    error_banner_->hide();
    return;
  }
  const QString text = q(error->to_string());
  // The form's name for the field first, the spec path (what the file and
  // the CLI say) after it.
  const QString label = field_label(document_->spec().request.kind(), spec_rank(document_->spec()), q(error->path));
  if (label.isEmpty()) {
    error_banner_->setText(QStringLiteral("\u26a0 ") + text.toHtmlEscaped());
  } else {
    error_banner_->setText(QStringLiteral("\u26a0 <b>%1</b>: %2 <span style=\"color:#6b4a3a\">(%3)</span>")
                               .arg(label.toHtmlEscaped(), q(error->message).toHtmlEscaped(),
                                    q(error->path).toHtmlEscaped()));
  }
  error_banner_->show();
  mark(field_widget(q(error->path)), text);
}

}  // namespace stridescope::ui
