// edit.hpp — unit-cost edit (Levenshtein) distance between two byte strings.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "dpgpu/problem.hpp"
#include "edit/script.hpp"

namespace edit {

struct Instance {
  std::string a, b;  // byte strings; any byte value may occur
};

// The certificate: an edit script that turns a into b (script.hpp).
struct Solution {
  Script script;
};

struct Problem {
  static constexpr const char* name = "edit";
  static constexpr const char* help =
      "unit-cost edit (Levenshtein) distance between two byte strings";
  static constexpr const char* file_kinds = "fasta,text";  // the LCS readers
  // Every generator holds a and b (about n + m bytes), plus building room for one.
  static std::uint64_t instance_bytes(const std::string&, const dpgpu::Params& p);
  using Instance = edit::Instance;
  using Solution = edit::Solution;

  // Valid when the script turns a into b; the objective is its cost (edits it makes).
  static dpgpu::Verdict check(const Instance& x, const Solution& s);
  static double work(const Instance& x) { return double(x.a.size()) * double(x.b.size()); }
  static dpgpu::ValueMap dims(const Instance& x);  // n = |a|, m = |b|
  static std::vector<dpgpu::Generator<Instance>> generators();
  static std::vector<dpgpu::Loaded<Instance>> load(const dpgpu::FileSource& src);
};

}  // namespace edit
