// batch.hpp — problem `edit_batch`: the edit distances of many pairs, as one instance.
//
// Two shapes: `pairs` (pair k is a_k with b_k) and `cross` (every a_i with every b_j, i-major:
// pair k is a_{k / |B|} with b_{k % |B|}, StringZilla's native form). Strings are stored
// back to back with offsets, so 10^6 pairs of 1,000 bytes take 2 GB, not 10^6 allocations.
// The objective is the sum of all distances; the certificate is every pair's distance;
// the checksum (batch_checksum) fingerprints that list, so two solvers agree only when
// they agree on every pair, and check() recomputes a sample of pairs with the reference.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "dpgpu/problem.hpp"

namespace edit {

struct Strings {
  std::string text;                     // all strings back to back
  std::vector<std::int64_t> offset{0};  // string i is text[offset[i], offset[i+1])
  std::size_t size() const { return offset.size() - 1; }
  std::string_view operator[](std::size_t i) const {
    return std::string_view(text).substr(std::size_t(offset[i]),
                                         std::size_t(offset[i + 1] - offset[i]));
  }
  void push_back(std::string_view s) {
    text.append(s);
    offset.push_back(std::int64_t(text.size()));
  }
};

struct BatchInstance {
  Strings a, b;
  bool cross = false;
  std::size_t pairs() const { return cross ? a.size() * b.size() : a.size(); }
  std::size_t a_of(std::size_t k) const { return cross ? k / b.size() : k; }
  std::size_t b_of(std::size_t k) const { return cross ? k % b.size() : k; }
};

struct BatchSolution {
  std::vector<std::int32_t> distances;  // one per pair, in pair order
};

// FNV-1a over the distances as 4 little-endian bytes each.
std::uint64_t batch_checksum(const std::vector<std::int32_t>& distances);

// The pairs a batch check recomputes: at most 64, evenly spread, first and last included,
// while their cells stay within 2·10^8 (the first always).
std::vector<std::size_t> sample_pairs(const BatchInstance& x);

struct BatchProblem {
  static constexpr const char* name = "edit_batch";
  static constexpr const char* help =
      "edit distances of many pairs (N pairs, or every pair of two sets): sum, every pair checked";
  static constexpr const char* file_kinds = "fasta,text";
  static std::uint64_t instance_bytes(const std::string& generator, const dpgpu::Params& p);
  using Instance = BatchInstance;
  using Solution = BatchSolution;

  // Valid when there is one distance per pair, none negative, the sampled pairs (up to 64,
  // spread over the batch, within a budget of cells) equal the reference, and the objective
  // is their sum.
  static dpgpu::Verdict check(const Instance& x, const Solution& s);
  static double work(const Instance& x);           // the sum of |a_k|·|b_k| over the pairs
  static dpgpu::ValueMap dims(const Instance& x);  // pairs, n and m (longest of each side)
  static std::vector<dpgpu::Generator<Instance>> generators();
  static std::vector<dpgpu::Loaded<Instance>> load(const dpgpu::FileSource& src);
};

}  // namespace edit
