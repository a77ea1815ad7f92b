#include "core/io/npy.h"

#include <array>
#include <cstring>
#include <fstream>
#include <optional>
#include <string_view>
#include <system_error>

#include "core/checked_math.h"
#include "core/io/atomic_file.h"

namespace stridescope {
namespace {

constexpr std::string_view kMagic = "\x93NUMPY";
constexpr std::size_t kMagicBytes = 6;
constexpr std::size_t kAlignment = 64;

Error bad_file(std::string message) { return invalid("", std::move(message)); }

// What the preamble and header say about the data that follows.
struct Header {
  DataType type = DataType::Float32;
  std::vector<uint64_t> shape;
  uint64_t data_offset = 0;  // bytes before the data
  uint64_t data_bytes = 0;
};

std::optional<DataType> type_of_descr(std::string_view descr, std::string& why) {
  if (descr.size() < 3) {
    why = "unsupported dtype '" + std::string(descr) + "'";
    return std::nullopt;
  }
  const char order = descr[0];
  const std::string_view kind_and_size = descr.substr(1);
  for (DataType type : kAllDataTypes) {
    const std::string mine = npy_descr(type);
    if (kind_and_size != std::string_view(mine).substr(1)) continue;
    const bool one_byte = element_size(type) == 1;
    if (order == '<' || (order == '|' && one_byte)) return type;
    if (order == '>' && !one_byte) {
      why = "big-endian dtype '" + std::string(descr) + "' is not supported (use '<')";
    } else {
      why = "unsupported byte order in dtype '" + std::string(descr) + "'";
    }
    return std::nullopt;
  }
  why = "unsupported dtype '" + std::string(descr) +
        "' (expected <f2 <f4 <f8 |i1 <i2 <i4 <i8 |u1 <u2 <u4 <u8)";
  return std::nullopt;
}

// A reader of the one Python literal numpy writes: a dict of string keys whose
// values are strings, True/False, or tuples of integers.
class HeaderParser {
 public:
  explicit HeaderParser(std::string_view text) : text_(text) {}

  Expected<Header> parse() {
    std::optional<std::string> descr;
    std::optional<bool> fortran_order;
    std::optional<std::vector<uint64_t>> shape;

    skip_space();
    if (!take('{')) return fail("the header is not a Python dict");
    skip_space();
    while (!peek('}')) {
      std::string key;
      if (!read_string(key)) return fail("expected a quoted key in the header");
      skip_space();
      if (!take(':')) return fail("expected ':' after '" + key + "' in the header");
      skip_space();
      if (key == "descr") {
        if (descr) return fail("duplicate key 'descr' in the header");
        std::string value;
        if (peek('[')) return fail("structured dtypes are not supported");
        if (!read_string(value)) return fail("'descr' is not a string");
        descr = std::move(value);
      } else if (key == "fortran_order") {
        if (fortran_order) return fail("duplicate key 'fortran_order' in the header");
        if (take_word("True")) {
          fortran_order = true;
        } else if (take_word("False")) {
          fortran_order = false;
        } else {
          return fail("'fortran_order' is not True or False");
        }
      } else if (key == "shape") {
        if (shape) return fail("duplicate key 'shape' in the header");
        std::vector<uint64_t> value;
        SS_RETURN_IF_ERROR(read_shape(value));
        shape = std::move(value);
      } else {
        return fail("unexpected key '" + key + "' in the header");
      }
      skip_space();
      if (!take(',')) break;
      skip_space();
    }
    if (!take('}')) return fail("the header dict is not closed");
    skip_space();
    if (pos_ != text_.size()) return fail("unexpected text after the header dict");

    if (!descr) return fail("the header has no 'descr'");
    if (!fortran_order) return fail("the header has no 'fortran_order'");
    if (!shape) return fail("the header has no 'shape'");
    if (*fortran_order) return fail("Fortran-order arrays are not supported (save in C order)");
    std::string why;
    const std::optional<DataType> type = type_of_descr(*descr, why);
    if (!type) return fail(why);
    Header header;
    header.type = *type;
    header.shape = std::move(*shape);
    return header;
  }

 private:
  static Error fail(std::string message) { return bad_file(std::move(message)); }

