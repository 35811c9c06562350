// tsp_params.cpp — registers gpu.wavefront for the TSP: each parameter bound to its
// TspWavefrontConfig field, the rules validate() enforces and the city limit (checked by
// `dpgpu check` and the planner), the memory estimate, and the GPU solve. Host C++ only, so
// CPU-only builds still list the solver (as unavailable) and check experiment files.
#include <cstdint>
#include <limits>
#include <string>

#include "dpgpu/error.hpp"
#include "dpgpu/registry.hpp"
#include "tsp/tsp.hpp"
#include "tsp_config.hpp"
#include "tsp_split.hpp"
#include "tsp_wavefront.hpp"
#include "engine_counters.hpp"
#include "wavefront_counters.hpp"

namespace dpgpu::wavefront {

int tsp_cell_bytes(const tsp::Instance& x) {
  return tsp::cost_upper_bound(x) <= std::numeric_limits<std::int32_t>::max() ? 4 : 8;
}

namespace {

using C = TspWavefrontConfig;

[[maybe_unused]] const Registered registered =
    dpgpu::solver<tsp::Problem, C>(
        "gpu.wavefront",
        "Held-Karp by subset-size layers (each layer a 'diagonal'), two cost layers on the GPU, "
        "argmins streamed to the host for the tour; n <= 33 (n <= 35 with each layer split over "
        "gpus > 1)")
        .param("block", &C::block, between(32, 1024),
               "threads per block, a multiple of 32 (a thread per subset)")
        .rule("block", multiple_of(32))
        .choice("readonly", &C::readonly, {"texture", "ldg", "plain"},
                "how the distance matrix is read from global memory (staging, or every arc with "
                "distances: readonly)")
        .choice("distances", &C::distances,
                {{"shared", TspDistances::Shared}, {"readonly", TspDistances::ReadOnly}},
                "shared: each block stages the (n-1)^2 matrix in shared memory; readonly: every "
                "arc through `readonly`")
        .param("offload", &C::offload,
               "true: each layer's argmins copied to the host while the next computes; false: all "
               "argmins kept on "
               "the device, copied at the end")
        .param("reconstruct", &C::reconstruct, "false: no argmins, cost only (no certificate)")
        .param("offload_slots", &C::offload_slots, between(2, 64),
               "slots of the pinned staging ring")
        .param("offload_slot_bytes", &C::offload_slot_bytes, between(64, double(1 << 30)),
               "bytes per staging slot (capped at the largest layer's argmins); a layer goes in "
               "slot-sized chunks")
        .param("waves", &C::waves, between(1, 64),
               "grid = resident blocks per SM x SMs x waves, grid-stride over a layer's subsets")
        .param("gpus", &C::gpus, between(1, kTspMaxGpus),
               "logical GPUs each layer is split over (i on device i % devices; n <= 35 when "
               "> 1); `gpus: all` in an experiment: every GPU of the host")
        .check([](const C& c) { return refusal_of([&] { validate(c); }); })
        .counters(engine_counters())
        .counters(offload_counters())
        .counters(tsp_wavefront_counters())
        .counters(tsp_multigpu_counters())
        .check_instance([](const C& c, const ValueMap& dims) -> std::optional<std::string> {
          const auto n = std::int64_t(to_number(dims.at("n")));
          const int most = tsp_max_cities(c.gpus);
          if (n < 1 || n > most)
            return "the Held-Karp layers hold 1 <= n <= " + std::to_string(most) +
                   " cities with gpus = " + std::to_string(c.gpus) +
                   ", got n = " + std::to_string(n);
          return std::nullopt;
        })
        // Device: one card's need (gpus > 1: the largest logical GPU's share; the solver
        // itself checks each card for all the logical GPUs it carries).
        .memory([](const tsp::Instance& x, const C& c) {
          if (c.gpus > 1) {
            const TspMultiBytes b = tsp_multi_bytes(x.n, tsp_cell_bytes(x), c);
            return MemoryNeed{b.host, b.device_max()};
          }
          const TspBytes b = tsp_bytes(x.n, tsp_cell_bytes(x), c);
          return MemoryNeed{b.host, b.device};
        })
        .memory_plan([](const C& c, const ValueMap& dims) {
          const auto n = int(to_number(dims.at("n")));
          return n < 1 || n > tsp_max_cities(c.gpus) ? std::string() : tsp_memory_plan(n, 4, c);
        })
        .solve_gpu([](const tsp::Instance& x, const C& c, Context& ctx) {
          Outcome<tsp::Solution> out;
          TspWavefrontResult r = tsp_wavefront(x, c, ctx);
          out.objective = r.cost;
          if (!r.tour.empty()) out.solution = tsp::Solution{std::move(r.tour)};
          return out;
        });

}  // namespace
}  // namespace dpgpu::wavefront
