// A diagnosis (diagnose.h) as the lines people read, the same in
// `stridescope-cli check --diagnose` and in the app's Result Comparison panel:
//
//   diagnosis: reflection-repeats-edge: REFLECTION padding repeats the edge element, ...
//     known in: ...                          (where the catalogue names someone)
//   diagnosis: last-maximum-wins: ... (explains 2 of 3 differing elements)
//   diagnosis: unknown
//     in common: only padded positions
#pragma once

#include <string>
#include <vector>

#include "core/diagnosis/diagnose.h"

namespace stridescope {

// No lines when the result is equal. `misfit`: the result did not fit the
// spec (the diagnosis is then about its shape), so "unknown" even with no
// differing element.
std::vector<std::string> diagnosis_lines(const Diagnosis& diagnosis, bool misfit = false);

}  // namespace stridescope
