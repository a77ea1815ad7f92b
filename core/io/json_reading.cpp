#include "core/io/json_reading.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <set>

#include "core/dim_vector.h"
#include "core/io/json_number.h"
#include "core/io/spec_file.h"

namespace stridescope::json_reading {

std::string field(const std::string& path, std::string_view key) {
  return path.empty() ? std::string(key) : path + "." + std::string(key);
}

std::string indexed(const std::string& path, std::size_t i) {
  return path + "[" + std::to_string(i) + "]";
}

std::string type_name(const json& value) {
  switch (value.type()) {
    case json::value_t::null: return "null";
    case json::value_t::object: return "an object";
    case json::value_t::array: return "an array";
    case json::value_t::string: return "a string";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::number_float: return "a fractional number";
    case json::value_t::binary: return "a number";  // a number kept as written (parse_json)
    default: return "a number";
  }
}

Error wrong_type(const std::string& path, std::string_view expected, const json& value) {
  return invalid(path, "expected " + std::string(expected) + ", got " + type_name(value));
}

namespace {

std::string join(std::span<const std::string_view> names) {
  std::string text;
  for (std::string_view name : names) {
    if (!text.empty()) text += ", ";
    text += name;
  }
  return text;
}

}  // namespace

Status check_object(const json& value, const std::string& path,
                    std::initializer_list<std::string_view> allowed) {
  return check_object(value, path, std::span<const std::string_view>(allowed.begin(), allowed.size()));
}

Status check_object(const json& value, const std::string& path, std::span<const std::string_view> allowed) {
  if (!value.is_object()) return wrong_type(path, "an object", value);
  for (const auto& [key, member] : value.items()) {
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      return invalid(field(path, key), "unknown field (expected " + join(allowed) + ")");
    }
  }
  return {};
}

