#include "ui/widgets/status_rule.h"

#include <QAction>
#include <QClipboard>
#include <QGuiApplication>
#include <QPainter>

namespace stridescope::ui {
namespace {
constexpr int kMargin = 2;
}

StatusRule::StatusRule(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("ruleLabel"));
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
  auto* copy = new QAction(tr("Copy"), this);
  connect(copy, &QAction::triggered, this, [this] { QGuiApplication::clipboard()->setText(text_); });
  addAction(copy);
  setContextMenuPolicy(Qt::ActionsContextMenu);
}

void StatusRule::set_text(const QString& text) {
  if (text == text_) return;
  text_ = text;
  setToolTip(text);
  update();  // a repaint, never a new layout
}

QSize StatusRule::sizeHint() const { return {200, fontMetrics().height() + 2 * kMargin}; }

QSize StatusRule::minimumSizeHint() const { return {80, fontMetrics().height() + 2 * kMargin}; }

void StatusRule::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.setPen(palette().color(QPalette::WindowText));
  const QRect area = rect().adjusted(kMargin, 0, -kMargin, 0);
  painter.drawText(area, Qt::AlignLeft | Qt::AlignVCenter,
                   fontMetrics().elidedText(text_, Qt::ElideRight, area.width()));
}

}  // namespace stridescope::ui
