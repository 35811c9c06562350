// mcm_memory.cpp — cell width and memory estimate of both Kokkos matrix-chain solvers (every build).
#include <string>

#include "dpgpu/error.hpp"
#include "mcm_kokkos.hpp"

namespace dpgpu::kokkos {

bool mcm_cells_32(const ::mcm::Instance& x, McmCell cell, const std::string& solver) {
  if (cell == McmCell::Bits64) return false;
  const bool fits = ::mcm::costs_fit_32_bits(x);
  if (cell == McmCell::Bits32 && !fits)
    throw dpgpu::InputError(solver +
                            ": cell 32 refused: a cost could reach 2^32 or more (bound "
                            "P²·max(b-a-1)·min(p_a..p_b)); use cell 64 or auto");
  return fits;
}

template <Space S>
MemoryNeed mcm_memory(const ::mcm::Instance& x, const McmKokkosConfig<S>& c) {
  const auto w = std::uint64_t(x.n() + 1);
  const std::uint64_t cell = c.cell != McmCell::Bits64 && ::mcm::costs_fit_32_bits(x) ? 4 : 8;
  const std::uint64_t triangle = w * (w + 1) / 2;
  const bool diagonal_major = S == Space::Device && c.kernel == McmKernel::Thread;
  const std::uint64_t table = (diagonal_major ? triangle : w * w) * cell;
  const std::uint64_t splits = triangle * 4, dims = w * cell;
  const std::uint64_t walk =
      (w - 2) * 4 + (w + 1) * 8;  // n − 1 splits in preorder, n + 2 intervals
  if (S == Space::Host) return MemoryNeed{table + splits + dims + walk, 0};
  return MemoryNeed{(w - 2) * 4 + dims,
                    table + splits + dims + walk};  // the host receives n − 1 splits
}

template MemoryNeed mcm_memory(const ::mcm::Instance&, const McmKokkosConfig<Space::Host>&);
template MemoryNeed mcm_memory(const ::mcm::Instance&, const McmKokkosConfig<Space::Device>&);

}  // namespace dpgpu::kokkos
