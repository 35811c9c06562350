// Depth-first branch and bound (in the manner of Horowitz and Sahni): items sorted by
// value/weight, "take" explored before "skip", and a node pruned when its value plus the
// Dantzig bound of the items left (fill greedily, then a fraction of the first item that does
// not fit) cannot beat the best packing found. Prefix sums of weights and values give that
// bound in O(log n) per node.
#include <algorithm>
#include <numeric>

#include "knapsack_cpu.hpp"

namespace knapsack::cpu {

namespace {

// The items worth branching on, best value/weight first.
struct SortedItems {
  std::vector<std::int32_t> index;                  // original indices
  std::vector<std::int64_t> value, weight;          // weight > 0, value > 0
  std::vector<std::int64_t> weight_sum, value_sum;  // prefix sums: [k] = items before k

  std::size_t size() const { return index.size(); }

  // The linear-relaxation optimum of items k.. within `room`, rounded down (values are
  // integers, so no packing of them is worth more).
  std::int64_t dantzig_bound(std::size_t k, std::int64_t room) const {
    const std::int64_t all = weight_sum.back() - weight_sum[k];
    if (room >= all) return value_sum.back() - value_sum[k];
    // The critical item r: items k..r-1 fit whole, item r does not. (No overflow:
    // weight_sum[k] + room < weight_sum.back().)
    const auto past = std::upper_bound(weight_sum.begin() + std::ptrdiff_t(k), weight_sum.end(),
                                       weight_sum[k] + room);
    const auto r = static_cast<std::size_t>(past - weight_sum.begin()) - 1;
    const std::int64_t left = room - (weight_sum[r] - weight_sum[k]);
    using i128 = __int128;
    return value_sum[r] - value_sum[k] +
           static_cast<std::int64_t>(i128(left) * value[r] / weight[r]);
  }
};

SortedItems sort_items(const Instance& x, const std::vector<std::int32_t>& chosen) {
  SortedItems s;
  s.index = chosen;
  // a before b when v_a / w_a > v_b / w_b, compared exactly; ties keep index order.
  std::stable_sort(s.index.begin(), s.index.end(), [&](std::int32_t a, std::int32_t b) {
    using i128 = __int128;
    return i128(x.value[a]) * x.weight[b] > i128(x.value[b]) * x.weight[a];
  });
  s.weight_sum.assign(1, 0);
  s.value_sum.assign(1, 0);
  for (auto j : s.index) {
    s.value.push_back(x.value[j]);
    s.weight.push_back(x.weight[j]);
    s.weight_sum.push_back(s.weight_sum.back() + x.weight[j]);  // fit int64: well-formed instance
    s.value_sum.push_back(s.value_sum.back() + x.value[j]);
  }
  return s;
}

}  // namespace

Packing branch_bound(const Instance& x, const Poll& poll, SearchStats* stats) {
  // Items of no value never help and items heavier than the knapsack never fit; weightless
  // items of value are free: they are in the packing from the start.
  Packing free_items;
  std::vector<std::int32_t> branch_on;
  for (std::size_t j = 0; j < x.size(); ++j) {
    if (x.value[j] == 0 || x.weight[j] > x.capacity) continue;
    if (x.weight[j] == 0) {
      free_items.items.push_back(static_cast<std::int32_t>(j));
      free_items.value += x.value[j];
    } else {
      branch_on.push_back(static_cast<std::int32_t>(j));
    }
  }
  const SortedItems s = sort_items(x, branch_on);
  const std::size_t m = s.size();

  // The current path: items 0..depth-1 decided, taken[k] = 1 when item k is in the packing.
  std::vector<std::uint8_t> taken(m, 0);
  std::size_t depth = 0;
  std::int64_t room = x.capacity, value = 0;
  std::int64_t best = 0;
  std::vector<std::int32_t> best_items;  // sorted positions
  std::uint64_t nodes = 0;
  while (true) {
    if ((nodes++ & 0x3fff) == 0 && poll)
      poll();  // at the root too: a passed deadline stops at once
    if (value > best) {
      best = value;
      best_items.clear();
      for (std::size_t k = 0; k < depth; ++k)
        if (taken[k]) best_items.push_back(static_cast<std::int32_t>(k));
    }
    if (depth < m && value + s.dantzig_bound(depth, room) > best) {
      // Branch: take item `depth` when it fits (explored first), else skip it.
      taken[depth] = s.weight[depth] <= room;
      if (taken[depth]) {
        room -= s.weight[depth];
        value += s.value[depth];
      }
      ++depth;
      continue;
    }
    // Backtrack to the deepest taken item and explore skipping it; skipped items have no
    // branch left.
    while (depth > 0 && !taken[depth - 1]) --depth;
    if (depth == 0) break;
    taken[depth - 1] = 0;
    room += s.weight[depth - 1];
    value -= s.value[depth - 1];
  }
  if (stats) stats->nodes = nodes;

  Packing out = std::move(free_items);
  out.value += best;
  for (auto k : best_items) out.items.push_back(s.index[std::size_t(k)]);
  std::sort(out.items.begin(), out.items.end());
  return out;
}

}  // namespace knapsack::cpu
