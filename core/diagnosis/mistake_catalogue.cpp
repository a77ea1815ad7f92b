#include "core/diagnosis/mistake_catalogue.h"

#include <array>

namespace stridescope {
namespace {

constexpr std::array<Mistake, 18> kCatalogue = {{
    {MistakeId::Slice1NegativeStrideFromOffset, "slice1-negative-stride-from-offset",
     "a negative SLICE1 stride starts at the window offset instead of at the window's end", ""},
    {MistakeId::ReflectionRepeatsEdge, "reflection-repeats-edge",
     "REFLECTION padding repeats the edge element, which is SYMMETRIC's rule", ""},
    {MistakeId::SymmetricSkipsEdge, "symmetric-skips-edge",
     "SYMMETRIC padding does not repeat the edge element, which is REFLECTION's rule", ""},
    {MistakeId::NoPeriodicFold, "no-periodic-fold",
     "REFLECTION/SYMMETRIC padding mirrors once and then clamps to the edge instead of folding "
     "periodically when the padding is wider than the input",
     ""},
    {MistakeId::NumpyNonperiodicFold, "numpy-nonperiodic-fold",
     "REFLECTION/SYMMETRIC padding wider than the input is filled chunk by chunk from both sides, "
     "reflecting already padded values, which is not periodic",
     "NumPy's np.pad with mode 'reflect' or 'symmetric'"},
    {MistakeId::PaddingValueRounded, "padding-value-rounded",
     "a fractional paddingValue for an integer output is rounded to nearest instead of truncated toward zero",
     ""},
    {MistakeId::PaddingValueThroughFloat32, "padding-value-through-float32",
     "paddingValue is converted to float32 before it is converted to the output type", ""},
    {MistakeId::Int64ThroughDouble, "int64-through-double",
     "64-bit integer values pass through a double, losing the bits beyond 2^53",
     "JavaScript numbers (JSON.parse reads every number as a double)"},
    {MistakeId::Float64ThroughFloat32, "float64-through-float32",
     "FLOAT64 values pass through float32, losing precision and range", ""},
    {MistakeId::InputStridesIgnored, "input-strides-ignored",
     "the input buffer is read as packed row-major, whatever its strides", ""},
    {MistakeId::OutputStridesIgnored, "output-strides-ignored",
     "the output buffer is written packed row-major, whatever its strides", ""},
    {MistakeId::IndicesPerPlane, "indices-per-plane",
     "pooling indices count within each (batch, channel) plane instead of across the whole input",
     "PyTorch's max_pool2d/max_pool3d with return_indices=True"},
    {MistakeId::IndicesAsBufferOffsets, "indices-as-buffer-offsets",
     "pooling indices are the winner's buffer offset through the input strides, not its logical position",
     ""},
    {MistakeId::IndicesColumnMajor, "indices-column-major",
     "pooling indices flatten the spatial position column-major (first spatial dimension fastest)",
     "ONNX MaxPool with storage_order=1"},
    {MistakeId::LastMaximumWins, "last-maximum-wins",
     "of equal maxima in a pooling window the last wins instead of the first", ""},
    {MistakeId::PaddingTakesPart, "padding-takes-part",
     "padded positions take part in the pooling maximum (as the type's lowest value, -infinity or 0)", ""},
    {MistakeId::NanIgnored, "nan-ignored",
     "a NaN loses to every number in the pooling maximum instead of winning", ""},
    {MistakeId::UndilatedOutputSize, "undilated-output-size",
     "pooling output sizes come from the undilated window size, ignoring Dilations",
     "the output size formula on DirectML's DML_MAX_POOLING2_OPERATOR_DESC page"},
}};

}  // namespace

std::span<const Mistake> mistake_catalogue() { return kCatalogue; }

const Mistake& mistake(MistakeId id) {
  for (const Mistake& m : kCatalogue) {
    if (m.id == id) return m;
  }
  return kCatalogue.front();  // unreachable: every id is catalogued (a test checks)
}

std::optional<MistakeId> parse_mistake_id(std::string_view name) {
  for (const Mistake& m : kCatalogue) {
    if (m.name == name) return m.id;
  }
  return std::nullopt;
}

}  // namespace stridescope