  bool peek(char c) const { return pos_ < text_.size() && text_[pos_] == c; }
  bool take(char c) {
    if (!peek(c)) return false;
    ++pos_;
    return true;
  }
  bool take_word(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }
  void skip_space() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\n' ||
                                   text_[pos_] == '\t' || text_[pos_] == '\r')) {
      ++pos_;
    }
  }

  bool read_string(std::string& out) {
    if (pos_ >= text_.size() || (text_[pos_] != '\'' && text_[pos_] != '"')) return false;
    const char quote = text_[pos_++];
    const std::size_t end = text_.find(quote, pos_);
    if (end == std::string_view::npos) return false;
    out.assign(text_.substr(pos_, end - pos_));
    if (out.find('\\') != std::string::npos) return false;  // numpy never escapes
    pos_ = end + 1;
    return true;
  }

  Status read_shape(std::vector<uint64_t>& shape) {
    if (!take('(')) return fail("'shape' is not a tuple");
    skip_space();
    while (!peek(')')) {
      uint64_t value = 0;
      bool any_digit = false;
      while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9') {
        const auto shifted = checked_mul(value, 10);
        const auto next = shifted ? checked_add(*shifted, static_cast<uint64_t>(text_[pos_] - '0'))
                                  : std::nullopt;
        if (!next) return fail("a 'shape' entry is too large");
        value = *next;
        any_digit = true;
        ++pos_;
      }
      if (!any_digit) return fail("'shape' holds something other than non-negative integers");
      take('L');  // Python 2 wrote long integers as 3L
      if (shape.size() >= 64) return fail("'shape' has too many dimensions");
      shape.push_back(value);
      skip_space();
      if (!take(',')) break;
      skip_space();
    }
    if (!take(')')) return fail("'shape' tuple is not closed");
    return {};
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

uint32_t read_le(std::span<const std::byte> bytes) {
  uint32_t value = 0;
  for (std::size_t i = bytes.size(); i-- > 0;) value = (value << 8) | std::to_integer<uint32_t>(bytes[i]);
  return value;
}

// Parses the magic, version and header from `prefix` (which may be longer).
// `needs` is set to the byte count required when `prefix` is too short.
Expected<Header> parse_preamble(std::span<const std::byte> prefix, uint64_t max_bytes,
                                uint64_t& needs) {
  needs = 0;
  if (prefix.size() < kMagicBytes + 2 ||
      std::memcmp(prefix.data(), kMagic.data(), kMagicBytes) != 0) {
    return bad_file("not a .npy file (bad magic)");
  }
  const auto major = std::to_integer<unsigned>(prefix[6]);
  const auto minor = std::to_integer<unsigned>(prefix[7]);
  if ((major != 1 && major != 2 && major != 3) || minor != 0) {
    return bad_file("unsupported .npy format version " + std::to_string(major) + "." +
                    std::to_string(minor));
  }
  const std::size_t length_bytes = major == 1 ? 2 : 4;
  const std::size_t fixed = kMagicBytes + 2 + length_bytes;
  if (prefix.size() < fixed) {
    needs = fixed;
    return bad_file("the file ends inside its preamble");
  }
  const uint64_t header_length = read_le(prefix.subspan(8, length_bytes));
  if (header_length > kMaxNpyHeaderBytes) {
    return bad_file("header of " + std::to_string(header_length) + " bytes is larger than " +
                    std::to_string(kMaxNpyHeaderBytes));
  }
  if (prefix.size() < fixed + header_length) {
    needs = fixed + header_length;
    return bad_file("the file ends inside its header");
  }
  const auto* text = reinterpret_cast<const char*>(prefix.data() + fixed);
  SS_ASSIGN_OR_RETURN(Header header, HeaderParser(std::string_view(text, header_length)).parse());

  uint64_t elements = 1;
  for (uint64_t extent : header.shape) {
    const auto product = checked_mul(elements, extent);
    if (!product) return bad_file("the shape's element count overflows");
    elements = *product;
  }
  const auto bytes = checked_mul(elements, element_size(header.type));
  if (!bytes) return bad_file("the shape's byte count overflows");
  if (*bytes > max_bytes) {
    return bad_file("array of " + std::to_string(*bytes) + " bytes exceeds the limit of " +
                    std::to_string(max_bytes) + " bytes (--max-bytes)");
  }
  header.data_offset = fixed + header_length;
  header.data_bytes = *bytes;
  return header;
}

Error data_size_error(uint64_t have, uint64_t want) {
  if (have < want) {
    return bad_file("the data is shorter than the shape says (" + std::to_string(have) +
                    " of " + std::to_string(want) + " bytes)");
  }
  return bad_file("the file has " + std::to_string(have - want) + " bytes after the array data");
}

Error with_npy_file(Error error, const std::filesystem::path& file) {
  error.message = error.to_string();
  error.path = file.string();
  return error;
}

}  // namespace

std::string npy_descr(DataType type) {
  const char kind = is_floating(type) ? 'f' : is_signed_integer(type) ? 'i' : 'u';
  const char order = element_size(type) == 1 ? '|' : '<';
  return std::string{order, kind, static_cast<char>('0' + element_size(type))};
}

Expected<NpyArray> parse_npy(std::span<const std::byte> bytes, uint64_t max_bytes) {
  uint64_t needs = 0;
  SS_ASSIGN_OR_RETURN(Header header, parse_preamble(bytes, max_bytes, needs));
  const uint64_t have = bytes.size() - header.data_offset;
  if (have != header.data_bytes) return data_size_error(have, header.data_bytes);
  const auto data = bytes.subspan(header.data_offset);
  return NpyArray{header.type, std::move(header.shape), {data.begin(), data.end()}};
}

