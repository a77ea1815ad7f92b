// The command line of stridescope-cli, parsed but not yet acted on:
//
//   stridescope-cli COMMAND [ARGS] [OPTIONS]
//
// Options may come before or after the command and its arguments; an option's
// value follows it (`--out file`) or is joined with '=' (`--out=file`).
// Each command accepts only its own options, so a misspelt or misplaced one is
// an error instead of being ignored.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/op_request.h"

namespace stridescope::cli {

struct CliArguments {
  std::string command;                 // run, compare, explain, layout, demo, generate, check, selftest, code, render ("" when absent)
  std::vector<std::string> positional;  // SPEC; DIR for demo and generate; SPEC RESULT for check
  bool help = false;
  bool version = false;

  // run, generate and check
  std::string backend = "cpu";
  std::optional<std::string> out;
  // run and compare
  bool timings = false;
  // explain
  std::optional<std::string> at;
  // explain on a DxDispatch model: which dispatch, by number from 0 or by name
  std::optional<std::string> dispatch;
  bool json = false;  // explain, layout, check --diagnose
  // check: name the known mistakes that explain a differing result
  bool diagnose = false;
  // layout
  std::optional<std::string> sizes;
  std::optional<std::string> strides;
  std::optional<std::string> data_type;
  // render (values checked by the command, which names the option)
  std::optional<std::string> panels;
  bool memory = false;
  std::optional<std::string> plane;
  std::optional<std::string> scale;
  std::optional<std::string> theme;
  bool no_legend = false;
  std::optional<std::string> title;
  bool animate = false;
  std::optional<std::string> fps;
  std::optional<std::string> order;
  bool text = false;
  std::optional<std::string> compare_with;  // a result file whose differences the figure marks
  // generate and selftest
  std::optional<uint64_t> count;  // each command has its own default
  uint64_t seed = 1;
  std::optional<OpKind> generate_op;  // --op; any op when absent
  uint64_t max_elements = 64;
  // code
  std::optional<std::string> lang;  // numpy, torch, onnx, dml, dxdispatch
  // global
  uint64_t max_bytes = uint64_t{1} << 30;
  std::optional<std::string> device;
  bool force_staging = false;
  bool vulkan_validation = false;
};

// Errors are InvalidSpec naming the option ("--at: ...") or the argument.
Expected<CliArguments> parse_arguments(std::span<const std::string> args);

// "1,2,3" (or "[1,2,3]") as at most 8 non-negative integers; errors name `option`.
Expected<std::vector<uint64_t>> parse_index_list(std::string_view text, const std::string& option);

}  // namespace stridescope::cli
