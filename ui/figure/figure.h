// A figure of one evaluated spec for slides and documents: the chosen panels
// (input, output, indices), each on one, several or all of its planes and
// optionally with its memory strip, the same overlays the app draws for a
// selected output element, an optional title and legend, at a chosen scale,
// light or dark, with no widget chrome. Qt Gui only (QPainter); the cells are
// drawn by grid_painter.h, exactly as the app's views draw them.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include <QPainter>
#include <QColor>
#include <QSize>
#include <QString>
#include <QStringList>

#include "core/error.h"
#include "ui/evaluation.h"
#include "ui/figure/figure_legend.h"
#include "ui/tensor_plane_model.h"

namespace stridescope::ui {

enum class FigureTheme { Light, Dark };

struct FigureOptions {
  std::vector<TensorRole> panels;  // empty: input, output, and indices when the op has them
  bool memory = false;             // each panel's memory strip under its planes
  bool all_planes = false;         // every plane (at most kMaxFigurePlanes a panel)
  // The planes to show, as indices of the dimensions before the last two (the
  // grid's); empty: the plane of the selected element (its source's for the
  // input), else the first.
  std::vector<Coord> planes;
  std::optional<Coord> at;  // the selected output element
  double scale = 1.0;       // the figure laid out at 1 (a 13-pixel font), drawn this many times larger
  FigureTheme theme = FigureTheme::Light;
  bool legend = true;
  QString title;
};

inline constexpr int kMaxFigurePlanes = 64;
// Past this many rows or columns a plane is drawn as small squares without text.
inline constexpr int kMaxTextCells = 40;

// Checks the options against `op`, naming the option: "--at: ...",
// "--plane[1]: ...", "--panels: ...".
Status check_figure_options(const Operation& op, const FigureOptions& options);

class Figure {
 public:
  // `options` must have passed check_figure_options. A QGuiApplication must exist (fonts).
  Figure(EvaluationPtr evaluation, FigureOptions options);
  ~Figure();
  Figure(const Figure&) = delete;
  Figure& operator=(const Figure&) = delete;

  const FigureOptions& options() const { return options_; }
  const EvaluationPtr& evaluation() const { return evaluation_; }
  // The selected output element (an animation's current one); planes follow
  // it unless the options fix them. Lays the figure out again.
  void set_current(std::optional<Coord> output);

  QSize size() const { return size_; }
  void paint(QPainter& painter) const;

  // Where the cell of `coord` of the panel of `role` lies in the scaled
  // figure (the first plane showing it), for tests and tools; nullopt when not shown.
  std::optional<QRect> cell_rect(TensorRole role, const Coord& coord) const;
  // The value texts the figure draws, one per cell that shows its value.
  QStringList value_texts() const;
  QColor background() const;

 private:
  struct Grid;
  struct Panel;
  void build_models();
  void layout();
  // Lays `grid` out with its top-left at `at`: text cells of `text_cell`, or
  // small squares without text past kMaxTextCells.
  void place_grid(Grid& grid, QPoint at, QSizeF text_cell);
  void paint_panel(QPainter& painter, const Panel& panel) const;
  void paint_grid_item(QPainter& painter, const Grid& grid) const;
  void paint_legend(QPainter& painter) const;
  std::vector<Coord> planes_for(TensorRole role) const;
  LegendScope legend_scope() const;  // the panels and strips this figure draws

  EvaluationPtr evaluation_;
  FigureOptions options_;
  std::optional<Coord> current_;
  std::vector<std::unique_ptr<Panel>> panels_;
  QSize size_;
  QRect title_rect_;
  QRect legend_rect_;
};

// Default panels for `op`: input, output, and indices when it has them.
std::vector<TensorRole> default_figure_panels(const Operation& op);

}  // namespace stridescope::ui
