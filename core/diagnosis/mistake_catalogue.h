// The mistakes other implementations of these operators are known to make,
// each a small, deliberate change to StrideScope's exact semantics
// (mistaken_variants.h runs it). `stridescope-cli check --diagnose` runs
// every variant on a spec and names those that reproduce a differing result.
//
// Ids are stable: scripts match them, the docs page (resources/docs/
// mistakes.md) explains them. Add new mistakes at the end of an op's group.
#pragma once

#include <optional>
#include <span>
#include <string_view>

#include "core/op_request.h"

namespace stridescope {

enum class MistakeId {
  Slice1NegativeStrideFromOffset,
  ReflectionRepeatsEdge,
  SymmetricSkipsEdge,
  NoPeriodicFold,
  NumpyNonperiodicFold,
  PaddingValueRounded,
  PaddingValueThroughFloat32,
  Int64ThroughDouble,
  Float64ThroughFloat32,
  InputStridesIgnored,
  OutputStridesIgnored,
  IndicesPerPlane,
  IndicesAsBufferOffsets,
  IndicesColumnMajor,
  LastMaximumWins,
  PaddingTakesPart,
  NanIgnored,
  UndilatedOutputSize,
};

struct Mistake {
  MistakeId id;
  std::string_view name;         // "reflection-repeats-edge": the stable id
  std::string_view explanation;  // one sentence
  std::string_view known_in;     // who behaves this way, where that is a fact; may be empty
};

// Every mistake, in the order a diagnosis ranks equally good explanations
// (the more common mistake first).
std::span<const Mistake> mistake_catalogue();

const Mistake& mistake(MistakeId id);
std::optional<MistakeId> parse_mistake_id(std::string_view name);

}  // namespace stridescope
