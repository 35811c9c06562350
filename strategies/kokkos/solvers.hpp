// solvers.hpp — the two Kokkos solvers every problem of this folder registers: one on the
// device backend (CUDA), one on the host backend (OpenMP), each named in the outputs'
// backend column. Plain C++: builds without Kokkos list them as unavailable with the reason.
#pragma once
#include <string>

#include "dpgpu/registry.hpp"

namespace dpgpu::kokkos {

inline constexpr const char* kDeviceSolver = "kokkos.wavefront";
inline constexpr const char* kHostSolver = "kokkos.wavefront_host";

// Why a solver cannot run in this build; empty when it can.
inline std::string unavailable_reason(bool device) {
#if !DPGPU_WITH_KOKKOS
  (void)device;
  return "dpgpu was built without Kokkos (DPGPU_KOKKOS; set Kokkos_ROOT, or scripts/build-kokkos.sh)";
#else
  if (device && !DPGPU_KOKKOS_CUDA) return "Kokkos was built without its CUDA backend (scripts/build-kokkos.sh --cuda)";
  return "";
#endif
}

template <class P>
SolverBuilder<P> kokkos_solver(bool device, const std::string& help) {
  return dpgpu::solver<P>(device ? kDeviceSolver : kHostSolver,
                          help + (device ? " (Kokkos, CUDA backend)" : " (Kokkos, OpenMP backend)"))
      .backend(device ? Backend::Gpu : Backend::Cpu, device ? "kokkos-cuda" : "kokkos-openmp");
}

}  // namespace dpgpu::kokkos
