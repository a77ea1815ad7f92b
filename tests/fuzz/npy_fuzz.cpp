// .npy bytes -> parse_npy, as a spec's `npy` input and `check X.npy` read
// them. An accepted array must hold exactly product(shape) elements, and
// encode_npy's file for it must parse back to the same array.
#include <span>
#include <vector>

#include "core/data_type.h"
#include "core/io/npy.h"
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace stridescope;
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  Expected<NpyArray> array = parse_npy(bytes, fuzz::kFuzzMaxBytes);
  if (!array) return 0;
  uint64_t elements = 1;
  for (uint64_t extent : array->shape) elements *= extent;  // bounded: the data fits kFuzzMaxBytes
  FUZZ_CHECK(array->data.size() == elements * element_size(array->type), "data is product(shape) elements");

  Expected<std::vector<std::byte>> encoded = encode_npy(array->type, array->shape, array->data);
  FUZZ_CHECK(encoded.has_value(), "an array parse_npy accepted encodes");
  Expected<NpyArray> again = parse_npy(*encoded, fuzz::kFuzzMaxBytes);
  FUZZ_CHECK(again.has_value(), "encode_npy's file parses");
  FUZZ_CHECK(again->type == array->type && again->shape == array->shape && again->data == array->data,
             "encode_npy then parse_npy gives the same array");
  return 0;
}
