// NumPy's .npy format (numpy.lib.format): the magic "\x93NUMPY", a major and
// minor version byte, the header length (2 bytes little-endian in 1.0, 4 in
// 2.0 and 3.0), a Python dict literal
//   {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
// padded with spaces and ended by '\n' so that the data starts at a multiple
// of 64 bytes, then the data in C order. Hostile files must be refused
// cleanly, never crash or allocate what the header claims.
#include "core/io/npy.h"

#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <random>
#include <string>

#include "temp_folder.h"

namespace stridescope {
namespace {

using Bytes = std::vector<std::byte>;
using namespace std::string_view_literals;

constexpr uint64_t kLimit = uint64_t{1} << 20;

// A file assembled by hand: no padding unless the header text has it.
Bytes npy_file(int major, std::string_view header, std::string_view data = {}) {
  std::string text = "\x93NUMPY";
  text += static_cast<char>(major);
  text += '\0';
  const auto length = static_cast<uint32_t>(header.size());
  for (int i = 0; i < (major == 1 ? 2 : 4); ++i) text += static_cast<char>((length >> (8 * i)) & 0xff);
  text += header;
  text += data;
  Bytes bytes(text.size());
  std::memcpy(bytes.data(), text.data(), text.size());
  return bytes;
}

std::string as_text(const Bytes& bytes) { return {reinterpret_cast<const char*>(bytes.data()), bytes.size()}; }

Bytes bytes_of(std::string_view text) {
  Bytes bytes(text.size());
  std::memcpy(bytes.data(), text.data(), text.size());
  return bytes;
}

// Expects parse_npy to refuse `file` with a message containing `fragment`.
void expect_refused(const Bytes& file, const std::string& fragment, uint64_t limit = kLimit) {
  const Expected<NpyArray> array = parse_npy(file, limit);
  ASSERT_FALSE(array.has_value()) << "accepted; expected: " << fragment;
  EXPECT_EQ(array.error().code, ErrorCode::InvalidSpec);
  EXPECT_NE(array.error().message.find(fragment), std::string::npos) << array.error().to_string();
}

TEST(Npy, DescrOfEveryDataTypeIsNumpys) {
  EXPECT_EQ(npy_descr(DataType::Float16), "<f2");
  EXPECT_EQ(npy_descr(DataType::Float32), "<f4");
  EXPECT_EQ(npy_descr(DataType::Float64), "<f8");
  EXPECT_EQ(npy_descr(DataType::Int8), "|i1");
  EXPECT_EQ(npy_descr(DataType::Int16), "<i2");
  EXPECT_EQ(npy_descr(DataType::Int32), "<i4");
  EXPECT_EQ(npy_descr(DataType::Int64), "<i8");
  EXPECT_EQ(npy_descr(DataType::UInt8), "|u1");
  EXPECT_EQ(npy_descr(DataType::UInt16), "<u2");
  EXPECT_EQ(npy_descr(DataType::UInt32), "<u4");
  EXPECT_EQ(npy_descr(DataType::UInt64), "<u8");
}

TEST(Npy, EncodedFileIsWhatNumpySaveWrites) {
  // np.save(f, np.arange(6, dtype='<f4').reshape(2, 3)) writes this header.
  Bytes data(24);
  for (int i = 0; i < 6; ++i) {
    const float value = static_cast<float>(i);
    std::memcpy(data.data() + 4 * i, &value, 4);
  }
  const std::vector<uint64_t> shape = {2, 3};
  const Expected<Bytes> file = encode_npy(DataType::Float32, shape, data);
  ASSERT_TRUE(file.has_value()) << file.error().to_string();
  const std::string text = as_text(*file);
  const std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
  ASSERT_EQ(text.substr(0, 10), std::string("\x93NUMPY\x01\x00", 8) + std::string("\x76\x00", 2));
  EXPECT_EQ(text.substr(10, dict.size()), dict);
  EXPECT_EQ(text.size(), 128u + 24u);  // 10 + 118 header bytes: data 64-byte aligned
  EXPECT_EQ(text[127], '\n');
  EXPECT_EQ(text.substr(10 + dict.size(), 127 - 10 - dict.size()), std::string(127 - 10 - dict.size(), ' '));
  EXPECT_EQ(text.substr(128), as_text(data));
}

TEST(Npy, OneDimensionalShapeHasATrailingComma) {
  const std::vector<uint64_t> shape = {3};
  const Expected<Bytes> file = encode_npy(DataType::UInt8, shape, bytes_of("abc"));
  ASSERT_TRUE(file.has_value());
  EXPECT_NE(as_text(*file).find("'descr': '|u1', 'fortran_order': False, 'shape': (3,), }"), std::string::npos);
}

TEST(Npy, EncodeRefusesDataOfTheWrongLength) {
  const std::vector<uint64_t> shape = {2, 2};
  EXPECT_FALSE(encode_npy(DataType::Float32, shape, Bytes(15)).has_value());
}

TEST(Npy, EveryDataTypeRoundTripsThroughAFile) {
  test::TempFolder folder;
  for (DataType type : kAllDataTypes) {
    SCOPED_TRACE(std::string(to_string(type)));
    const std::vector<uint64_t> shape = {2, 1, 3};
    Bytes data(6 * element_size(type));
    for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<std::byte>(i * 37 + 11);
    const auto file = folder / (std::string(to_string(type)) + ".npy");
    ASSERT_TRUE(write_npy(file, type, shape, data).ok());
    const Expected<NpyArray> array = read_npy(file, kLimit);
    ASSERT_TRUE(array.has_value()) << array.error().to_string();
    EXPECT_EQ(array->type, type);
    EXPECT_EQ(array->shape, shape);
    EXPECT_EQ(array->data, data);
  }
}

TEST(Npy, HalfPrecisionKeepsItsBits) {
  // 1.0, -2.0, 65504 (largest half), the smallest subnormal, a NaN.
  const std::vector<uint16_t> halves = {0x3C00, 0xC000, 0x7BFF, 0x0001, 0x7E00};
  Bytes data(halves.size() * 2);
  std::memcpy(data.data(), halves.data(), data.size());
  const std::vector<uint64_t> shape = {halves.size()};
  const Expected<Bytes> file = encode_npy(DataType::Float16, shape, data);
  ASSERT_TRUE(file.has_value());
  EXPECT_NE(as_text(*file).find("'<f2'"), std::string::npos);
  const Expected<NpyArray> array = parse_npy(*file, kLimit);
  ASSERT_TRUE(array.has_value());
  EXPECT_EQ(array->type, DataType::Float16);
  EXPECT_EQ(array->data, data);
}

TEST(Npy, ZeroDimensionalArrayHoldsOneElement) {
  const Expected<NpyArray> array =
      parse_npy(npy_file(1, "{'descr': '<i4', 'fortran_order': False, 'shape': (), }\n", "\x07\0\0\0"sv), kLimit);
  ASSERT_TRUE(array.has_value()) << array.error().to_string();
  EXPECT_TRUE(array->shape.empty());
  EXPECT_EQ(array->data.size(), 4u);
}

TEST(Npy, AFileOfZeroElementsReadsAsEmpty) {
  // shape (0,): no data bytes. Under UBSan, copying its 0 bytes from a null
  // pointer was a report (the asan CI run fails on it).
  test::TempFolder folder;
  const auto file = folder / "empty.npy";
  ASSERT_TRUE(write_npy(file, DataType::Float32, std::vector<uint64_t>{0}, Bytes{}).ok());
  const Expected<NpyArray> array = read_npy(file, kLimit);
  ASSERT_TRUE(array.has_value()) << array.error().to_string();
  EXPECT_EQ(array->shape, std::vector<uint64_t>{0});
  EXPECT_TRUE(array->data.empty());
}

TEST(Npy, ReadsFormatVersion2And3Headers) {
  const std::string header = "{'descr': '<u2', 'fortran_order': False, 'shape': (2,), }\n";
  for (int major : {2, 3}) {
    const Expected<NpyArray> array = parse_npy(npy_file(major, header, "\x01\x00\x02\x00"sv), kLimit);
    ASSERT_TRUE(array.has_value()) << major << ": " << array.error().to_string();
    EXPECT_EQ(array->type, DataType::UInt16);
    EXPECT_EQ(array->shape, std::vector<uint64_t>{2});
  }
}

TEST(Npy, AcceptsKeysInAnyOrderDoubleQuotesAndPython2Longs) {
  const Expected<NpyArray> array = parse_npy(
      npy_file(1, "{\"shape\": (1L, 2L), \"fortran_order\": False, \"descr\": \"<i1\"}", "\x01\x02"), kLimit);
  ASSERT_TRUE(array.has_value()) << array.error().to_string();
  EXPECT_EQ(array->type, DataType::Int8);
  EXPECT_EQ(array->shape, (std::vector<uint64_t>{1, 2}));
}

TEST(Npy, RefusesBadMagic) {
  Bytes file = npy_file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (0,), }");
  file[1] = std::byte{'X'};
  expect_refused(file, "bad magic");
  expect_refused(bytes_of("\x93NUM"), "bad magic");
  expect_refused({}, "bad magic");
}

TEST(Npy, RefusesUnknownVersions) {
  expect_refused(npy_file(4, "{}"), "version 4.0");
}

TEST(Npy, RefusesAHugeHeaderLengthWithoutAllocatingIt) {
  // Format 2.0 allows a 4 GiB header; the file claims one and ends at once.
  Bytes file = bytes_of(std::string("\x93NUMPY\x02\x00\xff\xff\xff\xff", 12));
  expect_refused(file, "header of 4294967295 bytes");
}

TEST(Npy, RefusesAHeaderLongerThanTheFile) {
  Bytes file = npy_file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }");
  file[8] = std::byte{0xff};  // claims 255 + ... bytes
  expect_refused(file, "ends inside its header");
}

