#include "core/io/atomic_file.h"

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <random>
#include <cstring>
#include <fstream>
#include <string>
#include <system_error>

#if defined(__unix__) || defined(__APPLE__)
#include <fcntl.h>
#include <unistd.h>
#define STRIDESCOPE_POSIX_FILES 1
#endif

namespace stridescope {
namespace {

Error io_error(const std::filesystem::path& file, const std::string& what) {
  return Error{ErrorCode::Io, file.string(), what};
}

std::string errno_text() { return std::strerror(errno); }

#ifdef STRIDESCOPE_POSIX_FILES
// Creates an empty, uniquely named file next to `file`; returns its path.
// open(O_EXCL, 0666) rather than mkstemp so the new file gets the usual
// permissions (0666 less the umask) instead of mkstemp's 0600.
Expected<std::filesystem::path> create_temporary_beside(const std::filesystem::path& file) {
  static std::atomic<uint64_t> counter{0};
  const std::filesystem::path folder =
      file.has_parent_path() ? file.parent_path() : std::filesystem::path(".");
  std::random_device entropy;
  for (int attempt = 0; attempt < 16; ++attempt) {
    // At most 120 bytes of the name: with the suffix it stays under NAME_MAX
    // (255) even for a destination whose own name nearly reaches it.
    const std::string name = "." + file.filename().string().substr(0, 120) + ".tmp-" + std::to_string(::getpid()) +
                             "-" + std::to_string(counter++) + "-" + std::to_string(entropy());
    std::filesystem::path candidate = folder / name;
    const int fd = ::open(candidate.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0) {
      ::close(fd);
      return candidate;
    }
    if (errno != EEXIST) break;
  }
  return io_error(file, "cannot create a temporary file beside it: " + errno_text());
}

// fsync by path: fsync flushes the file, whichever descriptor asks.
bool sync_path(const std::filesystem::path& path, int flags) {
  const int fd = ::open(path.c_str(), flags);
  if (fd < 0) return false;
  const bool ok = ::fsync(fd) == 0;
  ::close(fd);
  return ok;
}
#else
Expected<std::filesystem::path> create_temporary_beside(const std::filesystem::path& file) {
  std::filesystem::path temporary = file;
  temporary += ".tmp";
  return temporary;
}
bool sync_path(const std::filesystem::path&, int) { return true; }
#endif

// The file a chain of symbolic links ends at (the path itself when it is not
// a link): replacing that keeps the links, where renaming over the path
// would replace the first link with a plain file.
std::filesystem::path resolve_links(std::filesystem::path path) {
  std::error_code error;
  for (int hops = 0; hops < 40 && std::filesystem::is_symlink(std::filesystem::symlink_status(path, error)); ++hops) {
    const std::filesystem::path target = std::filesystem::read_symlink(path, error);
    if (error) break;
    path = target.is_absolute() ? target : path.parent_path() / target;
  }
  return path;
}

// Devices, FIFOs and sockets are written where they are, as a shell's `>`
// would: a rename would replace the node itself with a plain file.
Status write_in_place(const std::filesystem::path& file, const std::function<bool(std::ostream&)>& write) {
  std::ofstream stream(file, std::ios::binary);
  if (!stream) return io_error(file, "cannot open for writing");
  if (!write(stream)) return io_error(file, "writing was abandoned");
  stream.flush();
  if (!stream) return io_error(file, "write failed");
  return {};
}

}  // namespace

Status write_file_atomically(const std::filesystem::path& path,
                             const std::function<bool(std::ostream&)>& write) {
  if (path.empty() || !path.has_filename()) return io_error(path, "not a file name");
  std::error_code status_error;
  const std::filesystem::file_status status = std::filesystem::status(path, status_error);  // follows links
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status) &&
      !std::filesystem::is_directory(status)) {
    return write_in_place(path, write);
  }
  const std::filesystem::path file = resolve_links(path);
  Expected<std::filesystem::path> temporary = create_temporary_beside(file);
  if (!temporary) return temporary.error();
  std::error_code ignored;
  auto abandon = [&](const std::string& why) -> Status {
    std::filesystem::remove(*temporary, ignored);
    return io_error(file, why);
  };

  {
    std::ofstream stream(*temporary, std::ios::binary | std::ios::trunc);
    if (!stream) return abandon("cannot open for writing");
    if (!write(stream)) return abandon("writing was abandoned");
    stream.flush();
    if (!stream) return abandon("write failed (disk full?)");
  }
#ifdef STRIDESCOPE_POSIX_FILES
  if (!sync_path(*temporary, O_RDONLY)) return abandon("fsync failed: " + errno_text());
#endif
  std::error_code error;
  std::filesystem::rename(*temporary, file, error);
  if (error) return abandon("cannot rename the temporary file over it: " + error.message());
#ifdef STRIDESCOPE_POSIX_FILES
  // Makes the rename itself durable; failure here loses nothing already visible.
  const std::filesystem::path folder =
      file.has_parent_path() ? file.parent_path() : std::filesystem::path(".");
  sync_path(folder, O_RDONLY | O_DIRECTORY);
#endif
  return {};
}

Status write_file_atomically(const std::filesystem::path& file, std::string_view contents) {
  return write_file_atomically(file, [contents](std::ostream& stream) {
    stream.write(contents.data(), static_cast<std::streamsize>(contents.size()));
    return static_cast<bool>(stream);
  });
}

}  // namespace stridescope
