// mcm_driver.hpp — the host side of the Kokkos matrix-chain solvers, written once for any
// execution space: allocation, dimensions in, one dispatch per diagonal, the tree of splits
// walked where the table is, n − 1 splits back, the parenthesization built on the host
// (mcm::parenthesize_preorder).
// Included by mcm_host.cpp (OpenMP) and mcm_device.cpp (CUDA) only.
#pragma once
#include <Kokkos_Core.hpp>

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "dpgpu/context.hpp"
#include "dpgpu/error.hpp"
#include "kokkos_runtime.hpp"
#include "mcm/mcm.hpp"
#include "mcm_diagonal.hpp"
#include "mcm_kokkos.hpp"

namespace dpgpu::kokkos {

namespace mcm_detail {

inline constexpr McmIndex kDispatchesPerCheck = 512;  // as gpu.mcm: wait, then the deadline

// Diagonal l's dispatch: a team per entry (kernel Block, symmetric table) or a work item per
// entry.
template <class Exec, class T, McmLayout Layout>
void dispatch_diagonal(const Exec& exec,
                       const McmTable<typename Exec::memory_space, T, Layout>& tab, McmIndex l,
                       McmKernel kernel, int threads) {
  const McmIndex entries = tab.w - l;
  if (kernel == McmKernel::Block) {
    if constexpr (Layout == McmLayout::Symmetric) {
      McmTeamEntry<Exec, T> f{tab, l};
      Kokkos::parallel_for("mcm diagonal (team per entry)",
                           Kokkos::TeamPolicy<Exec>(exec, int(entries), threads), f);
    }
  } else {
    McmEntry<Exec, T, Layout> f{tab, l};
    if constexpr (on_device<Exec>) {
      Kokkos::parallel_for("mcm diagonal",
                           Kokkos::RangePolicy<Exec, Kokkos::IndexType<McmIndex>>(exec, 0, entries),
                           f);
    } else {
      // cpu.omp's schedule(dynamic, 16): entries of a diagonal cost the same, but threads don't.
      Kokkos::RangePolicy<Exec, Kokkos::Schedule<Kokkos::Dynamic>, Kokkos::IndexType<McmIndex>>
          policy(exec, 0, entries);
      Kokkos::parallel_for("mcm diagonal", policy.set_chunk_size(16), f);
    }
  }
}

// The tree of splits walked where the table is: its n − 1 splits in preorder into `splits`;
// returns the chain's cost M[0][n].
template <class Exec, class T, McmLayout Layout>
std::int64_t walk_splits(const Exec& exec,
                         const McmTable<typename Exec::memory_space, T, Layout>& tab, McmIndex n,
                         std::vector<std::int64_t>& splits) {
  using Mem = typename Exec::memory_space;
  const McmIndex w = tab.w;
  auto alloc = [&](const char* label) {
    return Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, std::string(label));
  };
  McmWalk<Exec> walk{
      tab.split, Kokkos::View<std::int32_t*, Mem>(alloc("mcm preorder"), std::size_t(n - 1)),
      Kokkos::View<McmIndex*, Mem>(alloc("mcm walk stack"), std::size_t(n + 2)), w, n};
  Kokkos::parallel_for("mcm walk", Kokkos::RangePolicy<Exec>(exec, 0, 1), walk);
  Kokkos::View<std::int32_t*, Kokkos::HostSpace> order_h(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "mcm preorder"), std::size_t(n - 1));
  Kokkos::deep_copy(exec, order_h, walk.out);
  const McmIndex last =
      Layout == McmLayout::DiagonalMajor ? mcm_diagonal_offset(w, n) : n;  // M[0][n]
  Kokkos::View<T, Kokkos::HostSpace> cost_h("mcm cost");
  Kokkos::deep_copy(exec, cost_h, Kokkos::subview(tab.cost, last));
  exec.fence("mcm walk");
  for (McmIndex i = 0; i < n - 1; ++i) splits[std::size_t(i)] = order_h(i);
  return std::int64_t(cost_h());
}

