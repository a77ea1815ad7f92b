// What `render` asks of a figure, and the part that draws it. Drawing needs Qt
// (Gui and Svg), whose libraries cost every process start ~5 ms to load, so
// render_figure is a library of its own linked only into stridescope-render
// (render_main.cpp) and the figure tests; stridescope-cli itself starts
// without Qt and hands `render` to stridescope-render (main.cpp). The drawer
// reaches the command code through Environment::draw_figure (cli.h). No Qt
// type appears here.
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
  // Another implementation's result (check's RESULT): the elements where it
  // differs are flagged, as the app's Compare with Result marks them.
  std::string compare_with;
};

// Evaluates `spec` on `backend` and writes the figure (or animation) to
// request.out. Errors name the option or the file.
Status render_figure(const Spec& spec, const RenderRequest& request, std::unique_ptr<Backend> backend);

}  // namespace stridescope::cli
