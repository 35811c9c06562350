// knapsack_trace.hpp — the 0-1 knapsack's host-side reconstruction shared by the GPU
// strategies (gpu.rowwise, gpu.wavefront): which items take part (weight <= C), and the
// walk back from the last item at full capacity over decision bits, whatever their layout.
#pragma once
#include <cstdint>
#include <vector>

#include "knapsack/knapsack.hpp"

namespace dpgpu::gpu {

// Indices of the items that fit at all (weight <= C): the rows of the DP table.
inline std::vector<std::int32_t> knapsack_active_items(const knapsack::Instance& x) {
  std::vector<std::int32_t> a;
  for (std::size_t j = 0; j < x.size(); ++j)
    if (x.weight[j] <= x.capacity) a.push_back(static_cast<std::int32_t>(j));
  return a;
}

// Walks back from row active.size() − 1 at capacity C: when taken(row, c) (the row's item
// improved capacity c), the item is packed and the rows above fit c − w. Items in index order.
template <class Taken>
std::vector<std::int32_t> knapsack_trace_items(const std::vector<std::int32_t>& active,
                                               const knapsack::Instance& x, Taken taken) {
  std::vector<std::int32_t> items;
  std::int64_t c = x.capacity;
  for (std::int64_t i = std::int64_t(active.size()) - 1; i >= 0; --i) {
    if (taken(i, c)) {
      items.push_back(active[std::size_t(i)]);
      c -= x.weight[std::size_t(active[std::size_t(i)])];
    }
  }
  return {items.rbegin(), items.rend()};
}

// The packing from per-row 0/1 flags (a trace already walked on the device).
inline std::vector<std::int32_t> knapsack_items_from_flags(const std::vector<std::int32_t>& active,
                                                           const std::uint8_t* taken) {
  std::vector<std::int32_t> items;
  for (std::size_t i = 0; i < active.size(); ++i)
    if (taken[i]) items.push_back(active[i]);
  return items;
}

}  // namespace dpgpu::gpu
