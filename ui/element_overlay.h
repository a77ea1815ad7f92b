// What the views say about one logical element beyond its value, from the
// evaluation's provenance: whether an input element is read, whether it lies
// in the slice window and in which order the slice takes it, and which
// padding region an output element belongs to. The plane grid and the memory
// strip both ask here, so an element looks the same in either view.
#pragma once

#include <QString>

#include "core/operation.h"
#include "ui/evaluation.h"
#include "ui/grid_model.h"

namespace stridescope::ui {

struct InputOverlay {
  quint32 flags = kNoOverlay;  // kUnused (no output reads it), kInWindow
  // slice and slice1: "#k", the row-major position of the one output that
  // reads the element, which is the order the op takes elements in.
  QString read_order;
};

InputOverlay input_overlay(const Evaluation& evaluation, const Coord& in);

// The padding region of an output element (kPadConstant, kPadEdge,
// kPadReflection, kPadSymmetric), or kNoOverlay.
quint32 output_region_flags(const Evaluation& evaluation, const Coord& out);

}  // namespace stridescope::ui
