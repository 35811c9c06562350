// mcm_kokkos.hpp — plain C++ side of kokkos.mcm (CUDA backend) and kokkos.mcm_host (OpenMP
// backend): the matrix-chain diagonal DP of paper 002 written once, one dispatch per
// diagonal l = b − a (problems/mcm/README.md has the recurrence on points 0..n).
//
// kernel thread: a work item per entry (a, a + l) — the paper's OneThreadPerOneEntry, as
//   gpu.mcm `kernel: thread`. The table layout is the space's policy: diagonal-major on the GPU
//   (gpu.mcm's: at split t work item a reads diagonals t and l − t at index a and a + t, so
//   consecutive work items read consecutive words), the symmetric square on the host
//   (cpu.omp's: M[a][c] in row a, M[c][b] stored again at [b][c], both contiguous in c).
// kernel block (GPU only): a team per entry over the symmetric square, the team's threads
//   striding over the splits and a team reduction (Kokkos::MinLoc) — OneBlockPerOneEntry, as
//   gpu.mcm `kernel: block`.
// Cells are 32-bit when the instance's cost bound proves every M[a][b] < 2^32 (`cell: auto`,
// the GPU's default, as gpu.mcm), else 64-bit (the host's default, as cpu.omp); candidates
// are summed in 64 bits, and instances whose split_bound exceeds 2^63 − 1 are refused.
// The splits (int32, diagonal-major) stay where the table is; one work item walks the
// optimal tree (mcm/split_walk.hpp, gpu.mcm's walk) and the host receives n − 1 splits.
#pragma once
#include <cstdint>

#include "dpgpu/context.hpp"
#include "dpgpu/solver.hpp"
#include "mcm/mcm.hpp"
#include "solvers.hpp"

namespace dpgpu::kokkos {

enum class McmKernel { Thread, Block };
enum class McmCell { Auto, Bits32, Bits64 };

// The solvers' parameters (bound in mcm_params.cpp); `kernel` and `threads` only on the GPU.
template <Space S>
struct McmKokkosConfig {
  McmKernel kernel = McmKernel::Thread;
  int threads = 128;  // kernel block: threads per team (gpu.mcm's best block at n = 4096)
  McmCell cell = S == Space::Device ? McmCell::Auto : McmCell::Bits64;
};

// 32-bit cells for this instance and setting; throws dpgpu::InputError for `cell: 32` when a
// cost could reach 2^32.
bool mcm_cells_32(const ::mcm::Instance& x, McmCell cell, const std::string& solver);

template <Space S>
MemoryNeed mcm_memory(const ::mcm::Instance& x, const McmKokkosConfig<S>& c);

Outcome<::mcm::Solution> mcm_solve(const ::mcm::Instance& x, const McmKokkosConfig<Space::Host>& c,
                                   Context& ctx);
Outcome<::mcm::Solution> mcm_solve(const ::mcm::Instance& x,
                                   const McmKokkosConfig<Space::Device>& c, Context& ctx);

}  // namespace dpgpu::kokkos
