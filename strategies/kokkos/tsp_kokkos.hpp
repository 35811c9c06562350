// tsp_kokkos.hpp — plain C++ entry points and memory estimate of the Kokkos TSP solver:
// Held-Karp by subset-size layers (each layer a "diagonal", one dispatch per layer), as
// gpu.wavefront; the argmins of every layer kept in memory and the tour walked back there.
//
// Layer k holds, for each k-subset S of the m = n − 1 cities besides city 0 (ranked in the
// combinatorial number system, tsp/subset_rank.hpp) and each position p of a last city in S,
// the cheapest path 0 → S ending there. The cell layout is the space's policy: position-major
// on the GPU (p·C(m,k) + r: consecutive work items touch consecutive cells, as
// gpu.wavefront), subset-major on the host (r·k + p: a work item's cells in one line, as
// cpu.omp_held_karp).
#pragma once
#include <cstdint>

#include "dpgpu/context.hpp"
#include "dpgpu/solver.hpp"
#include "solvers.hpp"
#include "tsp/tsp.hpp"

namespace dpgpu::kokkos {

// Masks and ranks of m = n − 1 <= 32 cities are 32-bit (as gpu.wavefront).
inline constexpr int kTspMaxCities = 33;

MemoryNeed tsp_memory(const tsp::Instance& x, bool device);

// The solvers' parameters (bound in tsp_params.cpp). ranks_per_item: consecutive subsets
// per work item: one on the GPU (a work item per subset, as gpu.wavefront), 2048 on the host
// (cpu.omp_held_karp's block). team_size: threads per team; 256 on the GPU (gpu.wavefront's
// block), one on the host.
template <Space S>
struct TspKokkosConfig {
  std::int64_t ranks_per_item = S == Space::Device ? 1 : 2048;
  int team_size = S == Space::Device ? 256 : 1;
};
Outcome<tsp::Solution> tsp_solve(const tsp::Instance& x, const TspKokkosConfig<Space::Host>& c,
                                 Context& ctx);
Outcome<tsp::Solution> tsp_solve(const tsp::Instance& x, const TspKokkosConfig<Space::Device>& c,
                                 Context& ctx);

}  // namespace dpgpu::kokkos
