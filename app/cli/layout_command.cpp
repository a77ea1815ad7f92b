// layout: a tensor layout on its own (DirectML's "tensor sizes and strides").
#include <nlohmann/json.hpp>

#include "app/cli/commands.h"
#include "app/cli/json_text.h"
#include "app/cli/tensor_text.h"

namespace stridescope::cli {
namespace {

// Lists beyond these sizes are cut short (a broadcast tensor can have far
// more logical elements than its buffer).
constexpr uint64_t kMaxTextOffsets = 4096;
constexpr uint64_t kMaxJsonOffsets = uint64_t{1} << 20;
constexpr uint64_t kMaxBufferMap = 256;

// "layout.sizes[1]" -> "--sizes[1]": errors name the option that was typed.
Error rename_paths(Error error) {
  const std::string prefix = "layout.";
  if (error.path.rfind(prefix, 0) == 0) error.path = "--" + error.path.substr(prefix.size());
  return error;
}

Expected<TensorDesc> make_desc(const CliArguments& args, const Limits& limits) {
  if (!args.sizes) return invalid("--sizes", "layout needs the tensor's sizes, e.g. --sizes 2,3");
  SS_ASSIGN_OR_RETURN(const std::vector<uint64_t> sizes, parse_index_list(*args.sizes, "--sizes"));
  std::optional<Strides> strides;
  if (args.strides) {
    SS_ASSIGN_OR_RETURN(const std::vector<uint64_t> parsed, parse_index_list(*args.strides, "--strides"));
    strides = Strides(std::span<const uint64_t>(parsed));
  }
  DataType type = DataType::Float32;
  if (args.data_type) {
    const auto parsed = parse_data_type(*args.data_type);
    if (!parsed) {
      return invalid("--dataType", "unknown data type '" + *args.data_type +
                                       "' (expected FLOAT16, FLOAT32, FLOAT64, INT8, INT16, INT32, INT64, UINT8, "
                                       "UINT16, UINT32, UINT64)");
    }
    type = *parsed;
  }
  Expected<TensorDesc> desc = TensorDesc::make(type, Sizes(std::span<const uint64_t>(sizes)), strides, "layout", limits);
  if (!desc) return rename_paths(desc.error());
  return desc;
}

std::string traits_text(const LayoutTraits& t) {
  std::string text;
  auto add = [&](bool on, const char* name) {
    if (!on) return;
    if (!text.empty()) text += ", ";
    text += name;
  };
  add(t.packed, "packed");
  add(t.row_major, "row-major");
  add(t.broadcast, "broadcast");
  add(t.gapped, "gapped");
  add(t.overlapping, "overlapping");
  add(t.permuted, "permuted");
  return text.empty() ? "none" : text;
}

// For each buffer element, the logical coordinates stored there ("gap" for
// none): the "Offset / Value" table of the DirectML page.
void print_buffer_map(std::ostream& out, const TensorDesc& desc) {
  std::vector<std::vector<Coord>> owners(desc.buffer_elements());
  Coord coord(desc.rank(), 0);
  do {
    owners[desc.offset_of(coord)].push_back(coord);
  } while (next_coord(coord, desc.sizes()));
  out << "buffer (the coordinates stored at each element):\n";
  for (uint64_t offset = 0; offset < owners.size(); ++offset) {
    out << "  " << offset << ":";
    if (owners[offset].empty()) out << " gap (never addressed)";
    for (const Coord& c : owners[offset]) out << ' ' << format_coord(c);
    out << '\n';
  }
}

void print_text(std::ostream& out, const TensorDesc& desc) {
  const LayoutTraits& t = desc.layout();
  out << "dataType: " << to_string(desc.data_type()) << " (" << desc.element_size()
      << (desc.element_size() == 1 ? " byte)\n" : " bytes)\n");
  out << "sizes:    " << format_list(desc.sizes()) << '\n';
  out << "strides:  " << format_list(desc.strides()) << '\n';
  out << "elements: " << desc.element_count() << " logical, " << t.distinct_offsets << " distinct offsets\n";
  out << "buffer:   " << desc.buffer_elements() << " elements, " << desc.buffer_bytes()
      << " bytes (DMLCalcBufferTensorSize)\n";
  out << "traits:   " << traits_text(t) << '\n';
  out << "offsets (buffer element of each logical coordinate, rows along the last dimension):\n";
  out << format_cells(desc.sizes(), "  ", kMaxTextOffsets,
                      [&](const Coord& coord) { return std::to_string(desc.offset_of(coord)); });
  if (desc.buffer_elements() <= kMaxBufferMap && desc.element_count() <= kMaxTextOffsets) {
    print_buffer_map(out, desc);
  }
}

void print_json(std::ostream& out, const TensorDesc& desc) {
  using json = nlohmann::ordered_json;
  const LayoutTraits& t = desc.layout();
  json doc;
  doc["dataType"] = to_string(desc.data_type());
  doc["sizes"] = std::vector<uint64_t>(desc.sizes().begin(), desc.sizes().end());
  doc["strides"] = std::vector<uint64_t>(desc.strides().begin(), desc.strides().end());
  doc["elementSize"] = desc.element_size();
  doc["elementCount"] = desc.element_count();
  doc["distinctOffsets"] = t.distinct_offsets;
  doc["bufferElements"] = desc.buffer_elements();
  doc["bufferBytes"] = desc.buffer_bytes();
  doc["traits"] = {{"packed", t.packed},           {"rowMajor", t.row_major}, {"broadcast", t.broadcast},
                   {"gapped", t.gapped},           {"overlapping", t.overlapping}, {"permuted", t.permuted}};
  // Offsets of the logical elements in row-major order.
  json offsets = json::array();
  Coord coord(desc.rank(), 0);
  uint64_t listed = 0;
  do {
    offsets.push_back(desc.offset_of(coord));
  } while (++listed < kMaxJsonOffsets && next_coord(coord, desc.sizes()));
  doc["offsets"] = std::move(offsets);
  doc["offsetsTruncated"] = listed < desc.element_count();
  out << pretty_json(doc);
}

}  // namespace

int command_layout(Context& context) {
  Expected<TensorDesc> desc = make_desc(context.args, context.limits);
  if (!desc) return fail(context, desc.error());
  if (context.args.json) {
    print_json(context.out, *desc);
  } else {
    print_text(context.out, *desc);
  }
  return kExitOk;
}

}  // namespace stridescope::cli
