// The project's own documentation (resources/docs/, compiled into the app as
// Qt resources) in a window of its own, opened from the Help menu. Links
// between the pages work, and so do their figures; an animated figure (GIF)
// shows its still (the PNG beside it), since a text browser does not play it.
#pragma once

#include <QList>
#include <QString>
#include <QTextBrowser>
#include <QUrl>
#include <QWidget>

class QToolButton;

namespace stridescope::ui {

// Loads figures as HelpBrowser describes; otherwise a QTextBrowser.
class DocsTextBrowser : public QTextBrowser {
  Q_OBJECT

 public:
  using QTextBrowser::QTextBrowser;
  QVariant loadResource(int type, const QUrl& name) override;
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
