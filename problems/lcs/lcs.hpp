// lcs.hpp — longest common subsequence of two byte strings.
#pragma once
#include <string>
#include <vector>

#include "dpgpu/problem.hpp"

namespace lcs {

struct Instance {
  std::string a, b;  // byte strings; any byte value may occur
};

struct Solution {
  std::string subsequence;  // one longest common subsequence
};

struct Problem {
  static constexpr const char* name = "lcs";
  static constexpr const char* help = "longest common subsequence of two byte strings";
  static constexpr const char* file_kinds = "fasta,text";  // FASTA or one string a line
  // Both generators hold a and b (n and m bytes, m = -1: n), plus building room for one.
  static std::uint64_t instance_bytes(const std::string&, const dpgpu::Params& p) {
    const double n = double(p.integer("n")), m = p.integer("m") < 0 ? n : double(p.integer("m"));
    return 2 * (n + m) < 1.8e19 ? std::uint64_t(2 * (n + m)) : UINT64_MAX;  // saturates
  }
  using Instance = lcs::Instance;
  using Solution = lcs::Solution;

  // Valid when `s` is a subsequence of both strings; the objective is its length.
  static dpgpu::Verdict check(const Instance& x, const Solution& s);
  static double work(const Instance& x) { return double(x.a.size()) * double(x.b.size()); }
  static dpgpu::ValueMap dims(const Instance& x);  // n = |a|, m = |b|
  static std::vector<dpgpu::Generator<Instance>> generators();
  static std::vector<dpgpu::Loaded<Instance>> load(const dpgpu::FileSource& src);
};

}  // namespace lcs
