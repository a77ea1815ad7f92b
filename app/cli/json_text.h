// JSON for --json outputs: one member per line, values compact, and arrays of
// objects one object per line, so both people and scripts can read it.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace stridescope::cli {

inline std::string compact_json(const nlohmann::ordered_json& value) {
  return value.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

inline std::string pretty_json(const nlohmann::ordered_json& document) {
  if (!document.is_object()) return compact_json(document) + "\n";
  std::string text = "{";
  bool first = true;
  for (const auto& [key, value] : document.items()) {
    text += first ? "\n  " : ",\n  ";
    first = false;
    text += compact_json(key) + ": ";
    if (value.is_array() && !value.empty() && value.front().is_object()) {
      text += "[";
      for (std::size_t i = 0; i < value.size(); ++i) text += (i ? ",\n    " : "\n    ") + compact_json(value[i]);
      text += "\n  ]";
    } else {
      text += compact_json(value);
    }
  }
  return text + "\n}\n";
}

}  // namespace stridescope::cli
