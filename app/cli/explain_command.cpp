// explain: where one output element came from (core/provenance.h), with its
// arithmetic worked out (core/worked_arithmetic.h); without --at, how the
// output sizes follow from the spec. On a DxDispatch model, the same for the
// dispatch --dispatch picks.
#include <nlohmann/json.hpp>

#include "app/cli/commands.h"
#include "app/cli/json_text.h"
#include "app/cli/tensor_text.h"
#include "core/io/json_number.h"
#include "core/provenance.h"
#include "core/worked_arithmetic.h"

namespace stridescope::cli {
namespace {

std::string_view kind_name(SourceKind kind) {
  switch (kind) {
    case SourceKind::Copied: return "copied";
    case SourceKind::PaddingConstant: return "paddingConstant";
    case SourceKind::PaddingFolded: return "paddingFolded";
    case SourceKind::Pooled: return "pooled";
  }
  return "?";
}

// The padding value as the output type holds it (10.6 in INT32 is 10).
std::vector<std::byte> padding_value_bytes(const Operation& op) {
  std::vector<std::byte> bytes(8);
  write_element_bits(op.output().data_type(), op.params_as<PaddingParams>().value_bits, bytes.data());
  return bytes;
}

const std::byte* input_element(const LoadedSpec& loaded, uint64_t offset) {
  return loaded.input.data() + offset * loaded.op.input().element_size();
}

void print_text(std::ostream& out, const LoadedSpec& loaded, const Provenance& p) {
  const Operation& op = loaded.op;
  const DataType type = op.input().data_type();
  out << p.rule << '\n';
  out << "  output offset: " << p.output_offset << '\n';
  switch (p.kind) {
    case SourceKind::Copied:
    case SourceKind::PaddingFolded:
      if (p.kind == SourceKind::PaddingFolded) out << "  unfolded input coordinate: " << format_coord(p.unfolded) << '\n';
      out << "  source: in" << format_coord(*p.source) << ", buffer offset " << p.source_offset << ", value "
          << format_element(type, input_element(loaded, p.source_offset)) << '\n';
      break;
    case SourceKind::PaddingConstant:
      out << "  unfolded input coordinate: " << format_coord(p.unfolded) << '\n';
      out << "  value: " << format_element(type, padding_value_bytes(op).data()) << " (paddingValue)\n";
      break;
    case SourceKind::Pooled:
      out << "  window taps in row-major window order:\n";
      for (std::size_t t = 0; t < p.window.size(); ++t) {
        const PoolingTap& tap = p.window[t];
        out << "    in" << format_coord(tap.coord);
        if (tap.padded) {
          out << "  padding\n";
          continue;
        }
        out << "  offset " << tap.offset << "  value " << format_element(type, input_element(loaded, tap.offset));
        if (p.winner && *p.winner == t) out << "  <- winner, index " << *p.winner_index;
        out << '\n';
      }
      if (p.window_taps > p.window.size()) {
        out << "    ... and " << p.window_taps - p.window.size() << " more taps, not listed\n";
        if (p.winner && *p.winner >= p.window.size()) {
          out << "  winner: in" << format_coord(*p.source) << "  offset " << p.source_offset << "  value "
              << format_element(type, input_element(loaded, p.source_offset)) << "  index " << *p.winner_index
              << " (tap " << *p.winner << " in window order)\n";
        }
      }
      break;
  }
  out << "  worked out:\n";
  for (const WorkedStep& step : element_steps(op, p)) out << "    " << step.text() << '\n';
}

nlohmann::ordered_json step_texts(const std::vector<WorkedStep>& steps) {
  nlohmann::ordered_json lines = nlohmann::ordered_json::array();
  for (const WorkedStep& step : steps) lines.push_back(step.text());
  return lines;
}

// Without --at: how each output size follows from the spec's numbers.
int explain_output_sizes(Context& context, const Operation& op) {
  const std::vector<WorkedStep> steps = output_size_steps(op);
  if (context.args.json) {
    nlohmann::ordered_json doc;
    doc["outputSizes"] = nlohmann::ordered_json(std::vector<uint64_t>(op.output().sizes().begin(), op.output().sizes().end()));
    doc["arithmetic"] = step_texts(steps);
    context.out << pretty_json(doc);
    return kExitOk;
  }
  context.out << "output sizes " << format_coord(op.output().sizes()) << ":\n";
  for (const WorkedStep& step : steps) context.out << "  " << step.text() << '\n';
  return kExitOk;
}

std::string json_element(DataType type, const std::byte* bytes) {
  std::string text;
  append_json_element(text, type, bytes);
  return text;
}

void print_json(std::ostream& out, const LoadedSpec& loaded, const Provenance& p) {
  using json = nlohmann::ordered_json;
  const Operation& op = loaded.op;
  const DataType type = op.input().data_type();
  auto list = [](const auto& values) {
    json array = json::array();
    for (auto v : values) array.push_back(v);
    return array;
  };
  // Element values keep json_number.h's exact forms (64-bit integers, "NaN").
  auto value = [&](const std::byte* bytes) { return json::parse(json_element(type, bytes)); };

  json doc;
  doc["output"] = list(p.output_coord);
  doc["outputOffset"] = p.output_offset;
  doc["kind"] = kind_name(p.kind);
  if (p.source) {
    doc["source"] = list(*p.source);
    doc["sourceOffset"] = p.source_offset;
    doc["value"] = value(input_element(loaded, p.source_offset));
  }
  if (p.kind == SourceKind::PaddingConstant) doc["value"] = value(padding_value_bytes(op).data());
  if (!p.unfolded.empty()) doc["unfolded"] = list(p.unfolded);
  if (p.kind == SourceKind::Pooled) {
    json window = json::array();
    for (const PoolingTap& tap : p.window) {
      json entry{{"coord", list(tap.coord)}, {"padded", tap.padded}};
      if (!tap.padded) {
        entry["offset"] = tap.offset;
        entry["value"] = value(input_element(loaded, tap.offset));
      }
      window.push_back(std::move(entry));
    }
    doc["window"] = std::move(window);
    doc["windowTaps"] = p.window_taps;  // more than "window" lists when the window is huge
    if (p.winner) {
      doc["winner"] = *p.winner;
      doc["winnerIndex"] = *p.winner_index;
    }
  }
  doc["rule"] = p.rule;
  doc["arithmetic"] = step_texts(element_steps(op, p));
  out << pretty_json(doc);
}

// A spec, or one dispatch of a DxDispatch model: `heading` is then its name,
// the text output's first line.
Expected<LoadedSpec> load_explained(const Context& context, std::string& heading) {
  const std::string& file = context.args.positional[0];
  if (!is_dxdispatch_model_file(file)) {
    if (context.args.dispatch) return invalid("--dispatch", "picks a dispatch of a DxDispatch model; " + file + " is a spec");
    return load_validated(file, context.limits);
  }
  SS_ASSIGN_OR_RETURN(ModelDispatch dispatch, load_model_dispatch(context, file));
  heading = dispatch.description + '\n';
  return std::move(dispatch.loaded);
}

}  // namespace

int command_explain(Context& context) {
  const CliArguments& args = context.args;
  std::string heading;
  Expected<LoadedSpec> loaded = load_explained(context, heading);
  if (!loaded) return fail(context, loaded.error());
  if (!args.at) {
    if (!args.json) context.out << heading;
    return explain_output_sizes(context, loaded->op);
  }
  Expected<std::vector<uint64_t>> at = parse_index_list(*args.at, "--at");
  if (!at) return fail(context, at.error());
  Expected<Provenance> provenance = explain(loaded->op, Coord(std::span<const uint64_t>(*at)), loaded->input);
  if (!provenance) return fail(context, provenance.error());
  if (args.json) {
    print_json(context.out, *loaded, *provenance);
  } else {
    context.out << heading;
    print_text(context.out, *loaded, *provenance);
  }
  return kExitOk;
}

}  // namespace stridescope::cli
