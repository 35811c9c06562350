// tsp_driver.hpp — the host side of the Kokkos TSP solver, written once for any execution
// space. Included by tsp_host.cpp and tsp_device.cpp only.
#pragma once
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "dpgpu/context.hpp"
#include "dpgpu/error.hpp"
#include "kokkos_runtime.hpp"
#include "tsp/subset_rank.hpp"
#include "tsp_kokkos.hpp"
#include "tsp_layer.hpp"

namespace dpgpu::kokkos {

namespace tsp_detail {

inline constexpr std::uint64_t kTeamWaves = 4;  // teams per resident team slot, at most

// One solve's state: the instance, the argmin offsets of each layer and the device views, with
// one member per phase (alloc, h2d, compute, d2h) in the order solve() calls them.
template <class Exec, class Cost, bool PositionMajor>
struct HeldKarpSolve {
  using Mem = typename Exec::memory_space;
  const Exec& exec;
  const tsp::Instance& x;
  Context& ctx;
  int m;                                // free cities (all but city 0)
  std::uint64_t largest = 0;            // positions of the largest layer
  std::uint64_t argmins = 0;            // argmins of all layers
  std::vector<std::uint64_t> offset_h;  // layer k's argmins at offset_h[k]
  Kokkos::View<Cost*, Mem> layer[2], into;
  Kokkos::View<std::uint8_t*, Mem> argmin;
  Kokkos::View<std::uint32_t*, Mem> binom;
  Kokkos::View<std::uint64_t*, Mem> offset;
  Kokkos::View<std::int32_t*, Mem> tour;

  HeldKarpSolve(const Exec& exec_, const tsp::Instance& x_, Context& ctx_)
      : exec(exec_), x(x_), ctx(ctx_), m(x_.n - 1) {}

  void size_layers() {
    using tsp::subsets::kBinomials;
    offset_h.assign(std::size_t(m) + 2, 0);
    for (int k = 1; k <= m; ++k) {
      largest = std::max(largest, kBinomials(m, k) * std::uint64_t(k));
      offset_h[std::size_t(k) + 1] =
          offset_h[std::size_t(k)] + (k >= 2 ? kBinomials(m, k) * std::uint64_t(k) : 0);
    }
    argmins = offset_h[std::size_t(m) + 1];
  }

  void allocate() {
    auto phase = ctx.phase("alloc");
    auto alloc = [&](const char* label) {
      return Kokkos::view_alloc(exec, Kokkos::WithoutInitializing, std::string(label));
    };
    for (auto& l : layer) l = Kokkos::View<Cost*, Mem>(alloc("tsp layer"), largest);
    into = Kokkos::View<Cost*, Mem>(alloc("tsp into"), std::size_t(m) * m);
    argmin = Kokkos::View<std::uint8_t*, Mem>(alloc("tsp argmin"), argmins);
    binom = Kokkos::View<std::uint32_t*, Mem>(alloc("tsp binomials"), kBinomRows * kBinomRows);
    offset = Kokkos::View<std::uint64_t*, Mem>(alloc("tsp offsets"), offset_h.size());
    tour = Kokkos::View<std::int32_t*, Mem>(alloc("tsp tour"), x.n);
  }

  // The arcs into each city, the binomials, the layer offsets and layer 1 to the device.
  void upload() {
    using tsp::subsets::kBinomials;
    auto phase = ctx.phase("h2d");
    auto into_h = Kokkos::create_mirror_view(Kokkos::WithoutInitializing, into);
    for (int j = 0; j < m; ++j)
      for (int c = 0; c < m; ++c)
        into_h(std::size_t(j) * m + c) = static_cast<Cost>(x.arc(c + 1, j + 1));
    auto binom_h = Kokkos::create_mirror_view(Kokkos::WithoutInitializing, binom);
    for (int c = 0; c < kBinomRows; ++c)
      for (int i = 0; i < kBinomRows; ++i)
        binom_h(c * kBinomRows + i) = std::uint32_t(kBinomials(c, i));
    auto offset_m = Kokkos::create_mirror_view(Kokkos::WithoutInitializing, offset);
    for (std::size_t k = 0; k < offset_h.size(); ++k) offset_m(k) = offset_h[k];
    // Layer 1: rank({j}) = j, one position.
    Kokkos::View<Cost*, Kokkos::HostSpace> first_h(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "tsp first layer"), m);
    for (int j = 0; j < m; ++j) first_h(j) = static_cast<Cost>(x.arc(0, j + 1));
    Kokkos::deep_copy(exec, into, into_h);
    Kokkos::deep_copy(exec, binom, binom_h);
    Kokkos::deep_copy(exec, offset, offset_m);
    Kokkos::deep_copy(exec, Kokkos::subview(layer[0], std::make_pair(0, m)), first_h);
    exec.fence("tsp h2d");
  }

