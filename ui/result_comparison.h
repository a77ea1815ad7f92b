// Another implementation's result beside the spec being edited (File >
// Compare with Result): the file is read once (OtherResult), then every
// evaluation fits it to the op it ran and compares it with StrideScope's own
// result bit for bit (a result document's NaNs match any NaN), keeping the
// differing elements in row-major order and core's diagnosis of them (the one
// `stridescope-cli check --diagnose` prints). No widgets; runs on the
// evaluation worker.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/diagnosis/diagnose.h"
#include "core/error.h"
#include "core/io/npy.h"
#include "core/operation.h"
#include "core/scalar.h"

namespace stridescope::ui {

// The file as read: a result document's text, or the .npy arrays (the
// indices from X.indices.npy beside X.npy, when there is one).
struct OtherResult {
  std::string file;  // the path, as given
  std::string name;  // its file name, which messages about its content name
  bool npy = false;
  std::string document;
  NpyArray output;
  std::optional<NpyArray> indices;
};

// Errors name the file: unreadable, not a .npy numpy can write, too long.
// Whether the content fits the spec is decided per evaluation.
Expected<std::shared_ptr<const OtherResult>> load_other_result(const std::string& file, uint64_t max_bytes);

struct ResultComparison {
  std::string file;
  // The file does not fit the op: "r.json: output.sizes: ...". Nothing else is set.
  std::optional<Error> error;
  bool indices_compared = false;  // false where the op has none, or a .npy came without X.indices.npy
  uint64_t output_elements = 0;
  uint64_t output_differing = 0;
  uint64_t indices_differing = 0;
  // The first kMaxListedDifferences differing elements of each tensor, row-major.
  std::vector<Coord> output_listed;
  std::vector<Coord> indices_listed;
  // Where Next / Previous difference stop: the output coordinates where
  // output or indices differ, row-major, each once.
  std::vector<Coord> stops;
  Diagnosis diagnosis;
  std::vector<std::byte> their_output;   // the op's output buffer, as the file has it
  std::vector<std::byte> their_indices;  // empty unless indices_compared

  uint64_t differing() const { return output_differing + indices_differing; }
};

inline constexpr std::size_t kMaxListedDifferences = 10000;

// `output` and `indices` are StrideScope's buffers for `op` on `input`.
ResultComparison compare_with_result(const OtherResult& other, const Operation& op, std::span<const std::byte> input,
                                     std::span<const std::byte> output, std::span<const std::byte> indices);

// The file's value at output coordinate `coord`, in the output or (`indices`)
// the indices tensor; nullopt where that tensor was not compared.
std::optional<Scalar> their_value(const ResultComparison& comparison, const Operation& op, bool indices,
                                  const Coord& coord);

// The stop after (forward) or before `current` in row-major order, wrapping
// around; the first (last) stop when there is no current element.
std::optional<Coord> next_stop(const std::vector<Coord>& stops, const std::optional<Coord>& current, bool forward);

}  // namespace stridescope::ui
