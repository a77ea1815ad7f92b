#include "core/codegen/code_writer.h"

#include <array>

#include "core/codegen/writers.h"

namespace stridescope {
namespace {

constexpr std::array<CodeLanguage, 5> kLanguages = {CodeLanguage::NumPy, CodeLanguage::Torch, CodeLanguage::Onnx,
                                                    CodeLanguage::Dml, CodeLanguage::DxDispatch};

}  // namespace

std::string_view to_string(CodeLanguage language) {
  switch (language) {
    case CodeLanguage::NumPy: return "numpy";
    case CodeLanguage::Torch: return "torch";
    case CodeLanguage::Onnx: return "onnx";
    case CodeLanguage::Dml: return "dml";
    case CodeLanguage::DxDispatch: return "dxdispatch";
  }
  return "?";
}

std::optional<CodeLanguage> parse_code_language(std::string_view name) {
  for (const CodeLanguage language : kLanguages) {
    if (to_string(language) == name) return language;
  }
  return std::nullopt;
}

GeneratedCode write_code(CodeLanguage language, const CodeSource& source) {
  switch (language) {
    case CodeLanguage::NumPy: return codegen::write_numpy(source);
    case CodeLanguage::Torch: return codegen::write_torch(source);
    case CodeLanguage::Onnx: return codegen::write_onnx(source);
    case CodeLanguage::Dml: return codegen::write_dml(source);
    case CodeLanguage::DxDispatch: return codegen::write_dxdispatch(source);
  }
  return {};
}

}  // namespace stridescope
