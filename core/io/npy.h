// NumPy's .npy array files (format versions 1.0, 2.0 and 3.0), the way a spec's
// input `npy` is given and `stridescope-cli run --out X.npy` writes results.
//
//   "\x93NUMPY" major minor  header-length (2 bytes in 1.0, 4 in 2.0/3.0, little-endian)
//   header: a Python dict literal, e.g. {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
//           padded with spaces and a final '\n' so the data starts 64-byte aligned
//   data:   the elements, C order
//
// StrideScope reads and writes only what maps onto its data types: descr
// <f2 <f4 <f8 |i1 <i2 <i4 <i8 |u1 <u2 <u4 <u8 ('<' is also accepted for the
// one-byte types), C order ('fortran_order': True is refused), no structured
// or big-endian dtypes. Hostile files are refused with an error, never a crash
// or an unbounded allocation: the header is at most 64 KiB and the data at
// most `max_bytes`, checked before anything is allocated.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "core/data_type.h"
#include "core/error.h"

namespace stridescope {

struct NpyArray {
  DataType type = DataType::Float32;
  std::vector<uint64_t> shape;  // empty for a 0-d array (one element)
  std::vector<std::byte> data;  // product(shape) * element_size(type) bytes, C order
};

inline constexpr uint64_t kMaxNpyHeaderBytes = 64 * 1024;

// "<f4", "|u1", ...: the descr numpy writes for `type`.
std::string npy_descr(DataType type);

// Errors are InvalidSpec (a malformed or unsupported file) or Io (unreadable),
// and read_npy's name the file.
Expected<NpyArray> read_npy(const std::filesystem::path& file, uint64_t max_bytes);
Expected<NpyArray> parse_npy(std::span<const std::byte> bytes, uint64_t max_bytes);

// The complete file: format 1.0 (2.0 only if the header needs it).
// `data` must hold exactly product(shape) elements.
Expected<std::vector<std::byte>> encode_npy(DataType type, std::span<const uint64_t> shape,
                                            std::span<const std::byte> data);
// Writes encode_npy's bytes atomically (atomic_file.h).
Status write_npy(const std::filesystem::path& file, DataType type, std::span<const uint64_t> shape,
                 std::span<const std::byte> data);

}  // namespace stridescope
