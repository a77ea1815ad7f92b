// A layout that places its items left to right and starts a new line where
// the next one does not fit, like words in a paragraph. A row of controls in
// it needs only as much width as its widest item: on a narrow panel (a
// 1024-pixel projector with three tensors side by side) the controls wrap
// onto more lines instead of forcing the window wider or being cut short.
#pragma once

#include <QLayout>
#include <QList>

namespace stridescope::ui {

class FlowLayout : public QLayout {
 public:
  explicit FlowLayout(QWidget* parent = nullptr, int spacing = 4);
  ~FlowLayout() override;

  void addItem(QLayoutItem* item) override;
  int count() const override { return static_cast<int>(items_.size()); }
  QLayoutItem* itemAt(int index) const override { return items_.value(index); }
  QLayoutItem* takeAt(int index) override;

  Qt::Orientations expandingDirections() const override { return {}; }
  bool hasHeightForWidth() const override { return true; }
  int heightForWidth(int width) const override;
  QSize sizeHint() const override;      // every item on one line
  QSize minimumSize() const override;   // the widest item: one per line
  void setGeometry(const QRect& rect) override;

 private:
  // Places the items in `rect` (only measures when `apply` is false) and
  // returns the height they take.
  int arrange(const QRect& rect, bool apply) const;

  QList<QLayoutItem*> items_;
  int spacing_;
};

}  // namespace stridescope::ui
