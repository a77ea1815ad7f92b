#include "ui/figure/figure.h"

#include <algorithm>
#include <cmath>

#include "ui/figure/figure_legend.h"
#include "ui/figure/grid_painter.h"
#include "ui/linked_selection.h"
#include "ui/memory_strip_model.h"
#include "ui/text_format.h"

namespace stridescope::ui {

// One grid of the figure: a plane of a tensor or its memory strip, with the
// linked selection that marks the selected element on it.
struct Figure::Grid {
  std::unique_ptr<GridModel> model;
  TensorPlaneModel* plane_model = nullptr;  // null for a memory strip
  std::unique_ptr<LinkedSelection> selection;
  QString label;            // "[0,1,*,*]", "memory: ..."; empty for none
  QRect rect;               // label, headers and cells
  QRect label_rect;
  GridGeometry geometry;    // where the cells lie
  int header_width = 0;
  int header_height = 0;
  GridPaintStyle style;
};

struct Figure::Panel {
  TensorRole role = TensorRole::Input;
  QString heading;   // "Input"
  QString details;   // "FLOAT32 1×1×4×4, strides [16,16,4,1]"
  QRect rect;
  QRect heading_rect;
  QRect details_rect;
  std::vector<std::unique_ptr<Grid>> grids;  // planes, then the memory strip
};

namespace {

struct Metrics {
  double scale = 1;
  QFont base;
  QFont heading;
  QFont title;
  CellFonts cell;
  int margin = 16;
  int gap = 28;
  int vgap = 12;
};

Metrics metrics_for(double scale) {
  Metrics m;
  m.scale = scale;
  m.base = QFont(QStringLiteral("DejaVu Sans"));
  m.base.setPixelSize(std::max(4, static_cast<int>(std::lround(13 * scale))));
  m.heading = m.base;
  m.heading.setBold(true);
  m.heading.setPixelSize(std::max(4, static_cast<int>(std::lround(15 * scale))));
  m.title = m.heading;
  m.title.setPixelSize(std::max(4, static_cast<int>(std::lround(19 * scale))));
  m.cell = cell_fonts(m.base);
  m.margin = static_cast<int>(std::lround(16 * scale));
  m.gap = static_cast<int>(std::lround(32 * scale));
  m.vgap = static_cast<int>(std::lround(12 * scale));
  return m;
}

QColor ink(FigureTheme theme) { return theme == FigureTheme::Dark ? QColor(0xe8, 0xe8, 0xe8) : QColor(0x20, 0x20, 0x20); }
QColor muted(FigureTheme theme) { return theme == FigureTheme::Dark ? QColor(0xa8, 0xa8, 0xa8) : QColor(0x60, 0x60, 0x60); }

// The smallest step of 1, 2 or 5 times a power of ten that is at least `minimum`.
int label_step(double minimum) {
  int decade = 1;
  while (true) {
    for (const int m : {1, 2, 5}) {
      if (m * decade >= minimum) return m * decade;
    }
    if (decade > 100000000) return decade * 10;
    decade *= 10;
  }
}

QString plane_label(const PlaneSelection& plane, std::size_t rank) {
  if (rank <= 2) return {};
  QStringList parts;
  for (std::size_t d = 0; d < rank; ++d) {
    const bool grid = static_cast<int>(d) == plane.row_dim || static_cast<int>(d) == plane.column_dim;
    parts << (grid ? QStringLiteral("*") : QString::number(plane.fixed[d]));
  }
  return QStringLiteral("[") + parts.join(QLatin1Char(',')) + QStringLiteral("]");
}

// Every coordinate of the leading sizes (those before the grid's two), row-major.
std::vector<Coord> all_leading(const Sizes& sizes, std::size_t lead) {
  Sizes leading;
  for (std::size_t d = 0; d < lead; ++d) leading.push_back(sizes[d]);
  std::vector<Coord> planes;
  Coord coord(lead, 0);
  do {
    planes.push_back(coord);
  } while (lead > 0 && static_cast<int>(planes.size()) < kMaxFigurePlanes && next_coord(coord, leading));
  return planes;
}

std::size_t leading_rank(const TensorDesc& desc) { return desc.rank() >= 2 ? desc.rank() - 2 : 0; }

}  // namespace

std::vector<TensorRole> default_figure_panels(const Operation& op) {
  std::vector<TensorRole> panels{TensorRole::Input, TensorRole::Output};
  if (op.output_indices()) panels.push_back(TensorRole::Indices);
  return panels;
}

Status check_figure_options(const Operation& op, const FigureOptions& options) {
  for (TensorRole role : options.panels) {
    if (!tensor_of(op, role)) return invalid("--panels", "this op has no indices tensor (only max_pooling2 with outputIndices)");
  }
  if (options.at) {
    const Sizes& sizes = op.output().sizes();
    if (options.at->size() != sizes.size()) {
      return invalid("--at", "expected " + std::to_string(sizes.size()) + " indices, one per output dimension, got " +
                                 std::to_string(options.at->size()));
    }
    for (std::size_t d = 0; d < sizes.size(); ++d) {
      if ((*options.at)[d] >= sizes[d]) {
        return invalid("--at[" + std::to_string(d) + "]", "index " + std::to_string((*options.at)[d]) +
                                                               " is outside the output (size " +
                                                               std::to_string(sizes[d]) + ")");
      }
    }
  }
  const std::size_t lead = leading_rank(op.output());
  for (std::size_t i = 0; i < options.planes.size(); ++i) {
    const std::string name = options.planes.size() == 1 ? "--plane" : "--plane[" + std::to_string(i) + "]";
    if (options.planes[i].size() != lead) {
      return invalid(name, "expected " + std::to_string(lead) +
                               " indices (the output's dimensions before its last two), got " +
                               std::to_string(options.planes[i].size()));
    }
    for (std::size_t d = 0; d < lead; ++d) {
      if (options.planes[i][d] >= op.output().sizes()[d]) {
        return invalid(name, "index " + std::to_string(options.planes[i][d]) + " of dimension " + std::to_string(d) +
                                 " is outside the output (size " + std::to_string(op.output().sizes()[d]) + ")");
      }
    }
  }
  if (!(options.scale >= 0.25 && options.scale <= 8)) return invalid("--scale", "must be 0.25 to 8");
  return {};
}

Figure::Figure(EvaluationPtr evaluation, FigureOptions options)
    : evaluation_(std::move(evaluation)), options_(std::move(options)) {
  if (options_.panels.empty()) options_.panels = default_figure_panels(evaluation_->op());
  current_ = options_.at;
  build_models();
  set_current(current_);
}

Figure::~Figure() = default;

std::vector<Coord> Figure::planes_for(TensorRole role) const {
  const TensorDesc& desc = *tensor_of(evaluation_->op(), role);
  const std::size_t lead = leading_rank(desc);
  if (options_.all_planes) return all_leading(desc.sizes(), lead);
  std::vector<Coord> planes;
  for (const Coord& wanted : options_.planes) {
    Coord plane(lead, 0);  // the output's plane, clamped to this tensor (the input may have fewer)
    for (std::size_t d = 0; d < lead && d < wanted.size(); ++d) plane[d] = std::min(wanted[d], desc.sizes()[d] - 1);
    if (std::find(planes.begin(), planes.end(), plane) == planes.end()) planes.push_back(plane);
  }
  if (planes.empty()) planes.push_back(Coord(lead, 0));
  return planes;
}

void Figure::build_models() {
  for (TensorRole role : options_.panels) {
    auto panel = std::make_unique<Panel>();
    panel->role = role;
    const TensorDesc& desc = *tensor_of(evaluation_->op(), role);
    panel->heading = to_display_string(role);
    panel->details = QStringLiteral("%1 %2, strides %3")
                         .arg(QString::fromUtf8(to_string(desc.data_type())), shape_text(desc.sizes()),
                              strides_text(desc.strides()));
    for (const Coord& lead : planes_for(role)) {
      auto grid = std::make_unique<Grid>();
      std::unique_ptr<TensorPlaneModel> model;
      if (role == TensorRole::Indices) {
        model = std::make_unique<IndicesModel>();
      } else {
        model = std::make_unique<TensorPlaneModel>(role);
      }
      model->set_evaluation(evaluation_);
      PlaneSelection plane = default_plane(desc.sizes());
      for (std::size_t d = 0; d < lead.size(); ++d) plane.fixed[d] = lead[d];
      model->set_plane(plane);
      LinkedSelection::Models links;
      (role == TensorRole::Input ? links.input : role == TensorRole::Output ? links.output : links.indices) = model.get();
      grid->plane_model = model.get();
      grid->selection = std::make_unique<LinkedSelection>(links);
      grid->selection->set_evaluation(evaluation_);
      grid->model = std::move(model);
      panel->grids.push_back(std::move(grid));
    }
    if (options_.memory) {
      auto grid = std::make_unique<Grid>();
      auto model = std::make_unique<MemoryStripModel>(role);
      model->set_evaluation(evaluation_);
      const PlaneSelection& plane = panel->grids.front()->plane_model->plane();
      const int columns = plane.column_dim >= 0 ? static_cast<int>(std::min<uint64_t>(desc.sizes()[plane.column_dim], 64)) : 1;
      model->set_columns(memory_strip_columns(desc, plane, std::max(16, columns)));
      if (role == TensorRole::Indices) {
        // One index, one colour: the strip names indices as the grid above does.
        const auto* indices = static_cast<const IndicesModel*>(panel->grids.front()->plane_model);
        model->set_index_colours([indices](uint64_t flat) { return indices->index_rgb(flat); });
      }
      LinkedSelection::Models links;
      (role == TensorRole::Input    ? links.input_memory
       : role == TensorRole::Output ? links.output_memory
                                    : links.indices_memory) = model.get();
      grid->selection = std::make_unique<LinkedSelection>(links);
      grid->selection->set_evaluation(evaluation_);
      grid->label = QObject::tr("memory: %1").arg(buffer_summary(desc));
      grid->model = std::move(model);
      panel->grids.push_back(std::move(grid));
    }
    panels_.push_back(std::move(panel));
  }
}

LegendScope Figure::legend_scope() const {
  LegendScope scope{false, false, false, options_.memory};
  for (const auto& panel : panels_) {
    (panel->role == TensorRole::Input ? scope.input : panel->role == TensorRole::Output ? scope.output : scope.indices) = true;
  }
  return scope;
}

void Figure::set_current(std::optional<Coord> output) {
  current_ = std::move(output);
  // Planes follow the current element unless the options fix them.
  const bool follow = !options_.all_planes && options_.planes.empty();
  for (const auto& panel : panels_) {
    for (const auto& grid : panel->grids) {
      TensorPlaneModel* model = grid->plane_model;
      const std::optional<PlaneSelection> fixed =
          model ? std::optional<PlaneSelection>(model->plane()) : std::nullopt;
      if (model && follow && current_ && panel->role != TensorRole::Input) {
        PlaneSelection plane = model->plane();
        for (std::size_t d = 0; d + 2 < plane.fixed.size() && d < current_->size(); ++d) plane.fixed[d] = (*current_)[d];
        model->set_plane(plane);
      }
      grid->selection->select_output(current_);  // moves an input plane to the source
      if (model && !follow) model->set_plane(*fixed);
      if (model) grid->label = plane_label(model->plane(), model->desc()->rank());
    }
  }
  layout();
}

void Figure::layout() {
  const Metrics m = metrics_for(1.0);
  const QFontMetrics base(m.base);
  const QFontMetrics heading(m.heading);
  // One cell size for every text grid, so the panels line up.
  QSizeF text_cell(1, 1);
  for (const auto& panel : panels_) {
    for (const auto& grid : panel->grids) {
      const QSizeF b = base_cell_size(*grid->model, m.cell);
      text_cell = QSizeF(std::max(text_cell.width(), b.width()), std::max(text_cell.height(), b.height()));
    }
  }
  int y = m.margin;
  if (!options_.title.isEmpty()) {
    const QFontMetrics title(m.title);
    title_rect_ = QRect(m.margin, y, title.horizontalAdvance(options_.title) + 4, title.height());
    y += title.height() + m.vgap;
  } else {
    title_rect_ = {};
  }
  int x = m.margin;
  int bottom = y;
  for (const auto& panel : panels_) {
    panel->heading_rect = QRect(x, y, heading.horizontalAdvance(panel->heading) + 2, heading.height());
    panel->details_rect = QRect(x, y + heading.height(), base.horizontalAdvance(panel->details) + 2, base.height());
    int width = std::max(panel->heading_rect.width(), panel->details_rect.width());
    int gy = panel->details_rect.bottom() + 1 + m.vgap;
    const int planes = static_cast<int>(panel->grids.size()) - (options_.memory ? 1 : 0);
    const int per_row = planes <= 1 ? 1 : static_cast<int>(std::ceil(std::sqrt(double(planes))));
    int gx = x;
    int row_bottom = gy;
    for (int i = 0; i < static_cast<int>(panel->grids.size()); ++i) {
      Grid& grid = *panel->grids[i];
      const bool memory = grid.plane_model == nullptr;
      if (memory || (i > 0 && i % per_row == 0)) {  // a new row of planes; the strip below them all
        gx = x;
        gy = row_bottom + m.vgap;
      }
      place_grid(grid, QPoint(gx, gy), text_cell);
      width = std::max(width, grid.rect.right() + 1 - x);
      row_bottom = std::max(row_bottom, grid.rect.bottom() + 1);
      gx = grid.rect.right() + 1 + m.gap / 2;
    }
    panel->rect = QRect(x, y, width, row_bottom - y);
    bottom = std::max(bottom, row_bottom);
    x += width + m.gap;
  }
  int width = x - m.gap + m.margin;
  const int height = bottom + m.margin;
  if (options_.legend) {
    const FigureLegend legend = figure_legend(*evaluation_, current_.has_value(), legend_scope());
    const int legend_width = std::max(width - 2 * m.margin, static_cast<int>(420 * m.scale));
    legend_rect_ = QRect(m.margin, bottom + m.vgap, legend_width,
                         legend_height(legend, m.base, legend_width));
    width = std::max(width, legend_rect_.right() + 1 + m.margin);
    size_ = QSize(width, legend_rect_.bottom() + 1 + m.margin);
  } else {
    legend_rect_ = {};
    size_ = QSize(width, height);
  }
  size_.setWidth(std::max(size_.width(), title_rect_.right() + 1 + m.margin));
  // Laid out at 100% and drawn scaled, so every part (text, cell padding,
  // lines) grows alike and the size is exactly the scale times the layout's.
  size_ = QSize(static_cast<int>(std::ceil(size_.width() * options_.scale)),
                static_cast<int>(std::ceil(size_.height() * options_.scale)));
}

void Figure::place_grid(Grid& grid, QPoint at, QSizeF text_cell) {
  const Metrics m = metrics_for(1.0);
  const QFontMetrics base(m.base);
  const int rows = grid.model->rowCount();
  const int columns = grid.model->columnCount();
  const bool small = rows > kMaxTextCells || columns > kMaxTextCells;
  const QSizeF cell = small ? QSizeF(8, 8) : text_cell;
  grid.style.fonts = m.cell;
  grid.style.show_text = !small && cell_shows_text(cell, m.cell);
  grid.style.show_detail = !small && cell_shows_detail(cell, text_cell);
  grid.style.grid_line = options_.theme == FigureTheme::Dark ? QColor(0, 0, 0, 140) : QColor(255, 255, 255, 150);
  int label_width = base.horizontalAdvance(QStringLiteral("000"));
  if (rows > 0) {
    label_width = std::max({label_width, base.horizontalAdvance(grid.model->row_label(0)),
                            base.horizontalAdvance(grid.model->row_label(rows - 1))});
  }
  grid.header_width = label_width + 8;
  grid.header_height = base.height() + 4;
  const int label_height = grid.label.isEmpty() ? 0 : base.height() + 2;
  grid.label_rect = QRect(at.x(), at.y(), base.horizontalAdvance(grid.label) + 2, label_height);
  grid.geometry = GridGeometry{QPointF(at.x() + grid.header_width, at.y() + label_height + grid.header_height), cell};
  const QRect last = grid.geometry.cell_rect(std::max(rows - 1, 0), std::max(columns - 1, 0));
  grid.rect = QRect(at, QPoint(std::max(last.right(), grid.label_rect.right()), last.bottom()));
}

QColor Figure::background() const {
  return options_.theme == FigureTheme::Dark ? QColor(0x1e, 0x1f, 0x22) : QColor(Qt::white);
}

void Figure::paint(QPainter& painter) const {
  const Metrics m = metrics_for(1.0);
  painter.save();
  painter.fillRect(QRect(QPoint(0, 0), size_), background());
  painter.scale(options_.scale, options_.scale);
  if (!options_.title.isEmpty()) {
    painter.setFont(m.title);
    painter.setPen(ink(options_.theme));
    painter.drawText(title_rect_, Qt::AlignLeft | Qt::AlignVCenter, options_.title);
  }
  for (const auto& panel : panels_) paint_panel(painter, *panel);
  if (options_.legend) {
    paint_figure_legend(painter, legend_rect_, figure_legend(*evaluation_, current_.has_value(), legend_scope()), m.base,
                        ink(options_.theme), muted(options_.theme));
  }
  painter.restore();
}

void Figure::paint_panel(QPainter& painter, const Panel& panel) const {
  const Metrics m = metrics_for(1.0);
  painter.setPen(ink(options_.theme));
  painter.setFont(m.heading);
  painter.drawText(panel.heading_rect, Qt::AlignLeft | Qt::AlignVCenter, panel.heading);
  painter.setFont(m.base);
  painter.setPen(muted(options_.theme));
  painter.drawText(panel.details_rect, Qt::AlignLeft | Qt::AlignVCenter, panel.details);
  for (const auto& grid : panel.grids) paint_grid_item(painter, *grid);
}

void Figure::paint_grid_item(QPainter& painter, const Grid& grid) const {
  const Metrics m = metrics_for(1.0);
  const GridModel& model = *grid.model;
  const int rows = model.rowCount();
  const int columns = model.columnCount();
  const QFontMetrics base(m.base);
  painter.setFont(m.base);
  painter.setPen(muted(options_.theme));
  if (!grid.label.isEmpty()) painter.drawText(grid.label_rect, Qt::AlignLeft | Qt::AlignVCenter, grid.label);
  if (rows == 0 || columns == 0) return;
  // Index headers, thinned to a readable step where cells are small.
  const QSizeF cell = grid.geometry.cell;
  const int widest = std::max(base.horizontalAdvance(model.column_label(0)),
                              base.horizontalAdvance(model.column_label(columns - 1))) + static_cast<int>(6 * m.scale);
  const int column_step = label_step(widest / cell.width());
  const int header_top = grid.label_rect.bottom() + 1;
  for (int c = 0; c < columns; c += column_step) {
    const QRect r = grid.geometry.cell_rect(0, c);
    const QRect label(r.left(), header_top, column_step == 1 ? r.width() : widest, grid.header_height);
    painter.drawText(label, (column_step == 1 ? Qt::AlignHCenter : Qt::AlignLeft) | Qt::AlignVCenter,
                     model.column_label(c));
  }
  const int row_step = label_step(base.height() / cell.height());
  for (int r = 0; r < rows; r += row_step) {
    const QRect rr = grid.geometry.cell_rect(r, 0);
    const QRect label(grid.rect.left(), rr.top(), grid.header_width - static_cast<int>(5 * m.scale),
                      row_step == 1 ? rr.height() : base.height());
    painter.drawText(label, Qt::AlignRight | (row_step == 1 ? Qt::AlignVCenter : Qt::AlignTop), model.row_label(r));
  }
  paint_grid(painter, model, grid.geometry, CellRange{0, rows - 1, 0, columns - 1}, grid.style);
}

std::optional<QRect> Figure::cell_rect(TensorRole role, const Coord& coord) const {
  for (const auto& panel : panels_) {
    if (panel->role != role) continue;
    for (const auto& grid : panel->grids) {
      if (!grid->plane_model) continue;
      if (const auto cell = grid->plane_model->cell_of(coord)) {
        const QRectF rect = grid->geometry.cell_rect(cell->first, cell->second);
        const double s = options_.scale;
        return QRectF(rect.x() * s, rect.y() * s, rect.width() * s, rect.height() * s).toAlignedRect();
      }
    }
  }
  return std::nullopt;
}

QStringList Figure::value_texts() const {
  QStringList texts;
  for (const auto& panel : panels_) {
    for (const auto& grid : panel->grids) {
      if (!grid->style.show_text) continue;
      for (int r = 0; r < grid->model->rowCount(); ++r) {
        for (int c = 0; c < grid->model->columnCount(); ++c) {
          const CellVisual cell = grid->model->cell(r, c);
          if (!cell.empty && !cell.text.isEmpty()) texts << cell.text;
        }
      }
    }
  }
  return texts;
}

}  // namespace stridescope::ui
