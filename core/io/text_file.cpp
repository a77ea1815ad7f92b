#include "core/io/text_file.h"

#include <array>
#include <cerrno>
#include <fstream>
#include <system_error>

namespace stridescope {

Expected<std::string> read_text_file(const std::filesystem::path& file, uint64_t most, const std::string& too_long) {
  std::error_code error;
  if (std::filesystem::is_directory(file, error)) return Error{ErrorCode::Io, file.string(), "is a folder, not a file"};
  std::ifstream stream(file, std::ios::binary);
  if (!stream) return Error{ErrorCode::Io, file.string(), "cannot read: " + std::generic_category().message(errno)};
  std::string text;
  std::array<char, 1 << 16> chunk;
  while (stream.read(chunk.data(), chunk.size()) || stream.gcount() > 0) {
    text.append(chunk.data(), static_cast<std::size_t>(stream.gcount()));
    if (text.size() > most) return Error{ErrorCode::InvalidSpec, file.string(), too_long};
  }
  if (stream.bad()) return Error{ErrorCode::Io, file.string(), "read failed"};
  return text;
}

}  // namespace stridescope
