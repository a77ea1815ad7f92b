// render_figure in a build without Qt (the core-only preset).
#include "app/cli/render_figure.h"

namespace stridescope::cli {

bool figures_available() { return false; }

Status render_figure(const Spec&, const RenderRequest& request, std::unique_ptr<Backend>) {
  return Error{ErrorCode::BackendUnavailable, "--out " + request.out,
               "this stridescope-cli was built without Qt, so it draws no figures "
               "(build with STRIDESCOPE_BUILD_UI=ON); render --text prints the grids"};
}

}  // namespace stridescope::cli
