#include "app/cli/diagnosis_text.h"

#include "app/cli/json_text.h"

namespace stridescope::cli {
namespace {

std::string explained_text(const Finding& finding, uint64_t differing) {
  if (finding.complete) return "";
  return " (explains " + std::to_string(finding.explained) + " of " + std::to_string(differing) +
         (differing == 1 ? " differing element)" : " differing elements)");
}

void print_json(std::ostream& out, const Diagnosis& diagnosis, const std::optional<std::string>& misfit) {
  nlohmann::ordered_json document;
  document["equal"] = diagnosis.differing == 0 && !misfit;
  if (misfit) document["fits"] = false;
  if (misfit) document["error"] = *misfit;
  document["differing"] = diagnosis.differing;
  nlohmann::ordered_json findings = nlohmann::ordered_json::array();
  for (const Finding& finding : diagnosis.findings) {
    const Mistake& m = mistake(finding.id);
    nlohmann::ordered_json item;
    item["id"] = m.name;
    item["explanation"] = m.explanation;
    if (!m.known_in.empty()) item["knownIn"] = m.known_in;
    item["complete"] = finding.complete;
    if (!finding.complete) item["explained"] = finding.explained;  // of "differing"
    findings.push_back(item);
  }
  document["diagnoses"] = findings;
  const bool unknown = diagnosis.findings.empty() && (diagnosis.differing > 0 || misfit);
  document["unknown"] = unknown;
  if (unknown) document["inCommon"] = diagnosis.in_common;
  out << pretty_json(document);
}

}  // namespace

void print_diagnosis(std::ostream& out, const Diagnosis& diagnosis, bool json,
                     const std::optional<std::string>& misfit) {
  if (json) return print_json(out, diagnosis, misfit);
  for (const Finding& finding : diagnosis.findings) {
    const Mistake& m = mistake(finding.id);
    out << "diagnosis: " << m.name << ": " << m.explanation << explained_text(finding, diagnosis.differing) << '\n';
    if (!m.known_in.empty()) out << "  known in: " << m.known_in << '\n';
  }
  if (diagnosis.findings.empty() && (diagnosis.differing > 0 || misfit)) {
    out << "diagnosis: unknown\n";
    for (const std::string& trait : diagnosis.in_common) out << "  in common: " << trait << '\n';
  }
}

}  // namespace stridescope::cli
