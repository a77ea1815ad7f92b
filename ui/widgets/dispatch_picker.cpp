#include "ui/widgets/dispatch_picker.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace stridescope::ui {

DispatchPicker::DispatchPicker(const QString& model_name, const QList<DispatchEntry>& dispatches, QWidget* parent)
    : QDialog(parent), list_(new QTreeWidget(this)) {
  setObjectName(QStringLiteral("dispatchPicker"));
  setWindowTitle(tr("Open DxDispatch Model"));
  // Only a model with several dispatches asks, so "commands" is always plural.
  auto* intro = new QLabel(tr("%1 has %2 dispatch commands. StrideScope opens one as a spec, with the input "
                              "its earlier dispatches leave. Which one?")
                               .arg(model_name)
                               .arg(dispatches.size()),
                           this);
  intro->setWordWrap(true);

  list_->setObjectName(QStringLiteral("dispatchList"));
  list_->setRootIsDecorated(false);
  list_->setHeaderLabels({tr("Dispatch"), tr("Dispatchable"), tr("Operator"), tr("Input \u2192 output")});
  for (int i = 0; i < dispatches.size(); ++i) {
    const DispatchEntry& d = dispatches[i];
    list_->addTopLevelItem(new QTreeWidgetItem({QString::number(i), d.name, d.op, d.tensors}));
  }
  list_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
  if (list_->topLevelItemCount() > 0) list_->setCurrentItem(list_->topLevelItem(0));
  connect(list_, &QTreeWidget::itemDoubleClicked, this, &QDialog::accept);

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel, this);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(intro);
  layout->addWidget(list_);
  layout->addWidget(buttons);
  resize(640, 320);
}

int DispatchPicker::selected() const {
  QTreeWidgetItem* item = list_->currentItem();
  return item ? list_->indexOfTopLevelItem(item) : -1;
}

}  // namespace stridescope::ui