  // Layers 2..m, one launch each, and the compute counters; returns the buffer holding layer m.
  int run_layers(std::uint32_t ranks_per_item, int team_size) {
    using tsp::subsets::kBinomials;
    int cur = 0;
    auto phase = ctx.phase("compute");
    using Layer = HeldKarpLayer<Exec, Cost, PositionMajor>;
    Layer f;
    f.binom = binom;
    f.into = into;
    f.argmin = argmin;
    f.m = m;
    f.infinity = std::numeric_limits<Cost>::max();
    f.ranks_per_item = ranks_per_item;
    const std::uint64_t team_cap =
        std::max<std::uint64_t>(1, std::uint64_t(exec.concurrency()) / std::uint64_t(team_size)) *
        kTeamWaves;
    for (int k = 2; k <= m; ++k) {
      f.prev = layer[cur];
      f.cur = layer[1 - cur];
      f.k = k;
      f.count = std::uint32_t(kBinomials(m, k));
      f.prev_count = std::uint32_t(kBinomials(m, k - 1));
      f.offset = offset_h[std::size_t(k)];
      f.items = std::uint32_t((std::uint64_t(f.count) + ranks_per_item - 1) / ranks_per_item);
      // Teams grid-stride over the items: at most `waves` teams per resident team slot, so
      // each team's staging is paid for by many items (as gpu.wavefront's grid cap).
      const int teams =
          int(std::min<std::uint64_t>((f.items + team_size - 1) / team_size, team_cap));
      Kokkos::TeamPolicy<Exec> policy(exec, teams, team_size);
      Kokkos::parallel_for("tsp layer",
                           policy.set_scratch_size(0, Kokkos::PerTeam(Layer::scratch_bytes(m))), f);
      cur = 1 - cur;
      ctx.check_deadline();
    }
    ctx.set("kernel_launches", double(std::max(m - 1, 0) + 1));
    ctx.set("layers", double(m));
    ctx.set("argmin_bytes", double(argmins));
    ctx.set("ranks_per_item", double(ranks_per_item));
    ctx.set("team_size", double(team_size));
    ctx.set("teams_cap", double(team_cap));
    return cur;
  }

  // Layer m is the single full set: position p is city p. Close the tour on the host, walk the
  // argmins back on the device, copy the tour back.
  Outcome<tsp::Solution> close_tour(int cur) {
    Outcome<tsp::Solution> out;
    {
      auto phase = ctx.phase("d2h");
      // The m costs of the last layer only (a mirror of the whole layer buffer would allocate
      // the largest layer on the host: 0.1 ms at n = 25).
      Kokkos::View<Cost*, Kokkos::HostSpace> last_h(
          Kokkos::view_alloc(Kokkos::WithoutInitializing, "tsp last layer"), m);
      Kokkos::deep_copy(exec, last_h, Kokkos::subview(layer[cur], std::make_pair(0, m)));
      exec.fence("tsp last layer");
      std::int64_t best = std::numeric_limits<std::int64_t>::max();
      int last = 0;
      for (int p = 0; p < m; ++p) {
        const std::int64_t c = std::int64_t(last_h(p)) + x.arc(p + 1, 0);
        if (c < best) best = c, last = p;
      }
      HeldKarpWalk<Exec, PositionMajor> walk;
      walk.binom = binom;
      walk.argmin = argmin;
      walk.offset = offset;
      walk.tour = tour;
      walk.m = m;
      walk.last = last;
      Kokkos::parallel_for("tsp walk", Kokkos::RangePolicy<Exec>(exec, 0, 1), walk);
      auto tour_h = Kokkos::create_mirror_view(Kokkos::WithoutInitializing, tour);
      Kokkos::deep_copy(exec, tour_h, tour);
      exec.fence("tsp d2h");
      out.objective = best;
      out.solution = tsp::Solution{std::vector<std::int32_t>(tour_h.data(), tour_h.data() + x.n)};
    }
    return out;
  }
};

template <class Exec, class Cost, bool PositionMajor>
Outcome<tsp::Solution> solve(const Exec& exec, const tsp::Instance& x, std::uint32_t ranks_per_item,
                             int team_size, Context& ctx) {
  CountedBytes counted(ctx, tsp_memory(x, on_device<Exec>).device, on_device<Exec>);
  HeldKarpSolve<Exec, Cost, PositionMajor> s(exec, x, ctx);
  s.size_layers();
  s.allocate();
  s.upload();
  const int cur = s.run_layers(ranks_per_item, team_size);
  return s.close_tour(cur);
}

}  // namespace tsp_detail

template <class Exec, bool PositionMajor, Space S>
Outcome<tsp::Solution> tsp_solve_on(const Exec& exec, const tsp::Instance& x,
                                    const TspKokkosConfig<S>& c, Context& ctx) {
  const std::string solver = solver_name(S);
  if (x.n > kTspMaxCities)
    throw dpgpu::InputError(solver + ": n = " + std::to_string(x.n) + " is above " +
                            std::to_string(kTspMaxCities) + " cities (32-bit subset masks)");
  if (x.n == 1) return {0, tsp::Solution{{0}}, std::nullopt};
  return tsp::cost_upper_bound(x) <= std::numeric_limits<std::int32_t>::max()
             ? tsp_detail::solve<Exec, std::int32_t, PositionMajor>(
                   exec, x, std::uint32_t(c.ranks_per_item), c.team_size, ctx)
             : tsp_detail::solve<Exec, std::int64_t, PositionMajor>(
                   exec, x, std::uint32_t(c.ranks_per_item), c.team_size, ctx);
}

}  // namespace dpgpu::kokkos
