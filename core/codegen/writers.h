// One function per language; code_writer.cpp dispatches to them.
#pragma once

#include "core/codegen/code_writer.h"

namespace stridescope::codegen {

GeneratedCode write_numpy(const CodeSource& source);
GeneratedCode write_torch(const CodeSource& source);
GeneratedCode write_onnx(const CodeSource& source);
GeneratedCode write_dml(const CodeSource& source);
GeneratedCode write_dxdispatch(const CodeSource& source);

// max_pooling2 as an exact tap-by-tap gather (python_pooling.cpp), from `x`
// to `result` and `flat_index`.
std::string numpy_pooling_code(const Operation& op);
std::string torch_pooling_code(const Operation& op);

// NumPy pieces the ONNX program reuses (numpy_writer.cpp): the input buffer
// and its strided view `x`; one element as a typed NumPy scalar; "np.float32".
std::string numpy_input_code(const CodeSource& source);
std::string numpy_scalar_code(DataType type, uint64_t bits);
std::string numpy_type_name(DataType type);

}  // namespace stridescope::codegen
