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
#include <QResizeEvent>
#include <QScrollArea>

#include <algorithm>

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
  scroll_ = new QScrollArea;
  scroll_->setWidget(preview_);
  scroll_->setWidgetResizable(true);
  scroll_->setMinimumSize(480, 320);
  preview_size_ = new QLabel;
  preview_size_->setObjectName(QStringLiteral("figurePreviewSize"));

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Save | QDialogButtonBox::Close);
  connect(buttons, &QDialogButtonBox::accepted, this, &ExportFigureDialog::choose_file_and_export);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(scroll_, 1);
  layout->addWidget(preview_size_);
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
  image_ = render_figure_image(figure);
  show_preview();
}

QSize ExportFigureDialog::preview_room() const {
  const int frame = 2 * scroll_->frameWidth();
  return (scroll_->size() - QSize(frame, frame)).expandedTo(QSize(1, 1));
}

// The whole figure in view, as it will sit on a slide: scaled down to the
// preview's room where larger, and the saved size said below it.
void ExportFigureDialog::show_preview() {
  if (image_.isNull()) return;
  const QSize room = preview_room();
  const bool fits = image_.width() <= room.width() && image_.height() <= room.height();
  const QImage shown = fits ? image_ : image_.scaled(room, Qt::KeepAspectRatio, Qt::SmoothTransformation);
  preview_->setPixmap(QPixmap::fromImage(shown));
  const int percent = static_cast<int>(100.0 * shown.width() / std::max(1, image_.width()) + 0.5);
  preview_size_->setText(fits ? tr("Saved at %1 × %2 pixels").arg(image_.width()).arg(image_.height())
                              : tr("Saved at %1 × %2 pixels; shown here at %3%")
                                    .arg(image_.width())
                                    .arg(image_.height())
                                    .arg(percent));
}

void ExportFigureDialog::resizeEvent(QResizeEvent* event) {
  QDialog::resizeEvent(event);
  show_preview();
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
