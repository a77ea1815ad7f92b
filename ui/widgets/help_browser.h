// The project's own documentation (resources/docs/, compiled into the app as
// Qt resources) in a window of its own, opened from the Help menu. Links
// between the pages work, and so do their figures; an animated figure (GIF)
// shows its still (the PNG beside it), since a text browser does not play it.
#pragma once

#include <QList>
#include <QString>
#include <QTextBrowser>
#include <QTimer>
#include <QUrl>
#include <QWidget>

class QToolButton;

namespace stridescope::ui {

// Loads figures as HelpBrowser describes, each scaled down to the page's
// width where it is wider; otherwise a QTextBrowser.
class DocsTextBrowser : public QTextBrowser {
  Q_OBJECT

 public:
  explicit DocsTextBrowser(QWidget* parent = nullptr);
  QVariant loadResource(int type, const QUrl& name) override;
  // The widest a figure is shown: the page's width inside its margins.
  int figure_room() const;

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  static constexpr int kMinFigureWidth = 240;
  void refit_figures();
  QTimer refit_;
};

class HelpBrowser : public QWidget {
  Q_OBJECT

 public:
  struct Page {
    QString file;   // "operators.md"
    QString title;  // "Operators", as the Help menu lists it
  };
  // The pages the Help menu lists, in its order (the index page first).
  static const QList<Page>& pages();
  // Where the pages live: "qrc:/docs/<file>".
  static QUrl page_url(const QString& file);

  explicit HelpBrowser(QWidget* parent = nullptr);

  void show_page(const QString& file);
  QTextBrowser* text() const { return text_; }

 private:
  DocsTextBrowser* text_;
  QToolButton* back_;
  QToolButton* forward_;
};

}  // namespace stridescope::ui
