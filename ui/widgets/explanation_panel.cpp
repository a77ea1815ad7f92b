#include "ui/widgets/explanation_panel.h"

#include <QFontDatabase>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

#include "core/worked_arithmetic.h"
#include "ui/widgets/field_label.h"

namespace stridescope::ui {
namespace {

QString steps_html(const std::vector<WorkedStep>& steps) {
  QString html;
  for (const WorkedStep& step : steps) html += QString::fromStdString(step.text()).toHtmlEscaped() + QStringLiteral("<br>");
  return html;
}

// The page of the Help menu that states `kind`'s rules.
QString rules_link(OpKind kind) {
  return QStringLiteral("<a href=\"help:operators.md\">%1</a>")
      .arg(ExplanationPanel::tr("The rules of %1 (Help > Operators)")
               .arg(QString::fromUtf8(to_string(kind).data(), static_cast<qsizetype>(to_string(kind).size()))));
}

}  // namespace

ExplanationPanel::ExplanationPanel(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("explanationPanel"));
  // A text browser, not a label in a scroll area: it lays the text out once
  // per change, where a word-wrapped label lays it out again for every size
  // hint its layouts ask (a third of an animation step's time).
  text_ = new QTextBrowser(this);
  text_->setObjectName(QStringLiteral("explanationText"));
  text_->setOpenLinks(false);
  text_->setFrameShape(QFrame::NoFrame);
  text_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  QPalette colours = text_->palette();
  colours.setColor(QPalette::Base, colours.color(QPalette::Window));
  text_->setPalette(colours);
  connect(text_, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
    const QString link = url.toString();
    if (link.startsWith(QLatin1String("help:"))) emit helpRequested(link.mid(5));
  });
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 4, 6, 4);
  layout->addWidget(text_);
}

void ExplanationPanel::set_refusal(const std::optional<Error>& refusal, OpKind kind, std::size_t rank) {
  refusal_ = refusal;
  refused_kind_ = kind;
  refused_rank_ = rank;
  if (refusal_) show_refusal();
}

void ExplanationPanel::show_refusal() {
  const QString path = QString::fromStdString(refusal_->path);
  const QString label = field_label(refused_kind_, refused_rank_, path);
  QString html = QStringLiteral("<b>%1</b><br>").arg(tr("This spec is not valid, so nothing runs."));
  html += QStringLiteral("%1: %2<br>")
              .arg((label.isEmpty() ? path : tr("%1 (%2)").arg(label, path)).toHtmlEscaped(),
                   QString::fromStdString(refusal_->message).toHtmlEscaped());
  html += QStringLiteral("<br>") + rules_link(refused_kind_);
  text_->setHtml(html);
}

void ExplanationPanel::show_explanation(const EvaluationPtr& evaluation, const std::optional<Provenance>& provenance) {
  if (refusal_) {
    show_refusal();
    return;
  }
  if (!evaluation) {
    text_->clear();
    return;
  }
  // The element first: it changes with every hover and animation step, and
  // the panel is a few lines high.
  const Operation& op = evaluation->op();
  QString html;
  if (provenance) {
    html += QStringLiteral("<b>%1</b><br>").arg(QString::fromStdString(provenance->rule).toHtmlEscaped());
    html += steps_html(element_steps(op, *provenance));
  } else {
    html += QStringLiteral("<i>%1</i><br>").arg(tr("Select or hover an output element to see its arithmetic."));
  }
  html += QStringLiteral("<br><b>%1</b><br>")
              .arg(tr("Output sizes %1").arg(QString::fromStdString(format_coord(op.output().sizes()))));
  html += steps_html(output_size_steps(op));
  html += QStringLiteral("<br>") + rules_link(op.kind());
  text_->setHtml(html);
}

QString ExplanationPanel::plain_text() const {
  return text_->toPlainText();
}

}  // namespace stridescope::ui
