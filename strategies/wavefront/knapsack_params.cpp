// knapsack_params.cpp — registers gpu.wavefront for the 0-1 knapsack: each parameter bound to
// its KnapsackWavefrontConfig field, the rules validate() enforces (checked by `dpgpu check`),
// the memory estimate, and the GPU solve. Host C++ only, so CPU-only builds still list the
// solver (as unavailable) and still check experiment files that name it.
#include <cstdint>
#include <string>
#include <utility>

#include "dpgpu/error.hpp"
#include "dpgpu/registry.hpp"
#include "knapsack/knapsack.hpp"
#include "knapsack_config.hpp"
#include "knapsack_wavefront.hpp"
#include "engine_counters.hpp"
#include "wavefront_counters.hpp"

namespace dpgpu::wavefront {
namespace {

using C = KnapsackWavefrontConfig;

[[maybe_unused]] const Registered registered_knapsack =
    dpgpu::solver<knapsack::Problem, C>(
        "gpu.wavefront",
        "anti-diagonal wavefront (paper IV-V): one launch per diagonal of items x capacities, a "
        "ring "
        "of max_weight + 2 diagonals, decision bits offloaded for the certificate")
        .param("block", &C::block, between(32, 1024), "threads per block, a multiple of 32")
        .rule("block", multiple_of(32))
        .param("offload", &C::offload,
               "stream finished diagonals' decision bits to pinned host memory; false: keep them "
               "on the "
               "device and trace the packing there")
        .choice("readonly", &C::readonly, {"texture", "ldg", "plain"},
                "how kernels read the item weights and values")
        .param("reconstruct", &C::reconstruct,
               "keep decision bits and return the chosen items; false: value only")
        .param("offload_diagonals", &C::offload_diagonals, between(0, 1e9),
               "diagonals per offloaded chunk; 0: about 4 MiB per chunk")
        .param("offload_slots", &C::offload_slots, between(1, 1024),
               "pinned staging slots (chunks in flight to the host)")
        .check([](const C& c) { return refusal_of([&] { validate(c); }); })
        .counters(engine_counters())
        .counters(offload_counters())
        .counters(knapsack_wavefront_counters())
        .memory([](const knapsack::Instance& x, const C& c) {
          try {
            const KnapsackGeometry g = knapsack_geometry(x, c);
            return MemoryNeed{host_bytes(g, c), device_bytes(g, c)};
          } catch (const InputError&) {
            return MemoryNeed{0, 0};  // solve() refuses it by name
          }
        })
        .solve_gpu([](const knapsack::Instance& x, const C& c, Context& ctx) {
          KnapsackWavefrontResult r = knapsack_wavefront(x, c, ctx);
          Outcome<knapsack::Solution> out;
          out.objective = r.value;
          if (r.items) out.solution = knapsack::Solution{std::move(*r.items)};
          return out;
        });

}  // namespace
}  // namespace dpgpu::wavefront
