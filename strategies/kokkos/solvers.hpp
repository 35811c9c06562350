// solvers.hpp — the two Kokkos solvers every problem of this folder registers: one on the
// device backend (CUDA), one on the host backend (OpenMP), each named in the outputs'
// backend column. Plain C++: builds without Kokkos list them as unavailable with the reason.
#pragma once
#include <string>

#include "dpgpu/registry.hpp"

namespace dpgpu::kokkos {

inline constexpr const char* kDeviceSolver = "kokkos.wavefront";
inline constexpr const char* kHostSolver = "kokkos.wavefront_host";
// The matrix chain's diagonal DP (a work item per entry) under its own name, as gpu.mcm.
inline constexpr const char* kMcmDeviceSolver = "kokkos.mcm";
inline constexpr const char* kMcmHostSolver = "kokkos.mcm_host";

// Which execution space a solver runs on: Kokkos's device backend (CUDA) or its host backend
// (OpenMP). A solver's config is templated on it where defaults differ per space.
enum class Space { Device, Host };
inline constexpr const char* solver_name(Space s) {
  return s == Space::Device ? kDeviceSolver : kHostSolver;
}

// Why a solver cannot run in this build; empty when it can.
inline std::string unavailable_reason(bool device) {
#if !DPGPU_WITH_KOKKOS
  (void)device;
  return "dpgpu was built without Kokkos (DPGPU_KOKKOS; set Kokkos_ROOT, or "
         "scripts/build-kokkos.sh)";
#else
  if (device && !DPGPU_KOKKOS_CUDA)
    return "Kokkos was built without its CUDA backend (scripts/build-kokkos.sh --cuda)";
  return "";
#endif
}

// Whether space S's solvers are compiled into this build (the entry points of a space that is
// not built have no definition).
template <Space S>
inline constexpr bool kBuilt = S == Space::Device ? bool(DPGPU_KOKKOS_CUDA)
                                                  : bool(DPGPU_WITH_KOKKOS);

// The builder of Kokkos solver `name` on space s, its parameters bound to the fields of Config.
template <class P, class Config>
SolverBuilder<P, Config> kokkos_solver(Space s, const std::string& name, const std::string& help) {
  const bool device = s == Space::Device;
  return dpgpu::solver<P, Config>(
             name, help + (device ? " (Kokkos, CUDA backend)" : " (Kokkos, OpenMP backend)"))
      .backend(device ? Backend::Gpu : Backend::Cpu, device ? "kokkos-cuda" : "kokkos-openmp");
}

// Ends the registration of space S's solver: solve(x, c, ctx) where S is built, else the
// solver is unavailable with the reason. `solve` takes its config as `const auto&`, so a
// space that is not built never instantiates the call of its entry point.
template <Space S, class P, class Config, class F>
Registered kokkos_solve(SolverBuilder<P, Config>& s, F solve) {
  if constexpr (kBuilt<S>)
    return s.solve([solve](const typename P::Instance& x, const Config& c, Context& ctx) {
      return solve(x, c, ctx);
    });
  else
    return s.unavailable(unavailable_reason(S == Space::Device));
}

}  // namespace dpgpu::kokkos
