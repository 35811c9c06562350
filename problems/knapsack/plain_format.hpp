// plain_format.hpp — the whitespace formats of one instance per file: Pisinger's
// "large_scale" files and kplib's `.kp` files (the same grammar; see README.md).
#pragma once
#include <filesystem>
#include <string_view>

#include "knapsack/knapsack.hpp"

namespace knapsack {

// Blank lines anywhere are skipped. Then: n and capacity (on one line, or one per line);
// n lines of exactly two numbers "value weight"; then optionally an optimal 0/1 solution
// vector of n entries (on any number of lines), whose value becomes the known optimum after
// it is checked to fit. Named by the file's stem. Errors: dpgpu::InputError "PATH:LINE: ...".
dpgpu::Loaded<Instance> parse_plain_instance(std::string_view text,
                                             const std::filesystem::path& path);

}  // namespace knapsack
