// How check --diagnose prints a Diagnosis (core/diagnosis/diagnose.h): one
// line per mistake, or `diagnosis: unknown` with what the differing elements
// share; --json as one document.
#pragma once

#include <optional>
#include <ostream>
#include <string>

#include "core/diagnosis/diagnose.h"

namespace stridescope::cli {

//   diagnosis: reflection-repeats-edge: REFLECTION padding repeats the edge element, ...
//     known in: ...                          (where the catalogue names someone)
//   diagnosis: last-maximum-wins: ... (explains 2 of 3 differing elements)
//   diagnosis: unknown
//     in common: only padded positions
// `misfit` is the error that a result that does not fit the spec got: the
// diagnosis is then about its shape.
void print_diagnosis(std::ostream& out, const Diagnosis& diagnosis, bool json,
                     const std::optional<std::string>& misfit = std::nullopt);

}  // namespace stridescope::cli
