#include "core/diagnosis/diagnosis_text.h"

namespace stridescope {
namespace {

std::string explained_text(const Finding& finding, uint64_t differing) {
  if (finding.complete) return "";
  return " (explains " + std::to_string(finding.explained) + " of " + std::to_string(differing) +
         (differing == 1 ? " differing element)" : " differing elements)");
}

}  // namespace

std::vector<std::string> diagnosis_lines(const Diagnosis& diagnosis, bool misfit) {
  std::vector<std::string> lines;
  for (const Finding& finding : diagnosis.findings) {
    const Mistake& m = mistake(finding.id);
    lines.push_back("diagnosis: " + std::string(m.name) + ": " + std::string(m.explanation) +
                    explained_text(finding, diagnosis.differing));
    if (!m.known_in.empty()) lines.push_back("  known in: " + std::string(m.known_in));
  }
  if (diagnosis.findings.empty() && (diagnosis.differing > 0 || misfit)) {
    lines.push_back("diagnosis: unknown");
    for (const std::string& trait : diagnosis.in_common) lines.push_back("  in common: " + trait);
  }
  return lines;
}

}  // namespace stridescope
