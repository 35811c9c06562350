// lcs_batch.hpp — problem `lcs_batch`: the LCS lengths of many pairs, as one instance (issue
// 38's batch form for LCS). The instance, its generators and its files are edit_batch's
// (batch.hpp); the objective is the sum of the lengths, the certificate every pair's length
// (with its checksum), and the check recomputes a sample with the LCS reference.
#pragma once
#include "edit/batch.hpp"

namespace edit {

struct LcsBatchProblem {
  static constexpr const char* name = "lcs_batch";
  static constexpr const char* help =
      "LCS lengths of many pairs (N pairs, or every pair of two sets): sum, every pair checked";
  static constexpr const char* file_kinds = "fasta,text";
  static std::uint64_t instance_bytes(const std::string& g, const dpgpu::Params& p) {
    return BatchProblem::instance_bytes(g, p);
  }
  using Instance = BatchInstance;
  using Solution = BatchSolution;  // distances holds the LCS lengths

  static dpgpu::Verdict check(const Instance& x, const Solution& s);
  static double work(const Instance& x) { return BatchProblem::work(x); }
  static dpgpu::ValueMap dims(const Instance& x) { return BatchProblem::dims(x); }
  static std::vector<dpgpu::Generator<Instance>> generators() { return BatchProblem::generators(); }
  static std::vector<dpgpu::Loaded<Instance>> load(const dpgpu::FileSource& src) {
    return BatchProblem::load(src);
  }
};

}  // namespace edit
