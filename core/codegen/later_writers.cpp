// Languages not written yet: each says so.
#include "core/codegen/writers.h"

namespace stridescope::codegen {
namespace {
GeneratedCode unwritten(const char* name) {
  GeneratedCode code;
  code.text = std::string("// ") + name + ": not written yet\n";
  code.notes.push_back(std::string(name) + " is not written yet.");
  code.runnable = false;
  return code;
}
}  // namespace

GeneratedCode write_dxdispatch(const CodeSource&) { return unwritten("dxdispatch"); }

}  // namespace stridescope::codegen