const json* find(const json& object, std::string_view key) {
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

Error missing(const std::string& path) { return invalid(path, "missing required field"); }

Expected<uint64_t> read_uint(const json& value, const std::string& path) {
  if (value.is_number_unsigned()) return value.get<uint64_t>();
  if (value.is_number_integer()) {
    if (value.get<int64_t>() < 0) return invalid(path, "must not be negative");
    return static_cast<uint64_t>(value.get<int64_t>());
  }
  if (const std::optional<Decimal> decimal = decimal_of(value)) {
    if (!decimal_is_integer(*decimal)) return invalid(path, "expected an integer, got " + decimal->text);
    const std::optional<WideInt> integer = decimal_truncated(*decimal);
    if (integer && *integer < 0) return invalid(path, "must not be negative");
    if (!integer || *integer > std::numeric_limits<uint64_t>::max()) return invalid(path, "integer out of range");
    return static_cast<uint64_t>(*integer);
  }
  return wrong_type(path, "a non-negative integer", value);
}

Expected<int64_t> read_int(const json& value, const std::string& path) {
  if (value.is_number_integer() && !value.is_number_unsigned()) return value.get<int64_t>();
  if (value.is_number_unsigned()) {
    if (value.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
      return invalid(path, "integer out of range");
    }
    return static_cast<int64_t>(value.get<uint64_t>());
  }
  if (const std::optional<Decimal> decimal = decimal_of(value)) {
    if (!decimal_is_integer(*decimal)) return invalid(path, "expected an integer, got " + decimal->text);
    const std::optional<WideInt> integer = decimal_truncated(*decimal);
    if (!integer || *integer < std::numeric_limits<int64_t>::min() || *integer > std::numeric_limits<int64_t>::max()) {
      return invalid(path, "integer out of range");
    }
    return static_cast<int64_t>(*integer);
  }
  return wrong_type(path, "an integer", value);
}

// A number as a Scalar: integers exact, fractions as double, and the names
// "NaN", "Infinity", "-Infinity" as the doubles they name.
Expected<Scalar> read_scalar(const json& value, const std::string& path) {
  if (value.is_number_unsigned()) {
    const auto u = value.get<uint64_t>();
    if (u <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return Scalar{static_cast<int64_t>(u)};
    return Scalar{u};
  }
  if (value.is_number_integer()) return Scalar{value.get<int64_t>()};
  if (std::optional<Decimal> decimal = decimal_of(value)) return Scalar{std::move(*decimal)};
  if (value.is_string()) {
    if (auto named = parse_non_finite_name(value.get_ref<const std::string&>())) return Scalar{*named};
    return invalid(path, "expected a number or \"NaN\", \"Infinity\", \"-Infinity\", got \"" +
                             value.get_ref<const std::string&>() + "\"");
  }
  return wrong_type(path, "a number", value);
}

Expected<double> read_finite_double(const json& value, const std::string& path) {
  if (const std::optional<Decimal> decimal = decimal_of(value)) return decimal_to_double(*decimal);
  if (!value.is_number()) return wrong_type(path, "a number", value);
  return value.get<double>();  // a 64-bit integer: finite
}

Expected<std::string> read_string(const json& value, const std::string& path) {
  if (!value.is_string()) return wrong_type(path, "a string", value);
  return value.get<std::string>();
}

namespace {

template <class T, class ReadOne>
Expected<std::vector<T>> read_array(const json& value, const std::string& path, ReadOne read_one) {
  if (!value.is_array()) return wrong_type(path, "an array", value);
  if (value.size() > kMaxRank) {
    return invalid(path, "has " + std::to_string(value.size()) + " entries; at most " +
                             std::to_string(kMaxRank) + " dimensions are allowed");
  }
  std::vector<T> result;
  for (std::size_t i = 0; i < value.size(); ++i) {
    SS_ASSIGN_OR_RETURN(const T entry, read_one(value[i], indexed(path, i)));
    result.push_back(entry);
  }
  return result;
}

}  // namespace

Expected<std::vector<uint64_t>> read_uint_array(const json& value, const std::string& path) {
  return read_array<uint64_t>(value, path, read_uint);
}

Expected<std::vector<int64_t>> read_int_array(const json& value, const std::string& path) {
  return read_array<int64_t>(value, path, read_int);
}

namespace {

std::string data_type_names() {
  std::string names;
  for (DataType type : kAllDataTypes) {
    if (!names.empty()) names += ", ";
    names += to_string(type);
  }
  return names;
}

}  // namespace

Expected<DataType> read_data_type(const json& value, const std::string& path) {
  SS_ASSIGN_OR_RETURN(const std::string name, read_string(value, path));
  if (auto type = parse_data_type(name)) return *type;
  return invalid(path, "unknown data type \"" + name + "\" (expected " + data_type_names() + ")");
}

Status read_optional_uints(const json& object, const std::string& path, std::string_view key,
                           std::optional<std::vector<uint64_t>>& out) {
  if (const json* member = find(object, key)) {
    SS_ASSIGN_OR_RETURN(out, read_uint_array(*member, field(path, key)));
  }
  return {};
}

Status read_required_uints(const json& object, const std::string& path, std::string_view key,
                           std::vector<uint64_t>& out) {
  const json* member = find(object, key);
  if (!member) return missing(field(path, key));
  SS_ASSIGN_OR_RETURN(out, read_uint_array(*member, field(path, key)));
  return {};
}

namespace {

// A binary value's subtype marking a number kept as written.
constexpr std::uint64_t kDecimalSubtype = 0x44;  // 'D'

// The number tokens of JSON text in document order (the parser reports
// values in that order). Outside strings a number starts with '-' or a
// digit and runs over the characters a number may hold.
std::vector<std::string_view> number_tokens(std::string_view text) {
  std::vector<std::string_view> tokens;
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '"') {
      for (++i; i < text.size() && text[i] != '"'; ++i) {
        if (text[i] == '\\') ++i;
      }
      ++i;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      const std::size_t begin = i;
      while (i < text.size() && std::string_view("0123456789+-.eE").find(text[i]) != std::string_view::npos) ++i;
      tokens.push_back(text.substr(begin, i - begin));
    } else {
      ++i;
    }
  }
  return tokens;
}

// Follows the parse: refuses a key given twice in one object (nlohmann would
// silently keep the last one), keeps the path of the value being parsed, and
// replaces each number that is not a 64-bit integer with its text.
// A spec nests a few levels (input.fill.random.min); deeper text is refused
// before nlohmann builds it: 16 MiB of '[' would be 16 million nested arrays.
constexpr int kMaxNesting = 64;
struct TooDeep {};

class ParseFollower {
 public:
  explicit ParseFollower(std::string_view text) : numbers_(number_tokens(text)) {}

  bool operator()(int depth, json::parse_event_t event, json& parsed) {
    if ((event == json::parse_event_t::object_start || event == json::parse_event_t::array_start) &&
        depth >= kMaxNesting) {
      throw TooDeep{};
    }
    switch (event) {
      case json::parse_event_t::object_start: frames_.push_back({false, 0, {}, {}}); break;
      case json::parse_event_t::array_start: frames_.push_back({true, 0, {}, {}}); break;
      case json::parse_event_t::key: {
        Frame& top = frames_.back();
        const auto& key = parsed.get_ref<const std::string&>();
        if (!top.keys.insert(key).second && !duplicate_) duplicate_ = field(container_path(), key);
        top.key = key;
        break;
      }
      case json::parse_event_t::object_end:
      case json::parse_event_t::array_end:
        frames_.pop_back();
        element_done();
        break;
      case json::parse_event_t::value:
        if (parsed.is_number()) keep_text(parsed);
        element_done();
        break;
    }
    return true;
  }

  const std::optional<std::string>& duplicate() const { return duplicate_; }

  // Path of the value being parsed (where the parser stopped).
  std::string value_path() const {
    std::string path;
    for (const Frame& frame : frames_) path = frame.array ? indexed(path, frame.index) : field(path, frame.key);
    return path;
  }

 private:
  struct Frame {
    bool array;
    std::size_t index;
    std::string key;
    std::set<std::string> keys;
  };

  void keep_text(json& parsed) {
    const std::size_t k = next_number_++;
    if (!parsed.is_number_float() || k >= numbers_.size()) return;
    const std::string_view text = numbers_[k];
    parsed = json::binary(std::vector<std::uint8_t>(text.begin(), text.end()), kDecimalSubtype);
  }

  void element_done() {
    if (!frames_.empty() && frames_.back().array) ++frames_.back().index;
  }

  // Path of the innermost open container.
  std::string container_path() const {
    std::string path;
    for (std::size_t i = 0; i + 1 < frames_.size(); ++i) {
      path = frames_[i].array ? indexed(path, frames_[i].index) : field(path, frames_[i].key);
    }
    return path;
  }

  std::vector<std::string_view> numbers_;
  std::size_t next_number_ = 0;
  std::vector<Frame> frames_;
  std::optional<std::string> duplicate_;
};

std::string without_exception_prefix(std::string message) {
  // "[json.exception.parse_error.101] parse error at line 1, column 2: ..."
  if (const auto end = message.find("] "); message.rfind("[json.exception", 0) == 0 && end != std::string::npos) {
    message.erase(0, end + 2);
  }
  return message;
}

}  // namespace

