#include "ui/widgets/spec_form_part.h"

#include <algorithm>
#include <climits>

#include <QComboBox>
#include <QLabel>
#include <QLayout>
#include <QSignalBlocker>
#include <QSpinBox>

#include "core/operation.h"

namespace stridescope::ui {

QString q(const std::string& s) { return QString::fromStdString(s); }
QString q(std::string_view s) { return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())); }

QSpinBox* make_int_field(SpecFormHost* host, const QString& path, int minimum, QWidget* parent) {
  auto* spin = new QSpinBox(parent);
  spin->setObjectName(path);
  spin->setRange(minimum, INT_MAX);
  spin->setAccelerated(true);
  spin->setMinimumWidth(spin->fontMetrics().horizontalAdvance(QStringLiteral("-0000")) + 28);
  QObject::connect(spin, &QSpinBox::valueChanged, spin, [host, path](int value) { host->edit_int(path, value); });
  QObject::connect(spin, &QSpinBox::editingFinished, spin, [host] { host->end_field_edit(); });
  return spin;
}

void set_spin(QSpinBox* spin, int64_t value) {
  if (!spin) return;
  const QSignalBlocker block(spin);
  spin->setValue(static_cast<int>(std::clamp<int64_t>(value, spin->minimum(), spin->maximum())));
}

void set_combo(QComboBox* combo, int item_data) {
  const QSignalBlocker block(combo);
  combo->setCurrentIndex(std::max(0, combo->findData(item_data)));
}

QLabel* header_label(const QString& text, QWidget* parent, const QString& tip) {
  auto* label = new QLabel(text, parent);
  QFont font = label->font();
  font.setBold(true);
  label->setFont(font);
  label->setToolTip(tip);
  // "Start padding" over a column of small numbers: two lines rather than a
  // form wider than the editor (pooling has five such columns).
  label->setWordWrap(true);
  return label;
}

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

std::optional<std::vector<uint64_t>> output_sizes_of(const Spec& spec) {
  if (spec.request.output.sizes) return spec.request.output.sizes;
  const Expected<std::optional<Sizes>> inferred = infer_output_sizes(spec.request);
  if (!inferred || !inferred.value()) return std::nullopt;
  return std::vector<uint64_t>(inferred.value()->begin(), inferred.value()->end());
}

}  // namespace stridescope::ui