template <class Exec, class T, McmLayout Layout>
Outcome<::mcm::Solution> solve(const Exec& exec, const ::mcm::Instance& x, McmKernel kernel,
                               int threads, Context& ctx) {
  using Mem = typename Exec::memory_space;
  const McmIndex n = x.n(), w = n + 1;
  const std::size_t triangle = std::size_t(mcm_diagonal_offset(w, w));
  const std::size_t cells =
      Layout == McmLayout::DiagonalMajor ? triangle : std::size_t(w) * std::size_t(w);
  CountedBytes counted(ctx,
                       cells * sizeof(T) + triangle * 4 + std::size_t(w) * sizeof(T) +
                           std::size_t(n - 1) * 4 + std::size_t(n + 2) * 8,
                       on_device<Exec>);
  auto alloc = [&](const char* label) {
    return Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, std::string(label));
  };
  McmTable<Mem, T, Layout> tab;
  tab.w = w;
  Kokkos::View<T*, Mem> p;
  {
    auto phase = ctx.phase("alloc");
    tab.cost = Kokkos::View<T*, Mem>(alloc("mcm table"), cells);
    tab.split = Kokkos::View<std::int32_t*, Mem>(alloc("mcm splits"), triangle);
    p = Kokkos::View<T*, Mem>(alloc("mcm dimensions"), std::size_t(w));
    tab.p = p;
  }
  {
    auto phase = ctx.phase("h2d");
    auto p_h = Kokkos::create_mirror_view(Kokkos::WithoutInitializing, p);
    for (McmIndex t = 0; t < w; ++t) p_h(t) = T(x.p[std::size_t(t)]);
    Kokkos::deep_copy(exec, p, p_h);
    // Diagonals 0 and 1 are zero (M[a][a+1] = 0); the rest is written before it is read.
    Kokkos::deep_copy(exec, tab.cost, T(0));
    exec.fence("mcm h2d");  // p_h goes out of scope
  }
  {
    auto phase = ctx.phase("compute");
    for (McmIndex l = 2; l <= n; ++l) {
      dispatch_diagonal<Exec, T, Layout>(exec, tab, l, kernel, threads);
      if (l % kDispatchesPerCheck == 0) {
        exec.fence("mcm deadline");
        ctx.check_deadline();
      }
    }
    ctx.set("kernel_launches", double(n - 1));
    ctx.set("cell_bits", 8.0 * sizeof(T));
  }
  Outcome<::mcm::Solution> out;
  std::vector<std::int64_t> splits(std::size_t(n - 1));
  {
    auto phase =
        ctx.phase("walk");  // as gpu.mcm: walk on the device, n − 1 splits and the cost back
    out.objective = walk_splits<Exec, T, Layout>(exec, tab, n, splits);
  }
  auto phase = ctx.phase("d2h");  // host side: the string from the split list
  out.solution = ::mcm::Solution{::mcm::parenthesize_preorder(n, splits)};
  return out;
}

}  // namespace mcm_detail

template <Space S, class Exec>
Outcome<::mcm::Solution> mcm_solve_on(const Exec& exec, const ::mcm::Instance& x,
                                      const McmKokkosConfig<S>& c, Context& ctx) {
  const std::string solver = S == Space::Device ? kMcmDeviceSolver : kMcmHostSolver;
  if (auto why = ::mcm::int64_excess(x); !why.empty())
    throw dpgpu::InputError(solver + ": refused: " + why);
  static_assert(::mcm::kMaxN < (std::int64_t{1} << 31) - 2, "splits are int32");
  if (x.n() < 2) return {0, ::mcm::Solution{::mcm::parenthesize(x.n(), {})}, std::nullopt};
  const bool cells_32 = mcm_cells_32(x, c.cell, solver);
  // The GPU's work item per entry reads the diagonal-major table; every other pairing the
  // symmetric square.
  constexpr McmLayout item_layout =
      S == Space::Device ? McmLayout::DiagonalMajor : McmLayout::Symmetric;
  auto run = [&](auto cell) {
    using T = decltype(cell);
    if (c.kernel == McmKernel::Block)
      return mcm_detail::solve<Exec, T, McmLayout::Symmetric>(exec, x, c.kernel, c.threads, ctx);
    return mcm_detail::solve<Exec, T, item_layout>(exec, x, c.kernel, c.threads, ctx);
  };
  return cells_32 ? run(std::uint32_t{}) : run(std::int64_t{});
}

}  // namespace dpgpu::kokkos