std::optional<Decimal> decimal_of(const json& value) {
  if (!value.is_binary()) return std::nullopt;
  const json::binary_t& bytes = value.get_binary();
  if (!bytes.has_subtype() || bytes.subtype() != kDecimalSubtype) return std::nullopt;
  return make_decimal(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
}

Expected<json> parse_json(std::string_view text) {
  if (text.size() > kMaxSpecBytes) {
    return invalid("", "spec of " + std::to_string(text.size()) + " bytes is larger than " +
                           std::to_string(kMaxSpecBytes) + " bytes; give large inputs as .npy files");
  }
  ParseFollower follower(text);
  json document;
  try {
    document = json::parse(text.begin(), text.end(), std::ref(follower));
  } catch (const TooDeep&) {
    return invalid(follower.value_path(), "nested deeper than " + std::to_string(kMaxNesting) +
                                              " levels; a spec needs a handful");
  } catch (const json::parse_error& error) {
    return invalid("", "invalid JSON: " + without_exception_prefix(error.what()));
  } catch (const json::out_of_range& error) {
    // 406: "number overflow parsing '1e400'"
    return invalid(follower.value_path(), without_exception_prefix(error.what()) + " (beyond a double's range)");
  } catch (const json::exception& error) {
    return invalid(follower.value_path(), "invalid JSON: " + without_exception_prefix(error.what()));
  }
  if (follower.duplicate()) return invalid(*follower.duplicate(), "field given twice");
  return document;
}

}  // namespace stridescope::json_reading
