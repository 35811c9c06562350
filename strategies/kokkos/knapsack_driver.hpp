// knapsack_driver.hpp — the host side of the Kokkos knapsack solver, written once for any
// execution space. Included by knapsack_host.cpp and knapsack_device.cpp only.
#pragma once
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "dpgpu/context.hpp"
#include "dpgpu/error.hpp"
#include "knapsack_kokkos.hpp"
#include "knapsack_row.hpp"
#include "kokkos_runtime.hpp"

namespace dpgpu::kokkos {

namespace knapsack_detail {

inline constexpr int kDeadlineEvery = 256;

// Items that can ever be taken (weight <= C), in input order; the others' rows are copies.
inline std::vector<std::int32_t> fitting_items(const knapsack::Instance& x) {
  std::vector<std::int32_t> a;
  for (std::size_t j = 0; j < x.size(); ++j)
    if (x.weight[j] <= x.capacity) a.push_back(static_cast<std::int32_t>(j));
  return a;
}

// 32-bit cells when the total value of the fitting items fits.
inline bool fits_32_bits(const knapsack::Instance& x) {
  std::int64_t total = 0;
  for (std::size_t j = 0; j < x.size(); ++j)
    if (x.weight[j] <= x.capacity) total += x.value[j];
  return total <= std::numeric_limits<std::int32_t>::max();
}

// One solve's state: the fitting items, the row width in words and the device views, with one
// member per phase (alloc, h2d, compute, d2h) in the order solve() calls them.
template <class Exec, class Cell, class Word, bool Interleaved>
struct KnapsackSolve {
  using Mem = typename Exec::memory_space;
  static constexpr int K = 8 * sizeof(Word);
  const Exec& exec;
  const knapsack::Instance& x;
  Context& ctx;
  std::vector<std::int32_t> items = fitting_items(x);
  int rows = static_cast<int>(items.size());
  std::int64_t C = x.capacity;
  std::int64_t W = (C + 1 + K - 1) / K;
  Kokkos::View<Cell*, Mem> row[2];
  Kokkos::View<Word*, Mem> bits;
  Kokkos::View<std::int64_t*, Mem> weight;
  Kokkos::View<std::uint8_t*, Mem> taken;

  KnapsackSolve(const Exec& exec_, const knapsack::Instance& x_, Context& ctx_)
      : exec(exec_), x(x_), ctx(ctx_) {}

  void allocate() {
    auto phase = ctx.phase("alloc");
    for (auto& r : row)
      r = Kokkos::View<Cell*, Mem>(
          Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, std::string("knapsack row")),
          C + 1);
    bits = Kokkos::View<Word*, Mem>(
        Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, std::string("knapsack bits")),
        std::size_t(rows) * W);
    weight = Kokkos::View<std::int64_t*, Mem>(
        Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, std::string("knapsack weights")),
        rows);
    taken = Kokkos::View<std::uint8_t*, Mem>(
        Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, std::string("knapsack taken")), rows);
  }

  void upload() {
    auto phase = ctx.phase("h2d");
    auto weight_h = Kokkos::create_mirror_view(Kokkos::WithoutInitializing, weight);
    for (int a = 0; a < rows; ++a) weight_h(a) = x.weight[std::size_t(items[std::size_t(a)])];
    Kokkos::deep_copy(exec, weight, weight_h);
    Kokkos::deep_copy(exec, row[0], Cell{0});
    exec.fence("knapsack h2d");
  }

  // One launch per fitting item, then the traceback launch, and the compute counters; returns
  // the buffer holding the last row.
  int run_rows() {
    int cur = 0;
    auto phase = ctx.phase("compute");
    KnapsackRow<Exec, Cell, Word, Interleaved> f;
    f.bits = bits;
    f.at.words = W;
    f.capacity = C;
    for (int a = 0; a < rows; ++a) {
      const std::size_t j = std::size_t(items[std::size_t(a)]);
      f.prev = row[cur];
      f.next = row[1 - cur];
      f.row_offset = std::int64_t(a) * W;
      f.w = x.weight[j];
      f.v = static_cast<Cell>(x.value[j]);
      Kokkos::parallel_for("knapsack row",
                           Kokkos::RangePolicy<Exec, Kokkos::IndexType<std::int64_t>>(exec, 0, W),
                           f);
      cur = 1 - cur;
      if (a % kDeadlineEvery == kDeadlineEvery - 1) ctx.check_deadline();
    }
    KnapsackTrace<Exec, Word, Interleaved> t;
    t.bits = bits;
    t.weight = weight;
    t.taken = taken;
    t.at.words = W;
    t.capacity = C;
    t.rows = rows;
    Kokkos::parallel_for("knapsack trace", Kokkos::RangePolicy<Exec>(exec, 0, 1), t);
    ctx.set("kernel_launches", double(rows + 1));
    ctx.set("rows", double(rows));
    ctx.set("decision_bits_bytes", double(std::size_t(rows) * W * sizeof(Word)));
    ctx.set("word_bits", K);
    return cur;
  }

  // The best value (last row, capacity C) and the items the traceback took.
  Outcome<knapsack::Solution> copy_back(int cur) {
    Outcome<knapsack::Solution> out;
    {
      auto phase = ctx.phase("d2h");
      Kokkos::View<Cell, Kokkos::HostSpace> best("knapsack best");
      auto taken_h = Kokkos::create_mirror_view(Kokkos::WithoutInitializing, taken);
      Kokkos::deep_copy(exec, best, Kokkos::subview(row[cur], C));
      Kokkos::deep_copy(exec, taken_h, taken);
      exec.fence("knapsack d2h");
      out.objective = static_cast<std::int64_t>(best());
      knapsack::Solution s;
      for (int a = 0; a < rows; ++a)
        if (taken_h(a)) s.items.push_back(items[std::size_t(a)]);
      out.solution = std::move(s);
    }
    return out;
  }
};

template <class Exec, class Cell, class Word, bool Interleaved>
Outcome<knapsack::Solution> solve(const Exec& exec, const knapsack::Instance& x, Context& ctx) {
  constexpr int K = 8 * sizeof(Word);
  CountedBytes counted(ctx, knapsack_memory(x, on_device<Exec>, K).device, on_device<Exec>);
  KnapsackSolve<Exec, Cell, Word, Interleaved> s(exec, x, ctx);
  s.allocate();
  s.upload();
  const int cur = s.run_rows();
  return s.copy_back(cur);
}

}  // namespace knapsack_detail

template <class Exec, class Word, bool Interleaved>
Outcome<knapsack::Solution> knapsack_solve(const Exec& exec, const knapsack::Instance& x,
                                           Context& ctx) {
  if (x.capacity >= std::numeric_limits<std::int64_t>::max() / 2)
    throw dpgpu::InputError("kokkos.wavefront: capacity " + std::to_string(x.capacity) +
                            " too large");
  return knapsack_detail::fits_32_bits(x)
             ? knapsack_detail::solve<Exec, std::int32_t, Word, Interleaved>(exec, x, ctx)
             : knapsack_detail::solve<Exec, std::int64_t, Word, Interleaved>(exec, x, ctx);
}

}  // namespace dpgpu::kokkos