TEST(Npy, RefusesHeadersThatAreNotTheExpectedDict) {
  expect_refused(npy_file(1, "[1, 2, 3]"), "not a Python dict");
  expect_refused(npy_file(1, "{'descr': '<f4', 'fortran_order': False}"), "no 'shape'");
  expect_refused(npy_file(1, "{'descr': '<f4', 'shape': (1,)}"), "no 'fortran_order'");
  expect_refused(npy_file(1, "{'fortran_order': False, 'shape': (1,)}"), "no 'descr'");
  expect_refused(npy_file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'extra': 1}"),
                 "unexpected key 'extra'");
  expect_refused(npy_file(1, "{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (1,)}"),
                 "duplicate key 'descr'");
  expect_refused(npy_file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1,)} trailing"),
                 "unexpected text after");
  expect_refused(npy_file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (-1,)}"),
                 "non-negative integers");
  expect_refused(npy_file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': [1]}"), "not a tuple");
  expect_refused(npy_file(1, "{'descr': '<f4, 'fortran_order': False, 'shape': (1,)}"), "");
  expect_refused(npy_file(1, "{'descr': '<f4', 'fortran_order': None, 'shape': (1,)}"), "True or False");
  expect_refused(npy_file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1,)"), "not closed");
}

TEST(Npy, RefusesFortranOrder) {
  expect_refused(npy_file(1, "{'descr': '<f4', 'fortran_order': True, 'shape': (1,), }", "abcd"), "Fortran");
}

