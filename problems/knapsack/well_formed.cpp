#include "knapsack/well_formed.hpp"

#include <fmt/format.h>

#include <limits>

namespace knapsack {

std::optional<std::int64_t> checked_sum(const std::vector<std::int64_t>& values) {
  std::int64_t total = 0;
  for (auto v : values)
    if (__builtin_add_overflow(total, v, &total)) return std::nullopt;
  return total;
}

std::string why_malformed(const Instance& x) {
  if (x.value.size() != x.weight.size())
    return fmt::format("{} values but {} weights", x.value.size(), x.weight.size());
  if (x.size() > std::size_t(std::numeric_limits<std::int32_t>::max()))
    return fmt::format("{} items; at most 2^31 - 1 are allowed", x.size());
  if (x.capacity < 0) return fmt::format("negative capacity {}", x.capacity);
  for (std::size_t j = 0; j < x.size(); ++j) {
    if (x.value[j] < 0) return fmt::format("item {} has negative value {}", j, x.value[j]);
    if (x.weight[j] < 0) return fmt::format("item {} has negative weight {}", j, x.weight[j]);
  }
  if (!checked_sum(x.value)) return "the total value does not fit a 64-bit integer";
  if (!checked_sum(x.weight)) return "the total weight does not fit a 64-bit integer";
  return {};
}

}  // namespace knapsack
