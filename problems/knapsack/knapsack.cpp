// The certificate check, the sizes, and the problem's registration.
#include "knapsack/knapsack.hpp"

#include <fmt/format.h>

#include "dpgpu/registry.hpp"
#include "knapsack/well_formed.hpp"

namespace knapsack {

dpgpu::Verdict Problem::check(const Instance& x, const Solution& s) {
  if (auto why = why_malformed(x); !why.empty())
    return dpgpu::Verdict::invalid("the instance is malformed: " + why);
  const auto n = static_cast<std::int64_t>(x.size());
  std::vector<std::int64_t> chosen_at(x.size(), -1);  // certificate position of each chosen item
  std::int64_t value = 0, weight = 0;  // cannot overflow: distinct items of a well-formed instance
  for (std::size_t k = 0; k < s.items.size(); ++k) {
    const std::int64_t item = s.items[k];
    if (item < 0 || item >= n)
      return dpgpu::Verdict::invalid(fmt::format(
          "certificate entry {} names item {}, outside 0..{} (the instance has {} items)", k, item,
          n - 1, n));
    if (chosen_at[item] >= 0)
      return dpgpu::Verdict::invalid(fmt::format(
          "item {} is chosen twice (certificate entries {} and {})", item, chosen_at[item], k));
    chosen_at[item] = static_cast<std::int64_t>(k);
    value += x.value[item];
    weight += x.weight[item];
  }
  if (weight > x.capacity)
    return dpgpu::Verdict::invalid(
        fmt::format("the {} chosen items weigh {}, more than the capacity {}", s.items.size(),
                    weight, x.capacity));
  return dpgpu::Verdict::valid(value);
}

dpgpu::ValueMap Problem::dims(const Instance& x) {
  return {{"n", static_cast<std::int64_t>(x.size())}, {"capacity", x.capacity}};
}

}  // namespace knapsack

DPGPU_REGISTER_PROBLEM(knapsack::Problem);
