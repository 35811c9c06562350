// pisinger_csv.hpp — Pisinger's CSV files of many instances, each with its optimum and an
// optimal solution.
#pragma once
#include <filesystem>
#include <string_view>
#include <vector>

#include "knapsack/knapsack.hpp"

namespace knapsack {

// Per instance (blank lines between instances are skipped):
//   NAME
//   n N
//   c C
//   z Z          the optimum
//   time T       optional, ignored
//   N lines "i,p,w,x"  (i = 1..N in order, p value, w weight, x 0/1 in an optimal solution)
//   -----
// Each instance is named NAME as written and has known optimum Z, after checking that the
// x column fits the capacity and is worth Z. Errors: dpgpu::InputError "PATH:LINE: ...".
std::vector<dpgpu::Loaded<Instance>> parse_pisinger_csv(std::string_view text,
                                                        const std::filesystem::path& path);

// A CSV file by extension (.csv, any case) or by content: a first non-blank line that is not
// a number, followed by a line "n N".
bool looks_like_pisinger_csv(const std::filesystem::path& path, std::string_view text);

}  // namespace knapsack
