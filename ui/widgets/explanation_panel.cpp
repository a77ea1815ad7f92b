#include "ui/widgets/explanation_panel.h"

#include <QFontDatabase>
#include <QLabel>
#include <QScrollArea>
#include <QTextDocument>
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
  text_ = new QLabel(this);
  text_->setObjectName(QStringLiteral("explanationText"));
  text_->setTextFormat(Qt::RichText);
  text_->setTextInteractionFlags(Qt::TextBrowserInteraction);
  text_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  text_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  connect(text_, &QLabel::linkActivated, this, [this](const QString& link) {
    if (link.startsWith(QLatin1String("help:"))) emit helpRequested(link.mid(5));
  });
  auto* scroll = new QScrollArea(this);
  scroll->setWidget(text_);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 4, 6, 4);
  layout->addWidget(scroll);
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
  text_->setText(html);
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
  text_->setText(html);
}

QString ExplanationPanel::plain_text() const {
  QTextDocument document;
  document.setHtml(text_->text());
  return document.toPlainText();
}

}  // namespace stridescope::ui
