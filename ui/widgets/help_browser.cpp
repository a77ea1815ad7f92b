#include "ui/widgets/help_browser.h"

#include <QFile>
#include <QHBoxLayout>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

namespace stridescope::ui {

QVariant DocsTextBrowser::loadResource(int type, const QUrl& name) {
  if (type == QTextDocument::ImageResource && name.path().endsWith(QLatin1String(".gif"))) {
    QUrl still = name;
    still.setPath(name.path().chopped(4) + QStringLiteral(".png"));
    return QTextBrowser::loadResource(type, still);
  }
  return QTextBrowser::loadResource(type, name);
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
