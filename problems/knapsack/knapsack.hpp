// knapsack.hpp — the 0-1 knapsack problem: choose items of largest total value whose total
// weight fits the capacity.
#pragma once
#include <cstdint>
#include <vector>

#include "dpgpu/problem.hpp"

namespace knapsack {

// Item j has value[j] and weight[j]. A well-formed instance (well_formed.hpp) has
// value.size() == weight.size() < 2^31, no negative number, and sums that fit int64.
struct Instance {
  std::int64_t capacity = 0;
  std::vector<std::int64_t> value, weight;
  std::size_t size() const { return value.size(); }
};

struct Solution {
  std::vector<std::int32_t> items;  // chosen indices, 0-based, any order
};

struct Problem {
  static constexpr const char* name = "knapsack";
  static constexpr const char* file_kinds = "text";  // plain and Pisinger formats (file_kind.hpp)
  static constexpr const char* help = "0-1 knapsack: most valuable set of items within a capacity";
  using Instance = knapsack::Instance;
  using Solution = knapsack::Solution;

  // Valid when the indices are in range and distinct and their weight fits the capacity;
  // the objective is their total value.
  static dpgpu::Verdict check(const Instance& x, const Solution& s);
  // n·(C+1) cell updates: the DP table's size.
  static double work(const Instance& x) { return double(x.size()) * (double(x.capacity) + 1); }
  static dpgpu::ValueMap dims(const Instance& x);  // n = items, capacity = C
  static std::vector<dpgpu::Generator<Instance>> generators();
  static std::vector<dpgpu::Loaded<Instance>> load(const dpgpu::FileSource& src);
};

}  // namespace knapsack
