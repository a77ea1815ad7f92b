#include "app/cli/diagnosis_text.h"

#include "app/cli/json_text.h"
#include "core/diagnosis/diagnosis_text.h"

namespace stridescope::cli {
namespace {

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
  for (const std::string& line : diagnosis_lines(diagnosis, misfit.has_value())) out << line << '\n';
}

}  // namespace stridescope::cli
