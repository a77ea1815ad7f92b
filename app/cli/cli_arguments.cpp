#include "app/cli/cli_arguments.h"

#include <algorithm>
#include <array>
#include <charconv>

#include "core/dim_vector.h"

namespace stridescope::cli {
namespace {

struct OptionInfo {
  std::string_view name;
  bool takes_value;
  // Commands that accept it; empty means every command (a global option).
  std::vector<std::string_view> commands;
};

const std::vector<OptionInfo>& option_table() {
  static const std::vector<OptionInfo> table = {
      {"--help", false, {}},
      {"-h", false, {}},
      {"--version", false, {}},
      {"--max-bytes", true, {}},
      {"--device", true, {}},
      {"--force-staging", false, {}},
      {"--vulkan-validation", false, {}},
      {"--backend", true, {"run", "generate", "check"}},
      {"--out", true, {"run", "render"}},
      {"--timings", false, {"run", "compare"}},
      {"--at", true, {"explain", "render"}},
      {"--dispatch", true, {"explain"}},
      {"--json", false, {"explain", "layout", "check"}},
      {"--diagnose", false, {"check"}},
      {"--sizes", true, {"layout"}},
      {"--strides", true, {"layout"}},
      {"--dataType", true, {"layout"}},
      {"--count", true, {"generate", "selftest"}},
      {"--seed", true, {"generate", "selftest"}},
      {"--op", true, {"generate", "selftest"}},
      {"--max-elements", true, {"generate", "selftest"}},
      {"--lang", true, {"code"}},
      {"--panels", true, {"render"}},
      {"--memory", false, {"render"}},
      {"--plane", true, {"render"}},
      {"--scale", true, {"render"}},
      {"--theme", true, {"render"}},
      {"--no-legend", false, {"render"}},
      {"--title", true, {"render"}},
      {"--animate", false, {"render"}},
      {"--fps", true, {"render"}},
      {"--order", true, {"render"}},
      {"--text", false, {"render"}},
      {"--compare-with", true, {"render"}},
  };
  return table;
}

constexpr std::array<std::string_view, 10> kCommands = {"run",      "compare", "explain",  "layout", "demo",
                                                        "generate", "check",   "selftest", "code",   "render"};
// generate: enough for any corpus, small enough that a typo cannot fill a disk.
constexpr uint64_t kMaxGeneratedCases = 1'000'000;
constexpr uint64_t kMaxGeneratedElements = uint64_t{1} << 20;

Expected<uint64_t> parse_uint(std::string_view text, const std::string& option) {
  uint64_t value = 0;
  const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || result.ec != std::errc() || result.ptr != text.data() + text.size()) {
    return invalid(option, "expected a non-negative integer, got '" + std::string(text) + "'");
  }
  return value;
}

Status apply(CliArguments& args, std::string_view name, const std::string& value) {
  const std::string option(name);
  if (name == "--help" || name == "-h") {
    args.help = true;
  } else if (name == "--version") {
    args.version = true;
  } else if (name == "--max-bytes") {
    SS_ASSIGN_OR_RETURN(const uint64_t bytes, parse_uint(value, option));
    if (bytes == 0) return invalid(option, "must be at least 1");
    args.max_bytes = bytes;
  } else if (name == "--device") {
    args.device = value;
  } else if (name == "--force-staging") {
    args.force_staging = true;
  } else if (name == "--vulkan-validation") {
    args.vulkan_validation = true;
  } else if (name == "--backend") {
    args.backend = value;
  } else if (name == "--out") {
    if (value.empty()) return invalid(option, "must name a file");
    args.out = value;
  } else if (name == "--timings") {
    args.timings = true;
  } else if (name == "--at") {
    args.at = value;
  } else if (name == "--dispatch") {
    if (value.empty()) return invalid(option, "must name a dispatch, by number from 0 or by name");
    args.dispatch = value;
  } else if (name == "--json") {
    args.json = true;
  } else if (name == "--diagnose") {
    args.diagnose = true;
  } else if (name == "--sizes") {
    args.sizes = value;
  } else if (name == "--strides") {
    args.strides = value;
  } else if (name == "--dataType") {
    args.data_type = value;
  } else if (name == "--count" || name == "--max-elements") {
    SS_ASSIGN_OR_RETURN(const uint64_t number, parse_uint(value, option));
    const uint64_t most = name == "--count" ? kMaxGeneratedCases : kMaxGeneratedElements;
    if (number == 0 || number > most) return invalid(option, "must be 1 to " + std::to_string(most));
    if (name == "--count") {
      args.count = number;
    } else {
      args.max_elements = number;
    }
  } else if (name == "--seed") {
    SS_ASSIGN_OR_RETURN(args.seed, parse_uint(value, option));
  } else if (name == "--compare-with") {
    if (value.empty()) return invalid(option, "must name a result file");
    args.compare_with = value;
  } else if (name == "--lang") {
    args.lang = value;
  } else if (name == "--panels") {
    args.panels = value;
  } else if (name == "--memory") {
    args.memory = true;
  } else if (name == "--plane") {
    args.plane = value;
  } else if (name == "--scale") {
    args.scale = value;
  } else if (name == "--theme") {
    args.theme = value;
  } else if (name == "--no-legend") {
    args.no_legend = true;
  } else if (name == "--title") {
    args.title = value;
  } else if (name == "--animate") {
    args.animate = true;
  } else if (name == "--fps") {
    args.fps = value;
  } else if (name == "--order") {
    args.order = value;
  } else if (name == "--text") {
    args.text = true;
  } else if (name == "--op") {
    const std::optional<OpKind> op = parse_op_kind(value);
    if (!op) return invalid(option, "expected identity, slice, slice1, padding or max_pooling2, got '" + value + "'");
    args.generate_op = op;
  }
  return {};
}

struct PendingOption {
  const OptionInfo* info;
  std::string value;
};

}  // namespace

