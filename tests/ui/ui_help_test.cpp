// Help: the project's documentation pages inside the app. Every page the menu
// lists opens rendered (Markdown, not its source), the pages' links to each
// other lead to pages that exist, and every figure they show loads.
#include <QAction>
#include <QFile>
#include <QImage>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextBrowser>
#include <QtTest>

#include <memory>

#include "test_backends.h"
#include "ui/widgets/help_browser.h"
#include "ui/widgets/main_window.h"

using namespace stridescope;
using namespace stridescope::ui;
using namespace stridescope::ui::testing;

namespace {

QString page_source(const QString& file) {
  QFile f(QStringLiteral(":/docs/") + file);
  if (!f.open(QIODevice::ReadOnly)) return {};
  return QString::fromUtf8(f.readAll());
}

// The targets of the Markdown links and images on a page: "](target)".
QStringList link_targets(const QString& markdown) {
  QStringList targets;
  static const QRegularExpression link(QStringLiteral(R"(\]\(([^)\s]+)\))"));
  for (auto it = link.globalMatch(markdown); it.hasNext();) targets << it.next().captured(1);
  return targets;
}

// A figure as loadResource gives it: the file's bytes, or a scaled image.
QImage loaded_image(const QVariant& resource) {
  if (resource.canConvert<QImage>() && resource.typeId() == QMetaType::QImage) return resource.value<QImage>();
  return QImage::fromData(resource.toByteArray());
}

// The width of the first image on the page whose name ends with `file`, as
// the page lays it out (-1: none).
int shown_figure_width(QTextBrowser& text, const QString& file) {
  for (QTextBlock block = text.document()->begin(); block.isValid(); block = block.next()) {
    for (auto it = block.begin(); !it.atEnd(); ++it) {
      const QTextCharFormat format = it.fragment().charFormat();
      if (!format.isImageFormat() || !format.toImageFormat().name().endsWith(file)) continue;
      return loaded_image(text.document()->resource(QTextDocument::ImageResource, QUrl(format.toImageFormat().name()))).width();
    }
  }
  return -1;
}

}  // namespace

class HelpPages : public QObject {
  Q_OBJECT

  std::unique_ptr<MainWindow> window_;

 private slots:
  void init() { window_ = std::make_unique<MainWindow>(cpu_only()); }
  void cleanup() {
    window_.reset();
    QSettings().clear();
  }

  void HelpMenu_ListsEveryPageAndOpensItRendered() {
    QCOMPARE(HelpBrowser::pages().size(), 9);
    for (const HelpBrowser::Page& page : HelpBrowser::pages()) {
      auto* action = window_->findChild<QAction*>(QStringLiteral("help:") + page.file);
      QVERIFY2(action != nullptr, qPrintable(page.file));
      action->trigger();
      auto* help = window_->findChild<HelpBrowser*>(QStringLiteral("helpBrowser"));
      QVERIFY(help != nullptr);
      QVERIFY(help->isVisible());
      QCOMPARE(help->text()->source(), HelpBrowser::page_url(page.file));
      const QString text = help->text()->toPlainText();
      QVERIFY2(text.size() > 500, qPrintable(page.file));
      // Rendered: the "# Title" line of the source shows as a heading, without its '#'.
      const QString title = page_source(page.file).section(QLatin1Char('\n'), 0, 0).mid(2).remove(QLatin1Char('`'));
      QVERIFY2(text.startsWith(title), qPrintable(page.file + QStringLiteral(": ") + text.left(80)));
      QVERIFY2(help->windowTitle().startsWith(page.title), qPrintable(help->windowTitle()));
    }
  }

