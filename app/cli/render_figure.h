// The part of `render` that draws figures. It needs Qt (Gui and Svg), so it
// is a library of its own: built and linked into stridescope-cli only when
// the Qt app is built. Without it, render_figure answers that figures are
// not in this build (render --text still works). No Qt type appears here.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/animation_order.h"
#include "core/backend.h"
#include "core/io/spec_file.h"

namespace stridescope::cli {

enum class FigurePanelName { Input, Output, Indices };

struct RenderRequest {
  std::string out;
  std::vector<FigurePanelName> panels;  // empty: the defaults
  bool memory = false;
  bool all_planes = false;
  std::vector<Coord> planes;
  std::optional<Coord> at;
  double scale = 1.0;
  bool dark = false;
  bool legend = true;
  std::string title;
  bool animate = false;
  double fps = 4;
  VisitOrder order = VisitOrder::Logical;
};

// Whether this build can draw figures.
bool figures_available();

// Evaluates `spec` on `backend` and writes the figure (or animation) to
// request.out. Errors name the option or the file.
Status render_figure(const Spec& spec, const RenderRequest& request, std::unique_ptr<Backend> backend);

}  // namespace stridescope::cli
