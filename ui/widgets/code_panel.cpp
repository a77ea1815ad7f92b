#include "ui/widgets/code_panel.h"

#include <QClipboard>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTabBar>
#include <QVBoxLayout>

namespace stridescope::ui {
namespace {

struct LanguageTab {
  CodeLanguage language;
  const char* title;
};
constexpr LanguageTab kTabs[] = {{CodeLanguage::NumPy, "NumPy"},
                                 {CodeLanguage::Torch, "PyTorch"},
                                 {CodeLanguage::Onnx, "ONNX"},
                                 {CodeLanguage::Dml, "DirectML C++"},
                                 {CodeLanguage::DxDispatch, "DxDispatch"}};

}  // namespace

CodePanel::CodePanel(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("codePanel"));
  tabs_ = new QTabBar(this);
  tabs_->setObjectName(QStringLiteral("codeLanguages"));
  for (const LanguageTab& tab : kTabs) tabs_->addTab(tr(tab.title));
  code_ = new QPlainTextEdit(this);
  code_->setObjectName(QStringLiteral("codeText"));
  code_->setReadOnly(true);
  code_->setLineWrapMode(QPlainTextEdit::NoWrap);
  code_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  notes_ = new QLabel(this);
  notes_->setObjectName(QStringLiteral("codeNotes"));
  notes_->setWordWrap(true);
  notes_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  notes_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  notes_->setMinimumWidth(220);
  copy_ = new QPushButton(tr("Copy"), this);
  copy_->setObjectName(QStringLiteral("codeCopy"));
  copy_->setToolTip(tr("Copy the program to the clipboard"));
  connect(copy_, &QPushButton::clicked, this, [this] { QGuiApplication::clipboard()->setText(code()); });
  write_ = new QPushButton(tr("Write program"), this);
  write_->setObjectName(QStringLiteral("codeWrite"));
  write_->setToolTip(tr("Write the program for this large input now"));
  write_->hide();
  connect(write_, &QPushButton::clicked, this, &CodePanel::write_program);
  connect(tabs_, &QTabBar::currentChanged, this, [this] {
    written_for_.reset();
    refresh();
  });

  auto* top = new QHBoxLayout;
  top->addWidget(tabs_, 1);
  top->addWidget(write_);
  top->addWidget(copy_);
  auto* body = new QHBoxLayout;
  body->addWidget(code_, 3);
  body->addWidget(notes_, 1);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addLayout(top);
  layout->addLayout(body, 1);
}

void CodePanel::set_evaluation(EvaluationPtr evaluation) {
  evaluation_ = std::move(evaluation);
  refresh();
}

void CodePanel::set_language(CodeLanguage language) {
  for (int i = 0; i < tabs_->count(); ++i) {
    if (kTabs[i].language == language) tabs_->setCurrentIndex(i);
  }
}

CodeLanguage CodePanel::language() const { return kTabs[std::max(0, tabs_->currentIndex())].language; }

QString CodePanel::code() const { return code_->toPlainText(); }
QString CodePanel::notes() const { return notes_->text(); }

void CodePanel::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  refresh();
}

void CodePanel::refresh() {
  if (!isVisible() || evaluation_ == written_for_) return;
  written_for_ = evaluation_;
  if (!evaluation_) {
    code_->clear();
    notes_->clear();
    write_->hide();
    copy_->setEnabled(true);
    return;
  }
  const uint64_t input_elements = evaluation_->op().input().buffer_elements();
  if (input_elements > kLargestInputWrittenLive) {
    show_deferred(input_elements);
    return;
  }
  write_program();
}

void CodePanel::show_deferred(uint64_t input_elements) {
  code_->setPlainText(tr("# This spec's input holds %L1 elements: its program inlines them, too long to rewrite on\n"
                         "# every edit. Press Write program to write it for the spec as it is now, or run\n"
                         "#   stridescope-cli code SPEC --lang LANGUAGE > program\n")
                          .arg(input_elements));
  notes_->clear();
  write_->show();
  copy_->setEnabled(false);
}

void CodePanel::write_program() {
  write_->hide();
  copy_->setEnabled(true);
  if (!evaluation_) return;
  const Evaluation& ev = *evaluation_;
  const GeneratedCode generated = write_code(language(), CodeSource{ev.spec(), ev.op(), ev.input});
  code_->setPlainText(QString::fromStdString(generated.text));
  QStringList notes;
  for (const std::string& note : generated.notes) notes << QStringLiteral("\u2022 ") + QString::fromStdString(note);
  if (notes.isEmpty()) notes << tr("%1 expresses this spec directly: no workaround needed.").arg(tabs_->tabText(tabs_->currentIndex()));
  if (!generated.runnable) notes.prepend(tr("This framework cannot run this spec (see the first note)."));
  notes_->setText(notes.join(QStringLiteral("\n\n")));
}

}  // namespace stridescope::ui