  void OperatorsPage_ShowsTheRulesAndFollowsALinkToAnotherPage() {
    HelpBrowser* help = window_->show_help(QStringLiteral("operators.md"));
    QVERIFY(help->text()->toPlainText().contains(QStringLiteral("A negative stride starts at the end of the window")));
    // A relative link, as a click follows it.
    help->text()->setSource(help->text()->source().resolved(QUrl(QStringLiteral("spec-format.md"))));
    QCOMPARE(help->text()->source(), HelpBrowser::page_url(QStringLiteral("spec-format.md")));
    QVERIFY(!help->text()->toPlainText().contains(QStringLiteral("](")));  // Markdown, not its source
    QVERIFY(help->text()->isBackwardAvailable());
    help->text()->backward();
    QCOMPARE(help->text()->source(), HelpBrowser::page_url(QStringLiteral("operators.md")));
  }

  void EveryLinkBetweenPagesAndEveryFigureResolves() {
    HelpBrowser* help = window_->show_help(QStringLiteral("README.md"));
    int figures = 0;
    for (const HelpBrowser::Page& page : HelpBrowser::pages()) {
      const QUrl base = HelpBrowser::page_url(page.file);
      for (const QString& target : link_targets(page_source(page.file))) {
        if (target.startsWith(QLatin1String("http")) || target.startsWith(QLatin1Char('#'))) continue;
        const QUrl url = base.resolved(QUrl(target));
        const QString path = url.path();
        if (path.endsWith(QLatin1String(".md"))) {
          QVERIFY2(QFile::exists(QLatin1Char(':') + path), qPrintable(page.file + QStringLiteral(" -> ") + target));
        } else if (path.endsWith(QLatin1String(".png")) || path.endsWith(QLatin1String(".gif"))) {
          const QVariant image = help->text()->loadResource(QTextDocument::ImageResource, url);
          QVERIFY2(!loaded_image(image).isNull(), qPrintable(page.file + QStringLiteral(" -> ") + target));
          ++figures;
        }
      }
    }
    QVERIFY2(figures >= 19, qPrintable(QString::number(figures)));
  }

  // Figures are drawn for slides, up to 1,680 pixels wide: the page shows
  // one wider than itself scaled to its width, and a narrower one as drawn;
  // when the window narrows, the page's figures narrow with it.
  void AFigureWiderThanThePageIsScaledToItsWidth() {
    HelpBrowser* help = window_->show_help(QStringLiteral("operators.md"));
    auto* text = qobject_cast<DocsTextBrowser*>(help->text());
    QVERIFY(text != nullptr);
    help->resize(900, 700);
    QVERIFY(QTest::qWaitForWindowExposed(help));
    const QUrl wide(QStringLiteral("qrc:/figures/max_pooling2_3x3_stride2_pad1_indices.png"));
    const QUrl narrow(QStringLiteral("qrc:/figures/mistake_padding-takes-part.png"));
    const QImage wide_file(QStringLiteral(":/figures/max_pooling2_3x3_stride2_pad1_indices.png"));
    const QImage narrow_file(QStringLiteral(":/figures/mistake_padding-takes-part.png"));
    QCOMPARE(wide_file.width(), 1626);
    QVERIFY(narrow_file.width() < text->figure_room());
    const int room = text->figure_room();
    QVERIFY2(room > 700 && room < 900, qPrintable(QString::number(room)));
    QCOMPARE(loaded_image(text->loadResource(QTextDocument::ImageResource, wide)).width(), room);
    QCOMPARE(loaded_image(text->loadResource(QTextDocument::ImageResource, narrow)).size(), narrow_file.size());

    // The page itself never scrolls sideways, before or after the window
    // narrows (its figures are fitted again).
    QVERIFY(page_source(QStringLiteral("operators.md")).contains(QStringLiteral("max_pooling2_3x3_stride2_pad1_indices")));
    QCOMPARE(shown_figure_width(*text, QStringLiteral("max_pooling2_3x3_stride2_pad1_indices.png")), room);
    help->resize(600, 700);
    QTRY_VERIFY(text->figure_room() < 600);
    QTRY_COMPARE(shown_figure_width(*text, QStringLiteral("max_pooling2_3x3_stride2_pad1_indices.png")),
                 text->figure_room());
  }
};

QTEST_MAIN(HelpPages)
#include "ui_help_test.moc"
