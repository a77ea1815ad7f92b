// Links the views both ways: hovering or selecting an output element lights
// up where it came from (input elements, pooling window and winner, buffer
// offsets); hovering an input element lights up every output element that
// reads it; hovering a buffer element lights up the coordinates stored there.
// Everything it shows comes from core, through the evaluation's ReaderIndex
// (built once per evaluation, off the UI thread): explain() over its plans for
// one output element, its reader lists for one input element, so a hover
// rebuilds no plan. It also states the rule at the cursor for the status
// line. No widgets: tests drive it directly.
#pragma once

#include <optional>

#include <QObject>
#include <QString>

#include "core/provenance.h"
#include "ui/evaluation.h"
#include "ui/memory_strip_model.h"
#include "ui/tensor_plane_model.h"

namespace stridescope::ui {

class LinkedSelection : public QObject {
  Q_OBJECT

 public:
  struct Models {
    TensorPlaneModel* input = nullptr;
    TensorPlaneModel* output = nullptr;
    TensorPlaneModel* indices = nullptr;
    MemoryStripModel* input_memory = nullptr;
    MemoryStripModel* output_memory = nullptr;
    MemoryStripModel* indices_memory = nullptr;
  };

  explicit LinkedSelection(Models models, QObject* parent = nullptr);

  void set_evaluation(EvaluationPtr evaluation);

  // Output and indices share coordinates: both report through these.
  void hover_output(std::optional<Coord> coord);
  // Also brings the output and indices planes to the element, and the input
  // plane to its source (or its pooling window's first tap).
  void select_output(std::optional<Coord> coord);
  // `coord` may lie in a pooling input's padding margin.
  void hover_input(std::optional<SignedCoord> coord);
  void hover_memory(TensorRole role, std::optional<uint64_t> offset);
  void clear_hover();

  const std::optional<Coord>& selected_output() const { return selected_; }
  // What the overlays currently show for an output element (hovered, else selected).
  const std::optional<Provenance>& shown_provenance() const { return provenance_; }
  QString status_text() const { return status_; }

 signals:
  void statusChanged(const QString& text);
  // An output element was selected (a click, the compare table, the
  // animation, a tool): whatever follows the selection listens here.
  void outputSelected(const Coord& coord);

 private:
  enum class Focus { None, Output, Input, Memory };

  void refresh();
  // Shows the plane `target` lies on, when `model` shows another.
  static void bring_to_plane(TensorPlaneModel* model, const SignedCoord& target);
  void show_output(const Coord& coord);
  void show_input(const SignedCoord& coord);
  void show_memory(TensorRole role, uint64_t offset);
  void clear_all();
  void set_status(const QString& text);

  Models models_;
  EvaluationPtr evaluation_;
  std::optional<Coord> selected_;
  Focus focus_ = Focus::None;
  std::optional<Coord> hovered_output_;
  std::optional<SignedCoord> hovered_input_;
  std::optional<std::pair<TensorRole, uint64_t>> hovered_memory_;
  std::optional<Provenance> provenance_;
  QString status_;
};

}  // namespace stridescope::ui