TEST(Npy, RefusesUnsupportedDtypes) {
  const std::string tail = "', 'fortran_order': False, 'shape': (1,), }";
  expect_refused(npy_file(1, "{'descr': '>f4" + tail, "abcd"), "big-endian");
  expect_refused(npy_file(1, "{'descr': '<c8" + tail, "abcdefgh"), "unsupported dtype");
  expect_refused(npy_file(1, "{'descr': '|b1" + tail, "a"), "unsupported dtype");
  expect_refused(npy_file(1, "{'descr': '|f4" + tail, "abcd"), "byte order");
  expect_refused(npy_file(1, "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }", "abcd"),
                 "structured");
}

TEST(Npy, OneByteTypesAcceptEitherByteOrderMark) {
  const Expected<NpyArray> array =
      parse_npy(npy_file(1, "{'descr': '<u1', 'fortran_order': False, 'shape': (1,), }", "a"), kLimit);
  ASSERT_TRUE(array.has_value());
  EXPECT_EQ(array->type, DataType::UInt8);
}

TEST(Npy, RefusesShapesWhoseProductOverflows) {
  expect_refused(npy_file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296), }"),
                 "overflows");
  expect_refused(npy_file(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (3074457345618258603,), }"),
                 "overflows");
  expect_refused(npy_file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }"),
                 "too large");
}

