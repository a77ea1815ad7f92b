// The names the spec form gives its fields, for messages about them: the
// error banner says "Window stride, dim 2 (H)" before the spec path
// "params.inputWindowStrides[2]" that the file and the CLI use.
#pragma once

#include <cstddef>

#include <QString>

#include "core/op_schema.h"

namespace stridescope::ui {

// What the form calls the field at spec path `path`; empty for paths it has
// no field for.
QString field_label(OpKind kind, std::size_t rank, const QString& path);

// The tensor dimension that entry i of an array describes: arrays with one
// entry per spatial dimension start after {N, C}.
std::size_t param_dimension(ParamExtent extent, std::size_t i);

}  // namespace stridescope::ui
