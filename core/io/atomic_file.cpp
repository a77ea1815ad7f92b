#include "core/io/atomic_file.h"

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <random>
#include <cstring>
#include <fstream>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

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

std::function<bool(std::ostream&)> writer_of(std::string_view contents) {
  return [contents](std::ostream& stream) {
    stream.write(contents.data(), static_cast<std::streamsize>(contents.size()));
    return static_cast<bool>(stream);
  };
}

// A file written to its temporary and flushed, not yet renamed over its
// destination (or, for a device, FIFO or socket, already written in place).
struct StagedFile {
  std::filesystem::path destination;
  std::optional<std::filesystem::path> temporary;  // none when written in place
};

void discard(const StagedFile& staged) {
  std::error_code ignored;
  if (staged.temporary) std::filesystem::remove(*staged.temporary, ignored);
}

Expected<StagedFile> stage(const std::filesystem::path& path, const std::function<bool(std::ostream&)>& write) {
  if (path.empty() || !path.has_filename()) return io_error(path, "not a file name");
  std::error_code status_error;
  const std::filesystem::file_status status = std::filesystem::status(path, status_error);  // follows links
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status) &&
      !std::filesystem::is_directory(status)) {
    SS_RETURN_IF_ERROR(write_in_place(path, write));
    return StagedFile{path, std::nullopt};
  }
  // Refused before anything is written: renaming over a folder would fail
  // only after the other files of a set had replaced theirs.
  if (std::filesystem::is_directory(status)) return io_error(path, "is a folder, not a file");
  StagedFile staged{resolve_links(path), std::nullopt};
  SS_ASSIGN_OR_RETURN(const std::filesystem::path temporary, create_temporary_beside(staged.destination));
  staged.temporary = temporary;
  auto abandon = [&](const std::string& why) -> Error {
    discard(staged);
    return io_error(staged.destination, why);
  };
  {
    std::ofstream stream(temporary, std::ios::binary | std::ios::trunc);
    if (!stream) return abandon("cannot open for writing");
    if (!write(stream)) return abandon("writing was abandoned");
    stream.flush();
    if (!stream) return abandon("write failed (disk full?)");
  }
#ifdef STRIDESCOPE_POSIX_FILES
  if (!sync_path(temporary, O_RDONLY)) return abandon("fsync failed: " + errno_text());
#endif
  return staged;
}

Status commit(const StagedFile& staged) {
  if (!staged.temporary) return {};
  std::error_code error;
  std::filesystem::rename(*staged.temporary, staged.destination, error);
  if (error) {
    discard(staged);
    return io_error(staged.destination, "cannot rename the temporary file over it: " + error.message());
  }
#ifdef STRIDESCOPE_POSIX_FILES
  // Makes the rename itself durable; failure here loses nothing already visible.
  const std::filesystem::path& file = staged.destination;
  sync_path(file.has_parent_path() ? file.parent_path() : std::filesystem::path("."), O_RDONLY | O_DIRECTORY);
#endif
  return {};
}

}  // namespace

Status write_file_atomically(const std::filesystem::path& path,
                             const std::function<bool(std::ostream&)>& write) {
  SS_ASSIGN_OR_RETURN(const StagedFile staged, stage(path, write));
  return commit(staged);
}

Status write_files_atomically(std::span<const FileContents> files) {
  std::vector<StagedFile> staged;
  for (const FileContents& file : files) {
    Expected<StagedFile> next = stage(file.path, writer_of(file.contents));
    if (!next) {
      for (const StagedFile& done : staged) discard(done);
      return next.error();
    }
    staged.push_back(std::move(*next));
  }
  for (std::size_t i = 0; i < staged.size(); ++i) {
    if (Status renamed = commit(staged[i]); !renamed.ok()) {
      for (std::size_t j = i + 1; j < staged.size(); ++j) discard(staged[j]);
      return renamed;
    }
  }
  return {};
}

Status write_file_atomically(const std::filesystem::path& file, std::string_view contents) {
  return write_file_atomically(file, writer_of(contents));
}

}  // namespace stridescope
