// Reading a whole text file (a spec, a result document) as a stream, so that
// pipes, /dev/stdin and process substitutions, which have no size, work too,
// and refusing more than a limit before it is all in memory.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include "core/error.h"

namespace stridescope {

// More than `most` bytes is an InvalidSpec error at the file whose message
// is `too_long`; a folder or an unreadable file is an Io error.
Expected<std::string> read_text_file(const std::filesystem::path& file, uint64_t most, const std::string& too_long);

}  // namespace stridescope
