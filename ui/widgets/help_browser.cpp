#include "ui/widgets/help_browser.h"

#include <algorithm>

#include <QFile>
#include <QImage>
#include <QResizeEvent>
#include <QScrollBar>
#include <QHBoxLayout>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

namespace stridescope::ui {

DocsTextBrowser::DocsTextBrowser(QWidget* parent) : QTextBrowser(parent) {
  refit_.setSingleShot(true);
  refit_.setInterval(150);
  connect(&refit_, &QTimer::timeout, this, &DocsTextBrowser::refit_figures);
}

QVariant DocsTextBrowser::loadResource(int type, const QUrl& name) {
  if (type != QTextDocument::ImageResource) return QTextBrowser::loadResource(type, name);
  QUrl file = name;
  if (name.path().endsWith(QLatin1String(".gif"))) file.setPath(name.path().chopped(4) + QStringLiteral(".png"));
  const QVariant data = QTextBrowser::loadResource(type, file);
  // Figures are drawn for slides (up to 1,680 pixels wide); at their own
  // size a reader would scroll sideways through each one.
  const QImage image = QImage::fromData(data.toByteArray());
  const int room = figure_room();
  if (image.isNull() || image.width() <= room) return data;
  return image.scaledToWidth(room, Qt::SmoothTransformation);
}

int DocsTextBrowser::figure_room() const {
  const int margins = 2 * static_cast<int>(document()->documentMargin()) + verticalScrollBar()->sizeHint().width();
  return std::max(kMinFigureWidth, viewport()->width() - margins);
}

void DocsTextBrowser::resizeEvent(QResizeEvent* event) {
  QTextBrowser::resizeEvent(event);
  // Figures were fitted to the old width when the page loaded: load it
  // again, at the same place, once the size has settled.
  if (event->oldSize().width() == event->size().width() || source().isEmpty()) return;
  refit_.start();
}

void DocsTextBrowser::refit_figures() {
  const int at = verticalScrollBar()->value();
  reload();
  verticalScrollBar()->setValue(at);
}

const QList<HelpBrowser::Page>& HelpBrowser::pages() {
  static const QList<Page> list{
      {QStringLiteral("README.md"), tr("Contents")},
      {QStringLiteral("app.md"), tr("The Desktop App")},
      {QStringLiteral("operators.md"), tr("Operators")},
      {QStringLiteral("layouts-and-strides.md"), tr("Layouts and Strides")},
      {QStringLiteral("spec-format.md"), tr("Spec Format")},
      {QStringLiteral("result-document.md"), tr("Result Document")},
      {QStringLiteral("mistakes.md"), tr("Known Mistakes")},
      {QStringLiteral("cli.md"), tr("Command Line")},
      {QStringLiteral("limits.md"), tr("Limits and Trusted Input")},
  };
  return list;
}

QUrl HelpBrowser::page_url(const QString& file) { return QUrl(QStringLiteral("qrc:/docs/") + file); }

HelpBrowser::HelpBrowser(QWidget* parent) : QWidget(parent, Qt::Window) {
  setObjectName(QStringLiteral("helpBrowser"));
  setWindowTitle(tr("StrideScope Help"));
  text_ = new DocsTextBrowser(this);
  text_->setObjectName(QStringLiteral("helpText"));
  text_->setOpenExternalLinks(true);  // http(s) links go to the system browser; the pages' own links stay here
  back_ = new QToolButton(this);
  back_->setIcon(style()->standardIcon(QStyle::SP_ArrowBack));
  back_->setToolTip(tr("Back"));
  back_->setEnabled(false);
  forward_ = new QToolButton(this);
  forward_->setIcon(style()->standardIcon(QStyle::SP_ArrowForward));
  forward_->setToolTip(tr("Forward"));
  forward_->setEnabled(false);
  auto* contents = new QToolButton(this);
  contents->setText(tr("Contents"));
  connect(back_, &QToolButton::clicked, text_, &QTextBrowser::backward);
  connect(forward_, &QToolButton::clicked, text_, &QTextBrowser::forward);
  connect(contents, &QToolButton::clicked, this, [this] { show_page(QStringLiteral("README.md")); });
  connect(text_, &QTextBrowser::backwardAvailable, back_, &QToolButton::setEnabled);
  connect(text_, &QTextBrowser::forwardAvailable, forward_, &QToolButton::setEnabled);
  connect(text_, &QTextBrowser::sourceChanged, this, [this](const QUrl& url) {
    const QString file = url.fileName();
    for (const Page& page : pages()) {
      if (page.file == file) setWindowTitle(tr("%1 \u2014 StrideScope Help").arg(page.title));
    }
  });

  auto* bar = new QHBoxLayout;
  bar->addWidget(back_);
  bar->addWidget(forward_);
  bar->addWidget(contents);
  bar->addStretch();
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(bar);
  layout->addWidget(text_);
  resize(900, 760);
}

void HelpBrowser::show_page(const QString& file) {
  text_->setSource(page_url(file), QTextDocument::MarkdownResource);
}

}  // namespace stridescope::ui
