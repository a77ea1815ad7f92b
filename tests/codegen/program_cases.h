// Writes cases for run_programs.py: for each spec, the generated NumPy and
// PyTorch programs beside StrideScope's logical output (and indices), as the
// CPU reference backend computes them, and a manifest; then runs python3 on
// them once.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "core/io/spec_file.h"
#include "core/operation.h"

namespace stridescope::test {

// What the cases exercised, so a test can require every kind it claims.
struct Coverage {
  std::map<std::string, int> counts;
  void add(const std::string& what) { ++counts[what]; }
  int operator[](const std::string& what) const {
    const auto it = counts.find(what);
    return it == counts.end() ? 0 : it->second;
  }
  std::string summary() const;
};

class ProgramCases {
 public:
  explicit ProgramCases(std::filesystem::path folder) : folder_(std::move(folder)) {}

  // Adds `spec` (which must be valid) as case `name`.
  void add(const std::string& name, const Spec& spec);

  // Runs run_programs.py on the cases; returns its exit code, its output in `log`.
  int run(std::string& log) const;

  const Coverage& coverage() const { return coverage_; }
  std::size_t size() const { return manifest_.size(); }

 private:
  void count(const Spec& spec, const Operation& op, std::span<const std::byte> input);

  std::filesystem::path folder_;
  nlohmann::json manifest_ = nlohmann::json::array();
  Coverage coverage_;
};

}  // namespace stridescope::test
