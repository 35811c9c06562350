// knapsack_params.cpp — registers gpu.wavefront for the 0-1 knapsack: its parameter schema,
// its memory estimate, and (in CUDA builds) its solve. Host C++ only, so CPU-only builds still
// list the solver (as unavailable) and still check experiment files that name it.
#include <cstdint>
#include <string>
#include <utility>

#include "dpgpu/error.hpp"
#include "dpgpu/registry.hpp"
#include "knapsack/knapsack.hpp"
#include "knapsack_config.hpp"
#if DPGPU_WITH_CUDA
#include "knapsack_wavefront.hpp"
#endif

namespace dpgpu::wavefront {
namespace {

KnapsackWavefrontConfig knapsack_config_from(const Params& p) {
  KnapsackWavefrontConfig c;
  c.block = static_cast<int>(p.integer("block"));
  c.offload = p.flag("offload");
  c.readonly = p.text("readonly");
  c.reconstruct = p.flag("reconstruct");
  c.offload_diagonals = p.integer("offload_diagonals");
  c.offload_slots = p.integer("offload_slots");
  return c;
}

SolverBuilder<knapsack::Problem> knapsack_wavefront_solver() {
  const KnapsackWavefrontConfig d;  // defaults
  return dpgpu::solver<knapsack::Problem>(
             "gpu.wavefront",
             "anti-diagonal wavefront (paper IV-V): one launch per diagonal of items x capacities, a ring "
             "of max_weight + 2 diagonals, decision bits offloaded for the certificate")
      .param("block", std::int64_t{d.block}, between(32, 1024), "threads per block, a multiple of 32")
      .param("offload", d.offload,
             "stream finished diagonals' decision bits to pinned host memory; false: keep them on the "
             "device and trace the packing there")
      .choice("readonly", d.readonly, {"texture", "ldg", "plain"}, "how kernels read the item weights and values")
      .param("reconstruct", d.reconstruct, "keep decision bits and return the chosen items; false: value only")
      .param("offload_diagonals", d.offload_diagonals, between(0, 1e9),
             "diagonals per offloaded chunk; 0: about 4 MiB per chunk")
      .param("offload_slots", d.offload_slots, between(1, 1024), "pinned staging slots (chunks in flight to the host)")
      .memory([](const knapsack::Instance& x, const Params& p) {
        const KnapsackWavefrontConfig c = knapsack_config_from(p);
        try {
          const KnapsackGeometry g = knapsack_geometry(x, c);
          return MemoryNeed{host_bytes(g, c), device_bytes(g, c)};
        } catch (const InputError&) {
          return MemoryNeed{0, 0};  // solve() refuses it by name
        }
      });
}

[[maybe_unused]] const Registered registered_knapsack =
#if DPGPU_WITH_CUDA
    knapsack_wavefront_solver().solve([](const knapsack::Instance& x, const Params& p, Context& ctx) {
      KnapsackWavefrontResult r = knapsack_wavefront(x, knapsack_config_from(p), ctx);
      Outcome<knapsack::Solution> out;
      out.objective = r.value;
      if (r.items) out.solution = knapsack::Solution{std::move(*r.items)};
      return out;
    });
#else
    knapsack_wavefront_solver().unavailable("dpgpu was built without CUDA");
#endif

}  // namespace
}  // namespace dpgpu::wavefront
