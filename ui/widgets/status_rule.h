// The status bar's rule for the hovered or selected element, on one line.
// Its size never follows its text: the text changes with every hover and
// animation step, and a label that resized with it would lay the whole
// window out again each time. A long rule is cut with an ellipsis; the tool
// tip and the context menu's Copy keep it whole.
#pragma once

#include <QString>
#include <QWidget>

namespace stridescope::ui {

class StatusRule : public QWidget {
  Q_OBJECT

 public:
  explicit StatusRule(QWidget* parent = nullptr);

  void set_text(const QString& text);
  const QString& text() const { return text_; }

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  QString text_;
};

}  // namespace stridescope::ui