Expected<CliArguments> parse_arguments(std::span<const std::string> raw) {
  CliArguments args;
  std::vector<PendingOption> options;
  bool only_positional = false;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    const std::string& arg = raw[i];
    if (only_positional || arg.size() < 2 || arg[0] != '-') {
      if (args.command.empty()) {
        args.command = arg;
      } else {
        args.positional.push_back(arg);
      }
      continue;
    }
    if (arg == "--") {
      only_positional = true;
      continue;
    }
    const std::size_t equals = arg.find('=');
    const std::string name = arg.substr(0, equals);
    const auto& table = option_table();
    const auto it = std::find_if(table.begin(), table.end(), [&](const OptionInfo& o) { return o.name == name; });
    if (it == table.end()) return invalid(name, "unknown option (see --help)");
    PendingOption pending{&*it, {}};
    if (it->takes_value) {
      if (equals != std::string::npos) {
        pending.value = arg.substr(equals + 1);
      } else if (i + 1 < raw.size()) {
        pending.value = raw[++i];
      } else {
        return invalid(name, "needs a value");
      }
    } else if (equals != std::string::npos) {
      return invalid(name, "takes no value");
    }
    options.push_back(std::move(pending));
  }

  if (args.command == "help" && args.positional.empty()) {  // "stridescope-cli help", as git and cargo take it
    args.command.clear();
    args.help = true;
  }
  for (std::size_t i = 0; i < options.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (options[j].info == options[i].info) return invalid(std::string(options[i].info->name), "given twice");
    }
  }
  if (!args.command.empty() &&
      std::find(kCommands.begin(), kCommands.end(), args.command) == kCommands.end()) {
    return invalid(args.command, "unknown command (expected run, compare, explain, layout, demo, generate, check, selftest, code or render)");
  }
  for (const PendingOption& option : options) {
    const auto& commands = option.info->commands;
    if (!commands.empty() && std::find(commands.begin(), commands.end(), args.command) == commands.end()) {
      return invalid(std::string(option.info->name),
                     args.command.empty() ? "needs a command before it"
                                          : "is not an option of " + args.command);
    }
    SS_RETURN_IF_ERROR(apply(args, option.info->name, option.value));
  }
  if (args.command == "check" && args.json && !args.diagnose) return invalid("--json", "check takes it with --diagnose");
  return args;
}

Expected<std::vector<uint64_t>> parse_index_list(std::string_view text, const std::string& option) {
  if (text.size() >= 2 && text.front() == '[' && text.back() == ']') text = text.substr(1, text.size() - 2);
  std::vector<uint64_t> values;
  if (text.empty()) return invalid(option, "expected comma-separated non-negative integers, got nothing");
  while (true) {
    const std::size_t comma = text.find(',');
    std::string_view item = text.substr(0, comma);
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    uint64_t value = 0;
    const auto result = std::from_chars(item.data(), item.data() + item.size(), value);
    if (item.empty() || result.ec != std::errc() || result.ptr != item.data() + item.size()) {
      return invalid(option, "expected comma-separated non-negative integers, got '" + std::string(item) + "'");
    }
    if (values.size() == kMaxRank) {
      return invalid(option, "has more than " + std::to_string(kMaxRank) + " entries");
    }
    values.push_back(value);
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return values;
}

}  // namespace stridescope::cli
