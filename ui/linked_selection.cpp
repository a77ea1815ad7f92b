#include "ui/linked_selection.h"

#include <algorithm>

#include "core/scalar.h"

namespace stridescope::ui {
namespace {

// The grid draws every tap of a window up to 1024x1024 (CLI explain lists
// 65,536); past that the first taps and the winner, so memory stays bounded.
constexpr std::size_t kMaxDrawnTaps = std::size_t{1} << 20;

QString coord_text(const Coord& coord) { return QString::fromStdString(format_coord(coord)); }

QString signed_text(const SignedCoord& coord) { return QString::fromStdString(format_coord(coord)); }

SignedCoord to_signed(const Coord& coord) {
  SignedCoord s;
  for (uint64_t c : coord) s.push_back(static_cast<int64_t>(c));
  return s;
}

// A pooling window's marks on the input plane and its memory strip.
void mark_window(const Provenance& p, std::vector<ElementMark>& in_marks,
                 std::vector<std::pair<uint64_t, quint32>>& memory_marks) {
  SignedCoord lo = p.window.front().coord;
  SignedCoord hi = lo;
  for (std::size_t t = 0; t < p.window.size(); ++t) {
    const PoolingTap& tap = p.window[t];
    const bool winner = p.winner && *p.winner == t;
    in_marks.push_back({tap.coord, (tap.padded ? kPaddedTap : kTap) | (winner ? kWinner : 0u)});
    if (!tap.padded) memory_marks.emplace_back(tap.offset, winner ? (kWinner | kTap) : kTap);
    for (std::size_t d = 0; d < tap.coord.size(); ++d) {
      lo[d] = std::min(lo[d], tap.coord[d]);
      hi[d] = std::max(hi[d], tap.coord[d]);
    }
  }
  // A huge window lists only its first taps; the winner may lie past them.
  if (p.winner && *p.winner >= p.window.size() && p.source) {
    SignedCoord winner;
    for (uint64_t c : *p.source) winner.push_back(static_cast<int64_t>(c));
    in_marks.push_back({winner, kTap | kWinner});
    memory_marks.emplace_back(p.source_offset, kWinner | kTap);
  }
  // The window's bounding box, so the cells between dilated taps show as gaps.
  if (p.window.size() > 1 && lo.size() >= 4) {
    SignedCoord c = lo;
    const std::size_t rank = lo.size();
    for (bool more = true; more;) {
      in_marks.push_back({c, kTapWindow});
      more = false;
      for (std::size_t d = rank; d-- > 2;) {
        if (++c[d] <= hi[d]) {
          more = true;
          break;
        }
        c[d] = lo[d];
      }
    }
  }
}

}  // namespace

LinkedSelection::LinkedSelection(Models models, QObject* parent) : QObject(parent), models_(models) {}

void LinkedSelection::set_evaluation(EvaluationPtr evaluation) {
  evaluation_ = std::move(evaluation);
  // A selection survives an edit when the coordinate still exists.
  if (selected_ && evaluation_) {
    const Sizes& sizes = evaluation_->op().output().sizes();
    bool inside = selected_->size() == sizes.size();
    for (std::size_t d = 0; inside && d < sizes.size(); ++d) inside = (*selected_)[d] < sizes[d];
    if (!inside) selected_.reset();
  }
  hovered_output_.reset();
  hovered_input_.reset();
  hovered_memory_.reset();
  refresh();
}

void LinkedSelection::hover_output(std::optional<Coord> coord) {
  if (coord == hovered_output_ && (coord || focus_ != Focus::Output)) return;
  hovered_output_ = std::move(coord);
  hovered_input_.reset();
  hovered_memory_.reset();
  refresh();
}

void LinkedSelection::select_output(std::optional<Coord> coord) {
  selected_ = std::move(coord);
  if (selected_ && evaluation_) {
    // Bring the output (and indices) plane to the selected element, and the
    // input plane to where its source lives: a click, the compare table or
    // the animation may select an element on a plane not shown.
    for (TensorPlaneModel* model : {models_.output, models_.indices}) bring_to_plane(model, to_signed(*selected_));
    const Expected<Provenance> p = explain(evaluation_->op(), evaluation_->provenance, *selected_, evaluation_->input, kMaxDrawnTaps);
    if (p && p->source) {
      bring_to_plane(models_.input, to_signed(*p->source));
    } else if (p && !p->window.empty()) {
      bring_to_plane(models_.input, p->window.front().coord);
    }
  }
  refresh();
  if (selected_) emit outputSelected(*selected_);
}

void LinkedSelection::bring_to_plane(TensorPlaneModel* model, const SignedCoord& target) {
  if (!model || !model->desc() || model->desc()->rank() != target.size() || model->cell_of(target)) return;
  PlaneSelection plane = model->plane();
  for (std::size_t d = 0; d < plane.fixed.size() && d < target.size(); ++d) {
    plane.fixed[d] = static_cast<uint64_t>(std::max<int64_t>(target[d], 0));
  }
  model->set_plane(plane);
}

void LinkedSelection::hover_input(std::optional<SignedCoord> coord) {
  hovered_input_ = std::move(coord);
  hovered_output_.reset();
  hovered_memory_.reset();
  refresh();
}

void LinkedSelection::hover_memory(TensorRole role, std::optional<uint64_t> offset) {
  hovered_memory_.reset();
  if (offset) hovered_memory_ = std::make_pair(role, *offset);
  hovered_output_.reset();
  hovered_input_.reset();
  refresh();
}

void LinkedSelection::clear_hover() {
  if (!hovered_output_ && !hovered_input_ && !hovered_memory_) return;
  hovered_output_.reset();
  hovered_input_.reset();
  hovered_memory_.reset();
  refresh();
}

void LinkedSelection::clear_all() {
  for (TensorPlaneModel* m : {models_.input, models_.output, models_.indices}) {
    if (m) m->clear_dynamic();
  }
  for (MemoryStripModel* m : {models_.input_memory, models_.output_memory, models_.indices_memory}) {
    if (m) m->clear_dynamic();
  }
}

void LinkedSelection::set_status(const QString& text) {
  if (text == status_) return;
  status_ = text;
  emit statusChanged(status_);
}

void LinkedSelection::refresh() {
  provenance_.reset();
  clear_all();
  if (!evaluation_) {
    focus_ = Focus::None;
    set_status({});
    return;
  }
  if (hovered_output_) {
    focus_ = Focus::Output;
    show_output(*hovered_output_);
  } else if (hovered_input_) {
    focus_ = Focus::Input;
    show_input(*hovered_input_);
  } else if (hovered_memory_) {
    focus_ = Focus::Memory;
    show_memory(hovered_memory_->first, hovered_memory_->second);
  } else if (selected_) {
    focus_ = Focus::Output;
    show_output(*selected_);
  } else {
    focus_ = Focus::None;
    set_status(tr("Hover or click an element to see where it comes from"));
  }
}

void LinkedSelection::show_output(const Coord& coord) {
  const Operation& op = evaluation_->op();
  Expected<Provenance> explained = explain(op, evaluation_->provenance, coord, evaluation_->input, kMaxDrawnTaps);
  if (!explained) {
    set_status(QString::fromStdString(explained.error().to_string()));
    return;
  }
  const Provenance& p = *explained;

  // The output element itself, hovered and/or selected.
  std::vector<ElementMark> out_marks;
  if (selected_) out_marks.push_back({to_signed(*selected_), kSelected});
  if (!selected_ || *selected_ != coord) out_marks.push_back({to_signed(coord), kHovered});
  if (models_.output) models_.output->set_marks(out_marks);
  if (models_.indices) models_.indices->set_marks(out_marks);
  if (models_.output_memory) models_.output_memory->set_marks({{p.output_offset, kSelected}});
  if (models_.indices_memory && op.output_indices()) {
    models_.indices_memory->set_marks({{op.output_indices()->offset_of(coord), kSelected}});
  }

  // Where it comes from.
  std::vector<ElementMark> in_marks;
  std::vector<std::pair<uint64_t, quint32>> memory_marks;
  if (p.kind == SourceKind::Pooled) {
    mark_window(p, in_marks, memory_marks);
  } else if (p.source) {
    in_marks.push_back({to_signed(*p.source), kSource});
    memory_marks.emplace_back(p.source_offset, kSource);
  }
  if (models_.input) models_.input->set_marks(in_marks);
  if (models_.input_memory) models_.input_memory->set_marks(memory_marks);

  provenance_ = p;
  set_status(QString::fromStdString(p.rule));
}

void LinkedSelection::show_input(const SignedCoord& signed_coord) {
  const Operation& op = evaluation_->op();
  const TensorDesc& in = op.input();
  Coord coord;
  bool inside = signed_coord.size() == in.rank();
  for (std::size_t d = 0; inside && d < signed_coord.size(); ++d) {
    inside = signed_coord[d] >= 0 && static_cast<uint64_t>(signed_coord[d]) < in.sizes()[d];
    if (inside) coord.push_back(static_cast<uint64_t>(signed_coord[d]));
  }
  if (models_.input) models_.input->set_marks({{signed_coord, kHovered}});
  if (!inside) {
    set_status(tr("padding at %1: a pooling window tap that lands here is never read and never wins")
                   .arg(signed_text(signed_coord)));
    return;
  }
  const uint64_t offset = in.offset_of(coord);
  if (models_.input_memory) models_.input_memory->set_marks({{offset, kHovered}});

  // The evaluation's tables (or, where they were too large, its plans) answer
  // without rebuilding anything on a mouse move.
  const AxisIndexSets sets = evaluation_->provenance.readers_of(coord);
  uint64_t count = 1;
  for (std::size_t d = 0; d < in.rank(); ++d) count *= sets[d].size();
  if (models_.output) models_.output->set_reader_sets(sets);
  if (models_.indices) models_.indices->set_reader_sets(sets);

  const QString value =
      QString::fromStdString(format_scalar(element_at(in, evaluation_->input, coord)));
  QString text = tr("in%1 (offset %2) = %3 -- ").arg(coord_text(coord)).arg(offset).arg(value);
  const bool pooling = op.kind() == OpKind::MaxPooling2;
  if (count == 0) {
    text += pooling ? tr("no pooling window covers it") : tr("no output element reads it");
  } else {
    // List a few readers: the Cartesian product of the per-axis lists.
    QStringList listed;
    Coord pick(in.rank(), 0);
    std::array<std::size_t, kMaxRank> at{};
    for (uint64_t n = 0; n < std::min<uint64_t>(count, 4); ++n) {
      for (std::size_t d = 0; d < in.rank(); ++d) pick[d] = sets[d][at[d]];
      listed << QStringLiteral("out") + coord_text(pick);
      for (std::size_t d = in.rank(); d-- > 0;) {
        if (++at[d] < sets[d].size()) break;
        at[d] = 0;
      }
    }
    const QString who = listed.join(QStringLiteral(", ")) + (count > 4 ? tr(", ...") : QString());
    if (pooling) {
      text += count == 1 ? tr("in the window of %1").arg(who)
                         : tr("in the windows of %1 output elements: %2").arg(count).arg(who);
    } else {
      text += count == 1 ? tr("read by %1").arg(who) : tr("read by %1 output elements: %2").arg(count).arg(who);
    }
  }
  set_status(text);
}

void LinkedSelection::show_memory(TensorRole role, uint64_t offset) {
  MemoryStripModel* memory = role == TensorRole::Input    ? models_.input_memory
                             : role == TensorRole::Output ? models_.output_memory
                                                          : models_.indices_memory;
  TensorPlaneModel* plane = role == TensorRole::Input    ? models_.input
                            : role == TensorRole::Output ? models_.output
                                                         : models_.indices;
  if (memory) memory->set_marks({{offset, kHovered}});
  if (plane) plane->set_offset_highlight(offset);
  const TensorDesc* desc = tensor_of(evaluation_->op(), role);
  const std::vector<std::byte>* bytes = buffer_of(*evaluation_, role);
  if (!desc || offset >= desc->buffer_elements()) {
    set_status({});
    return;
  }
  const QString value = QString::fromStdString(format_scalar(element_at_offset(*desc, *bytes, offset)));
  QString text = tr("%1 buffer offset %2 = %3").arg(to_display_string(role)).arg(offset).arg(value);
  if (const auto count = memory ? memory->use_count(offset) : std::nullopt) {
    if (*count == 0) {
      text += tr(" -- a gap: no coordinate is stored here (the strides skip it)");
    } else if (*count == 1) {
      text += tr(" -- used by one coordinate");
    } else {
      text += tr(" -- shared by %1 coordinates: a stride of 0 (broadcast) or overlapping strides reuse it")
                  .arg(*count);
    }
  }
  set_status(text);
}

}  // namespace stridescope::ui