TEST(Npy, RefusesArraysOverTheByteLimitBeforeReadingThem) {
  expect_refused(npy_file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1000, 1000), }"),
                 "exceeds the limit of 1000 bytes", 1000);
}

TEST(Npy, RefusesDataShorterOrLongerThanTheShape) {
  const std::string header = "{'descr': '<i2', 'fortran_order': False, 'shape': (3,), }";
  expect_refused(npy_file(1, header, "abcd"), "shorter than the shape");
  expect_refused(npy_file(1, header, "abcdefgh"), "2 bytes after the array data");
}

TEST(Npy, ReadNpyNamesAMissingFile) {
  test::TempFolder folder;
  const Expected<NpyArray> array = read_npy(folder / "missing.npy", kLimit);
  ASSERT_FALSE(array.has_value());
  EXPECT_EQ(array.error().code, ErrorCode::Io);
  EXPECT_EQ(array.error().path, (folder / "missing.npy").string());
}

TEST(Npy, ReadNpyRefusesHostileFilesNamingThem) {
  test::TempFolder folder;
  const auto file = folder / "hostile.npy";
  test::write_text(file, std::string("\x93NUMPY\x02\x00\xff\xff\xff\x7f", 12));
  Expected<NpyArray> array = read_npy(file, kLimit);
  ASSERT_FALSE(array.has_value());
  EXPECT_EQ(array.error().path, file.string());

  // A valid header claiming far more data than the file holds.
  const Bytes big = npy_file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1000,), }", "abcd");
  test::write_text(file, as_text(big));
  array = read_npy(file, kLimit);
  ASSERT_FALSE(array.has_value());
  EXPECT_NE(array.error().message.find("shorter than the shape"), std::string::npos) << array.error().to_string();
}

TEST(Npy, ReadNpyReadsATinyFileWhoseDataFollowsAShortHeader) {
  test::TempFolder folder;
  const auto file = folder / "tiny.npy";
  test::write_text(file, as_text(npy_file(1, "{'descr':'|u1','fortran_order':False,'shape':(2,)}", "xy")));
  const Expected<NpyArray> array = read_npy(file, kLimit);
  ASSERT_TRUE(array.has_value()) << array.error().to_string();
  EXPECT_EQ(array->data, bytes_of("xy"));
}

TEST(Npy, CorruptedFilesAreRefusedOrConsistent) {
  // Random byte changes and truncations of a valid file: parse_npy either
  // refuses it or returns data exactly as long as its shape says.
  const std::vector<uint64_t> shape = {3, 5};
  const Expected<Bytes> valid = encode_npy(DataType::Int16, shape, Bytes(30));
  ASSERT_TRUE(valid.has_value());
  std::mt19937 random(12345);
  int accepted = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    Bytes file = *valid;
    const int changes = 1 + static_cast<int>(random() % 4);
    for (int c = 0; c < changes; ++c) file[random() % file.size()] = static_cast<std::byte>(random() % 256);
    if (trial % 3 == 0) file.resize(random() % (file.size() + 1));
    const Expected<NpyArray> array = parse_npy(file, kLimit);
    if (!array) continue;
    ++accepted;
    uint64_t elements = 1;
    for (uint64_t extent : array->shape) elements *= extent;
    ASSERT_EQ(array->data.size(), elements * element_size(array->type));
  }
  EXPECT_GT(accepted, 0);  // changes to padding or data bytes are harmless
}

}  // namespace
}  // namespace stridescope
