// Writing a file so that readers see either the old file or the complete new
// one, never a half-written one: the bytes go to a temporary file in the same
// folder, are flushed to disk (fsync), and the temporary is renamed over the
// destination. A failure leaves the destination untouched and removes the
// temporary.
#pragma once

#include <filesystem>
#include <functional>
#include <ostream>
#include <span>
#include <string_view>

#include "core/error.h"

namespace stridescope {

// Calls `write` with a stream on the temporary file; `write` returns false
// (or leaves the stream failed) to abandon the file. Errors are ErrorCode::Io
// and name the file.
//
// A symbolic link is followed: the file it names is replaced and the link
// stays. A device, FIFO or socket (/dev/null, /dev/stdout on a pipe) is
// written in place, as a shell's `>` would; renaming over it would replace
// the node with a plain file.
Status write_file_atomically(const std::filesystem::path& file,
                             const std::function<bool(std::ostream&)>& write);

Status write_file_atomically(const std::filesystem::path& file, std::string_view contents);

struct FileContents {
  std::filesystem::path path;
  std::string_view contents;
};

// Files that belong together (an output and its indices): every temporary is
// written and flushed before any is renamed, so a failure while writing (a
// full disk, a missing folder) leaves every destination as it was. The
// renames are separate steps; only a failure among them, after the writing
// succeeded, can leave some files replaced and not others.
Status write_files_atomically(std::span<const FileContents> files);

}  // namespace stridescope