Expected<NpyArray> read_npy(const std::filesystem::path& file, uint64_t max_bytes) {
  std::error_code error;
  const uint64_t file_bytes = std::filesystem::file_size(file, error);
  if (error) return Error{ErrorCode::Io, file.string(), "cannot read: " + error.message()};
  std::ifstream stream(file, std::ios::binary);
  if (!stream) return Error{ErrorCode::Io, file.string(), "cannot open for reading"};

  // Reads the preamble, then exactly the header it announces: never more than
  // kMaxNpyHeaderBytes before the data size has been checked.
  std::vector<std::byte> prefix;
  uint64_t wanted = kMagicBytes + 2 + 4;
  Expected<Header> header = bad_file("");
  for (int pass = 0; pass < 3; ++pass) {
    const uint64_t target = std::min(wanted, file_bytes);
    const std::size_t had = prefix.size();
    prefix.resize(target);
    stream.read(reinterpret_cast<char*>(prefix.data() + had), static_cast<std::streamsize>(target - had));
    if (!stream) return Error{ErrorCode::Io, file.string(), "read failed"};
    uint64_t needs = 0;
    header = parse_preamble(prefix, max_bytes, needs);
    if (header || needs == 0 || needs <= prefix.size() || target == file_bytes) break;
    wanted = needs;
  }
  if (!header) return with_npy_file(header.error(), file);

  const uint64_t have = file_bytes - header->data_offset;
  if (have != header->data_bytes) return with_npy_file(data_size_error(have, header->data_bytes), file);
  NpyArray array{header->type, std::move(header->shape), {}};
  array.data.resize(header->data_bytes);
  // The prefix may already hold the data's first bytes.
  const std::size_t buffered = prefix.size() - header->data_offset;
  const uint64_t from_prefix = std::min<uint64_t>(buffered, header->data_bytes);
  // An empty array's data() may be null, which memcpy must not see even for 0 bytes.
  if (from_prefix > 0) std::memcpy(array.data.data(), prefix.data() + header->data_offset, from_prefix);
  if (header->data_bytes > buffered) {
    stream.read(reinterpret_cast<char*>(array.data.data() + buffered),
                static_cast<std::streamsize>(header->data_bytes - buffered));
    if (!stream) return Error{ErrorCode::Io, file.string(), "read failed"};
  }
  return array;
}

Expected<std::vector<std::byte>> encode_npy(DataType type, std::span<const uint64_t> shape,
                                            std::span<const std::byte> data) {
  uint64_t elements = 1;
  std::string shape_text = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    const auto product = checked_mul(elements, shape[i]);
    if (!product) return invalid("shape", "element count overflows");
    elements = *product;
    if (i > 0) shape_text += ", ";
    shape_text += std::to_string(shape[i]);
  }
  shape_text += shape.size() == 1 ? ",)" : ")";
  const auto bytes = checked_mul(elements, element_size(type));
  if (!bytes || *bytes != data.size()) {
    return invalid("data", "holds " + std::to_string(data.size()) + " bytes; the shape needs " +
                               (bytes ? std::to_string(*bytes) : std::string("more")));
  }

  std::string header = "{'descr': '" + npy_descr(type) + "', 'fortran_order': False, 'shape': " +
                       shape_text + ", }";
  // Pads with spaces and a final newline so the data starts 64-byte aligned.
  const bool version1 = header.size() + kAlignment <= 65535;
  const std::size_t fixed = kMagicBytes + 2 + (version1 ? 2 : 4);
  const std::size_t unpadded = fixed + header.size() + 1;
  header.append((kAlignment - unpadded % kAlignment) % kAlignment, ' ');
  header += '\n';

  std::vector<std::byte> file;
  file.reserve(fixed + header.size() + data.size());
  for (char c : kMagic) file.push_back(static_cast<std::byte>(c));
  file.push_back(std::byte{static_cast<unsigned char>(version1 ? 1 : 2)});
  file.push_back(std::byte{0});
  const auto length = static_cast<uint32_t>(header.size());
  for (std::size_t i = 0; i < (version1 ? 2u : 4u); ++i) {
    file.push_back(static_cast<std::byte>((length >> (8 * i)) & 0xff));
  }
  for (char c : header) file.push_back(static_cast<std::byte>(c));
  file.insert(file.end(), data.begin(), data.end());
  return file;
}

Status write_npy(const std::filesystem::path& file, DataType type, std::span<const uint64_t> shape,
                 std::span<const std::byte> data) {
  Expected<std::vector<std::byte>> bytes = encode_npy(type, shape, data);
  if (!bytes) return with_npy_file(bytes.error(), file);
  return write_file_atomically(
      file, std::string_view(reinterpret_cast<const char*>(bytes->data()), bytes->size()));
}

}  // namespace stridescope
