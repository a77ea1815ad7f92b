#include "ui/widgets/input_values_form.h"

#include <algorithm>
#include <climits>

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>

#include "core/operation.h"
#include "ui/spec_edits.h"

namespace stridescope::ui {
namespace {

// The fill menu's entries, in menu order.
enum FillIndex {
  kFillIota,
  kFillLogicalIota,
  kFillZeros,
  kFillRandom,
  kFillRandomIntegers,
  kFillValues,
  kFillNpy
};
// The details page each entry shows: none, the random fill's, the typed values', the file's.
enum PageIndex { kPageNone, kPageRandom, kPageValues, kPageNpy };

int fill_index(const InputSource& source) {
  if (const auto* fill = std::get_if<Fill>(&source)) {
    if (std::holds_alternative<FillLogicalIota>(*fill)) return kFillLogicalIota;
    if (std::holds_alternative<FillZeros>(*fill)) return kFillZeros;
    if (const auto* random = std::get_if<FillRandom>(fill)) return random->integers ? kFillRandomIntegers : kFillRandom;
    return kFillIota;
  }
  return std::holds_alternative<std::vector<Scalar>>(source) ? kFillValues : kFillNpy;
}

int page_index(int fill) {
  switch (fill) {
    case kFillRandom:
    case kFillRandomIntegers: return kPageRandom;
    case kFillValues: return kPageValues;
    case kFillNpy: return kPageNpy;
    default: return kPageNone;
  }
}

// Small whole numbers, which read at a glance in a grid's cells: -9 to 9, or
// 0 to 9 where the type holds no negative numbers.
FillRandom random_integers(const Spec& spec) {
  const std::optional<DataType> type = spec.request.input.data_type;
  const bool non_negative = type && !is_floating(*type) && !is_signed_integer(*type);
  return FillRandom{1, non_negative ? 0.0 : -9.0, 9.0, true};
}

}  // namespace

InputValuesForm::InputValuesForm(SpecFormHost* host, QWidget* parent) : QObject(parent), host_(host) {
  fill_ = new QComboBox(parent);
  fill_->setObjectName(QStringLiteral("input.fill"));
  fill_->addItem(tr("Iota (1, 2, 3, \u2026 in buffer order)"));
  // Short enough that the form fits a small screen's editor; the tool tip says more.
  fill_->addItem(tr("Iota in logical order (1, 2, 3, \u2026)"));
  fill_->addItem(tr("Zeros"));
  fill_->addItem(tr("Seeded random"));
  fill_->addItem(tr("Random integers (\u22129 to 9)"));
  fill_->addItem(tr("Typed values"));
  fill_->addItem(tr("NumPy .npy file"));
  fill_->setToolTip(tr("Where the input buffer's values come from. Iota in buffer order shows the layout in "
                       "the grid; iota in logical order counts across the grid and shows the layout in the "
                       "memory strip."));
  pages_ = new QStackedWidget(parent);
  pages_->addWidget(new QWidget(pages_));  // iota, logical iota, zeros
  pages_->addWidget(build_random_page());
  pages_->addWidget(build_values_page());
  pages_->addWidget(build_npy_page());
  connect(fill_, &QComboBox::activated, this, &InputValuesForm::on_fill_chosen);
}

QWidget* InputValuesForm::details() const { return pages_; }

QWidget* InputValuesForm::build_random_page() {
  auto* page = new QWidget(pages_);
  auto* layout = new QHBoxLayout(page);
  layout->setContentsMargins(0, 0, 0, 0);
  random_seed_ = new QSpinBox(page);
  random_seed_->setObjectName(QStringLiteral("input.fill.random.seed"));
  random_seed_->setRange(0, INT_MAX);
  random_seed_->setPrefix(tr("seed "));
  random_min_ = new QDoubleSpinBox(page);
  random_min_->setObjectName(QStringLiteral("input.fill.random.min"));
  random_max_ = new QDoubleSpinBox(page);
  random_max_->setObjectName(QStringLiteral("input.fill.random.max"));
  for (QDoubleSpinBox* box : {random_min_, random_max_}) {
    box->setRange(-1e9, 1e9);
    box->setDecimals(2);
  }
  random_min_->setPrefix(tr("min "));
  random_max_->setPrefix(tr("max "));
  // Room for the usual values, not for the range's extremes (which would make
  // this row, and so the whole form, wider than the editor at 1366x768).
  const int usual = random_seed_->fontMetrics().horizontalAdvance(QStringLiteral("seed 0000")) + 28;
  for (QAbstractSpinBox* box : std::initializer_list<QAbstractSpinBox*>{random_seed_, random_min_, random_max_}) {
    box->setMinimumWidth(usual);
  }
  layout->addWidget(random_seed_);
  layout->addWidget(random_min_);
  layout->addWidget(random_max_);
  connect(random_seed_, &QSpinBox::valueChanged, this, &InputValuesForm::on_random_changed);
  connect(random_min_, &QDoubleSpinBox::valueChanged, this, &InputValuesForm::on_random_changed);
  connect(random_max_, &QDoubleSpinBox::valueChanged, this, &InputValuesForm::on_random_changed);
  return page;
}

QWidget* InputValuesForm::build_values_page() {
  auto* page = new QWidget(pages_);
  auto* layout = new QVBoxLayout(page);
  layout->setContentsMargins(0, 0, 0, 0);
  values_ = new QLineEdit(page);
  values_->setObjectName(QStringLiteral("input.data"));
  values_->setPlaceholderText(tr("1, 2, 3, \u2026 in buffer order"));
  values_->setToolTip(tr("The physical buffer, element by element (Enter applies). "
                         "You can also double-click an input cell to type its value."));
  layout->addWidget(values_);
  connect(values_, &QLineEdit::editingFinished, this, &InputValuesForm::on_values_edited);
  return page;
}

QWidget* InputValuesForm::build_npy_page() {
  auto* page = new QWidget(pages_);
  auto* layout = new QHBoxLayout(page);
  layout->setContentsMargins(0, 0, 0, 0);
  npy_path_ = new QLineEdit(page);
  npy_path_->setObjectName(QStringLiteral("input.npy"));
  npy_path_->setReadOnly(true);
  auto* browse = new QPushButton(tr("&Browse\u2026"), page);
  browse->setObjectName(QStringLiteral("input.npyBrowse"));
  layout->addWidget(npy_path_, 1);
  layout->addWidget(browse);
  connect(browse, &QPushButton::clicked, this, &InputValuesForm::npyFileRequested);
  return page;
}

void InputValuesForm::sync() {
  const Spec& spec = host_->spec();
  const int fill = fill_index(spec.input_source);
  {
    const QSignalBlocker block(fill_);
    fill_->setCurrentIndex(fill);
  }
  pages_->setCurrentIndex(page_index(fill));
  pages_->setVisible(page_index(fill) != kPageNone);
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
}

void InputValuesForm::on_fill_chosen(int index) {
  Spec next = host_->spec();
  switch (index) {
    case kFillIota: next.input_source = Fill{FillIota{}}; break;
    case kFillLogicalIota: next.input_source = Fill{FillLogicalIota{}}; break;
    case kFillZeros: next.input_source = Fill{FillZeros{}}; break;
    case kFillRandom: next.input_source = Fill{FillRandom{1, 0, 9}}; break;
    case kFillRandomIntegers: next.input_source = Fill{random_integers(next)}; break;
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
  host_->edit(std::move(next), tr("Values: %1").arg(fill_->itemText(index)));
}

void InputValuesForm::on_random_changed() {
  if (host_->syncing()) return;
  Spec next = host_->spec();
  const auto* fill = std::get_if<Fill>(&next.input_source);
  const auto* current = fill ? std::get_if<FillRandom>(fill) : nullptr;
  next.input_source = Fill{FillRandom{static_cast<uint64_t>(random_seed_->value()), random_min_->value(),
                                      random_max_->value(), current && current->integers}};
  host_->edit(std::move(next), tr("Random values"), QStringLiteral("input.fill.random"));
}

void InputValuesForm::on_values_edited() {
  if (host_->syncing() || fill_->currentIndex() != kFillValues) return;
  Expected<std::vector<Scalar>> values = parse_values(values_->text().toStdString());
  if (!values) {
    host_->set_local_error(values.error());
    return;
  }
  Spec next = host_->spec();
  if (auto* current = std::get_if<std::vector<Scalar>>(&next.input_source)) {
    if (format_values(*current) == format_values(*values)) return;
  }
  next.input_source = std::move(values.value());
  host_->edit(std::move(next), tr("Edit input values"));
}

}  // namespace stridescope::ui
