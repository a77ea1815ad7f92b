// render: a spec as a figure (PNG, SVG, animated GIF or SVG; render_figure.h,
// which needs Qt) or, with --text, as the text grids demo prints (no Qt needed).
#include <algorithm>
#include <charconv>
#include <span>

#include "app/cli/commands.h"
#include "app/cli/render_figure.h"
#include "app/cli/tensor_text.h"
#include "core/provenance.h"
#include "core/scalar.h"

namespace stridescope::cli {
namespace {

constexpr uint64_t kMaxTextElements = 1024;

Expected<double> parse_number(const std::string& text, const std::string& option, double least, double most) {
  double value = 0;
  const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || result.ec != std::errc() || result.ptr != text.data() + text.size()) {
    return invalid(option, "expected a number, got '" + text + "'");
  }
  if (!(value >= least && value <= most)) {
    return invalid(option, "must be " + format_scalar(least) + " to " + format_scalar(most) + ", got " + text);
  }
  return value;
}

Expected<std::vector<FigurePanelName>> parse_panels(const std::string& text) {
  std::vector<FigurePanelName> panels;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    FigurePanelName name;
    if (item == "input") {
      name = FigurePanelName::Input;
    } else if (item == "output") {
      name = FigurePanelName::Output;
    } else if (item == "indices") {
      name = FigurePanelName::Indices;
    } else {
      return invalid("--panels", "expected input, output or indices, got '" + item + "'");
    }
    if (std::find(panels.begin(), panels.end(), name) != panels.end()) {
      return invalid("--panels", "names '" + item + "' twice");
    }
    panels.push_back(name);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return panels;
}

// "all", or planes "I,J" separated by ':'.
Status parse_planes(const std::string& text, RenderRequest& request) {
  if (text == "all") {
    request.all_planes = true;
    return {};
  }
  std::size_t start = 0;
  while (true) {
    const std::size_t colon = text.find(':', start);
    const std::string item = text.substr(start, colon == std::string::npos ? std::string::npos : colon - start);
    SS_ASSIGN_OR_RETURN(const std::vector<uint64_t> plane, parse_index_list(item, "--plane"));
    request.planes.push_back(Coord(std::span<const uint64_t>(plane)));
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  return {};
}

Expected<RenderRequest> parse_request(const CliArguments& args) {
  RenderRequest request;
  if (args.text == args.out.has_value()) {
    return invalid(args.text ? "--text" : "--out", args.text ? "prints to the terminal: leave out --out"
                                                            : "render needs --out FIG.png|FIG.svg|FIG.gif (or --text)");
  }
  if (args.out) request.out = *args.out;
  if (args.panels) {
    SS_ASSIGN_OR_RETURN(request.panels, parse_panels(*args.panels));
  }
  request.memory = args.memory;
  if (args.plane) {
    SS_RETURN_IF_ERROR(parse_planes(*args.plane, request));
  }
  if (args.at) {
    SS_ASSIGN_OR_RETURN(const std::vector<uint64_t> at, parse_index_list(*args.at, "--at"));
    request.at = Coord(std::span<const uint64_t>(at));
  }
  if (args.scale) {
    SS_ASSIGN_OR_RETURN(request.scale, parse_number(*args.scale, "--scale", 0.25, 8));
  }
  if (args.theme) {
    if (*args.theme != "light" && *args.theme != "dark") {
      return invalid("--theme", "expected light or dark, got '" + *args.theme + "'");
    }
    request.dark = *args.theme == "dark";
  }
  request.legend = !args.no_legend;
  if (args.title) request.title = *args.title;
  if (args.compare_with) request.compare_with = *args.compare_with;
  request.animate = args.animate;
  if ((args.fps || args.order) && !args.animate) {
    return invalid(args.fps ? "--fps" : "--order", "applies to --animate only");
  }
  if (args.fps) {
    SS_ASSIGN_OR_RETURN(request.fps, parse_number(*args.fps, "--fps", 0.1, 100));
  }
  if (args.order) {
    const std::optional<VisitOrder> order = parse_visit_order(*args.order);
    if (!order) return invalid("--order", "expected logical or buffer, got '" + *args.order + "'");
    request.order = *order;
  }
  if (args.text && (args.animate || args.title || args.scale || args.theme || args.no_legend || args.compare_with)) {
    return invalid("--text",
                   "prints grids: --animate, --title, --scale, --theme, --no-legend and --compare-with are for figures");
  }
  return request;
}

const TensorDesc* panel_tensor(const Operation& op, FigurePanelName name) {
  switch (name) {
    case FigurePanelName::Input: return &op.input();
    case FigurePanelName::Output: return &op.output();
    case FigurePanelName::Indices: return op.output_indices() ? &*op.output_indices() : nullptr;
  }
  return nullptr;
}

// What demo prints for one spec, for the chosen panels.
int print_text(Context& context, const LoadedSpec& loaded, const RenderRequest& request) {
  const Operation& op = loaded.op;
  std::vector<FigurePanelName> panels = request.panels;
  if (panels.empty()) {
    panels = {FigurePanelName::Input, FigurePanelName::Output};
    if (op.output_indices()) panels.push_back(FigurePanelName::Indices);
  }
  for (FigurePanelName name : panels) {
    if (!panel_tensor(op, name)) {
      return fail(context, invalid("--panels", "this op has no indices tensor (only max_pooling2 with outputIndices)"));
    }
  }
  Expected<std::unique_ptr<Backend>> backend = context.env.make_backend("cpu", context.backend_options);
  if (!backend) return fail(context, backend.error());
  Expected<RunResult> result = run_to_new_buffers(**backend, op, loaded.input);
  if (!result) return fail(context, result.error());
  std::ostream& out = context.out;
  if (request.at) {
    Expected<Provenance> provenance = explain(op, *request.at, loaded.input);
    if (!provenance) return fail(context, provenance.error());
    out << "at " << format_coord(*request.at) << ": " << provenance->rule << '\n';
  }
  out << to_string(op.kind()) << '\n';
  for (FigurePanelName name : panels) {
    const TensorDesc& desc = *panel_tensor(op, name);
    const std::vector<std::byte>& buffer = name == FigurePanelName::Input    ? loaded.input
                                           : name == FigurePanelName::Output ? result->output
                                                                             : result->indices;
    const char* label = name == FigurePanelName::Input ? "input " : name == FigurePanelName::Output ? "output" : "outputIndices";
    out << tensor_line(label, desc) << '\n';
    if (request.memory) out << "  buffer:" << buffer_text(desc, buffer, kMaxTextElements) << '\n';
    out << format_grid(desc, buffer, "  ", kMaxTextElements);
  }
  return kExitOk;
}

}  // namespace

int command_render(Context& context) {
  const CliArguments& args = context.args;
  Expected<RenderRequest> request = parse_request(args);
  if (!request) return fail(context, request.error());
  Expected<LoadedSpec> loaded = load_validated(args.positional[0], context.limits);
  if (!loaded) return fail(context, loaded.error());
  if (args.text) return print_text(context, *loaded, *request);
  Expected<std::unique_ptr<Backend>> backend = context.env.make_backend("cpu", context.backend_options);
  if (!backend) return fail(context, backend.error());
  if (!context.env.draw_figure) {
    return fail(context, Error{ErrorCode::BackendUnavailable, "--out " + request->out,
                               "figures are drawn by stridescope-render, which is not beside this stridescope-cli "
                               "(a build without Qt: STRIDESCOPE_BUILD_UI=OFF); render --text prints the grids"});
  }
  if (Status s = context.env.draw_figure(loaded->spec, *request, std::move(*backend)); !s.ok()) return fail(context, s.error());
  return kExitOk;
}

}  // namespace stridescope::cli
