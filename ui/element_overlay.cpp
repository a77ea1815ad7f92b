#include "ui/element_overlay.h"

namespace stridescope::ui {
namespace {

quint32 padding_flag(PaddingMode mode) {
  switch (mode) {
    case PaddingMode::Constant: return kPadConstant;
    case PaddingMode::Edge: return kPadEdge;
    case PaddingMode::Reflection: return kPadReflection;
    case PaddingMode::Symmetric: return kPadSymmetric;
  }
  return kNoOverlay;
}

}  // namespace

InputOverlay input_overlay(const Evaluation& evaluation, const Coord& in) {
  InputOverlay overlay;
  const ReaderIndex& provenance = evaluation.provenance;
  if (provenance.readers_known() && !provenance.is_read(in)) overlay.flags |= kUnused;
  bool in_window = provenance.window(0).has_value();
  for (std::size_t d = 0; d < in.size() && in_window; ++d) {
    const auto w = provenance.window(d);
    in_window = in[d] >= w->first && in[d] <= w->second;
  }
  if (in_window) overlay.flags |= kInWindow;
  const Operation& op = evaluation.op();
  if (op.kind() == OpKind::Slice || op.kind() == OpKind::Slice1) {
    if (const auto reader = provenance.only_reader(in)) {
      overlay.read_order = QStringLiteral("#%1").arg(op.output().flat_index_of(*reader));
    }
  }
  return overlay;
}

quint32 output_region_flags(const Evaluation& evaluation, const Coord& out) {
  switch (evaluation.provenance.output_kind(out)) {
    case SourceKind::PaddingConstant: return kPadConstant;
    case SourceKind::PaddingFolded: return padding_flag(evaluation.op().params_as<PaddingParams>().mode);
    default: return kNoOverlay;
  }
}
}  // namespace stridescope::ui
