#include "ui/widgets/export_figure_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollArea>

#include "ui/figure/figure_export.h"

namespace stridescope::ui {

ExportFigureDialog::ExportFigureDialog(EvaluationPtr evaluation, std::optional<Coord> selected, QWidget* parent)
    : QDialog(parent), evaluation_(std::move(evaluation)), selected_(std::move(selected)) {
  setWindowTitle(tr("Export Figure"));
  setObjectName(QStringLiteral("exportFigureDialog"));
  auto* form = new QFormLayout;
  auto* panels = new QHBoxLayout;
  input_ = new QCheckBox(tr("Input"));
  output_ = new QCheckBox(tr("Output"));
  indices_ = new QCheckBox(tr("Indices"));
  for (QCheckBox* box : {input_, output_, indices_}) {
    box->setChecked(true);
    panels->addWidget(box);
  }
  indices_->setEnabled(evaluation_ && evaluation_->op().output_indices().has_value());
  indices_->setChecked(indices_->isEnabled());
  form->addRow(tr("Panels"), panels);
  memory_ = new QCheckBox(tr("Memory strips"));
  all_planes_ = new QCheckBox(tr("Every plane"));
  legend_ = new QCheckBox(tr("Legend"));
  legend_->setChecked(true);
  auto* extras = new QHBoxLayout;
  for (QCheckBox* box : {memory_, all_planes_, legend_}) extras->addWidget(box);
  form->addRow(tr("Show"), extras);
  theme_ = new QComboBox;
  theme_->addItems({tr("Light"), tr("Dark")});
  form->addRow(tr("Theme"), theme_);
  scale_ = new QDoubleSpinBox;
  scale_->setRange(0.25, 8);
  scale_->setSingleStep(0.25);
  scale_->setValue(1);
  form->addRow(tr("Scale"), scale_);
  title_ = new QLineEdit;
  form->addRow(tr("Title"), title_);
  animate_ = new QCheckBox(tr("Animate (GIF or SVG: select each output element in turn)"));
  fps_ = new QDoubleSpinBox;
  fps_->setRange(0.5, 50);
  fps_->setValue(4);
  fps_->setSuffix(tr(" frames/s"));
  auto* animation = new QHBoxLayout;
  animation->addWidget(animate_);
  animation->addWidget(fps_);
  form->addRow(tr("Animation"), animation);

  preview_ = new QLabel;
  preview_->setObjectName(QStringLiteral("figurePreview"));
  preview_->setAlignment(Qt::AlignCenter);
  auto* scroll = new QScrollArea;
  scroll->setWidget(preview_);
  scroll->setWidgetResizable(true);
  scroll->setMinimumSize(480, 320);

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Close);
  connect(buttons, &QDialogButtonBox::accepted, this, &ExportFigureDialog::choose_file_and_export);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(scroll, 1);
  layout->addWidget(buttons);
  for (QCheckBox* box : {input_, output_, indices_, memory_, all_planes_, legend_, animate_}) {
    connect(box, &QCheckBox::toggled, this, &ExportFigureDialog::update_preview);
  }
  connect(theme_, &QComboBox::currentIndexChanged, this, &ExportFigureDialog::update_preview);
  connect(scale_, &QDoubleSpinBox::valueChanged, this, &ExportFigureDialog::update_preview);
  connect(title_, &QLineEdit::textChanged, this, &ExportFigureDialog::update_preview);
  update_preview();
}

FigureOptions ExportFigureDialog::options() const {
  FigureOptions options;
  if (input_->isChecked()) options.panels.push_back(TensorRole::Input);
  if (output_->isChecked()) options.panels.push_back(TensorRole::Output);
  if (indices_->isChecked() && indices_->isEnabled()) options.panels.push_back(TensorRole::Indices);
  if (options.panels.empty()) options.panels.push_back(TensorRole::Output);
  options.memory = memory_->isChecked();
  options.all_planes = all_planes_->isChecked();
  options.legend = legend_->isChecked();
  options.theme = theme_->currentIndex() == 1 ? FigureTheme::Dark : FigureTheme::Light;
  options.scale = scale_->value();
  options.title = title_->text();
  options.at = selected_;
  return options;
}

bool ExportFigureDialog::animate() const { return animate_->isChecked(); }

void ExportFigureDialog::set_animate(bool on) { animate_->setChecked(on); }

void ExportFigureDialog::update_preview() {
  fps_->setEnabled(animate());
  if (!evaluation_) {
    preview_->setText(tr("Nothing to export: the spec has not been evaluated"));
    return;
  }
  Figure figure(evaluation_, options());
  preview_->setPixmap(QPixmap::fromImage(render_figure_image(figure)));
}

Status ExportFigureDialog::export_to(const QString& path) const {
  if (!evaluation_) return invalid(path.toStdString(), "nothing to export");
  Figure figure(evaluation_, options());
  const std::string file = path.toStdString();
  const std::optional<FigureFormat> format = figure_format_of(file);
  if (animate()) {
    if (!format || *format == FigureFormat::Png) return invalid(file, "an animation is written as .gif or .svg");
    AnimationOptions animation;
    animation.fps = fps_->value();
    return write_animation(figure, file, *format, animation);
  }
  if (!format || *format == FigureFormat::Gif) return invalid(file, "a still figure is written as .png or .svg");
  return write_figure(figure, file, *format);
}

void ExportFigureDialog::choose_file_and_export() {
  const QString svg_filter = animate() ? tr("Animated SVG (*.svg)") : tr("SVG drawing (*.svg)");
  const QString other_filter = animate() ? tr("Animated GIF (*.gif)") : tr("PNG image (*.png)");
  const QString filter = other_filter + QStringLiteral(";;") + svg_filter;
  QString chosen;
  QString path = QFileDialog::getSaveFileName(this, tr("Export Figure"), QString(), filter, &chosen);
  if (path.isEmpty()) return;
  // A name without an extension this mode writes takes the chosen filter's.
  const std::optional<FigureFormat> format = figure_format_of(path.toStdString());
  if (!format || *format == (animate() ? FigureFormat::Png : FigureFormat::Gif)) {
    path += chosen == svg_filter ? QStringLiteral(".svg") : animate() ? QStringLiteral(".gif") : QStringLiteral(".png");
  }
  const Status status = export_to(path);
  if (!status.ok()) {
    QMessageBox::warning(this, tr("Export Figure"), QString::fromStdString(status.error().to_string()));
    return;
  }
  accept();
}

}  // namespace stridescope::ui
