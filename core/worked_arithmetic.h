// The arithmetic behind an output's sizes and behind one output element,
// written out with the spec's own numbers, for people learning the rules
// (`stridescope-cli explain`, the app's explanations):
//
//   H_out = floor((in + start + end - ((window - 1)·dilation + 1)) / stride) + 1
//         = floor((9 + 1 + 0 - ((3 - 1)·2 + 1)) / 2) + 1 = 3
//   axis 2: copy start = offset + size - 1 = 0 + 4 - 1 = 3   (stride -2 is negative)
//
// Only the text is made here. Every value comes from the functions that
// define the operators (slice.h, padding.h, max_pooling.h) or from the
// validated Operation, so what a step says is what the backends do.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "operation.h"
#include "provenance.h"

namespace stridescope {

// One equation: `symbol = formula = numbers = value`, e.g.
//   symbol "H_out", formula "in + start + end", numbers "4 + 1 + 3", value "8".
// `formula` or `numbers` is empty where it would only repeat the value.
struct WorkedStep {
  std::string symbol;
  std::string formula;
  std::string numbers;
  std::string value;
  std::string note;  // why, when the step needs one: "(stride -2 is negative)"

  // "symbol = formula = numbers = value  note"
  [[nodiscard]] std::string text() const;
};

// One step per output dimension: how its size follows from the input's and
// the params'. Names: N, C, (D,) H, W for max_pooling2; "dim i" otherwise.
std::vector<WorkedStep> output_size_steps(const Operation& op);

// How `p.output_coord` finds its source, one step or more per dimension, then
// the source's buffer offset (`offset = Σ coordinate·stride`); for pooling,
// the taps of each spatial dimension and the winner's flat index.
// `p` must be explain()'s answer for `op`.
std::vector<WorkedStep> element_steps(const Operation& op, const Provenance& p);

}  // namespace stridescope
