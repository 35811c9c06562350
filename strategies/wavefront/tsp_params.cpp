// tsp_params.cpp — registers gpu.wavefront for the TSP: its parameter schema, its memory
// estimate, and (in CUDA builds) its solve. Host C++ only, so CPU-only builds still list the
// solver (as unavailable) and still check experiment files that name it.
#include <cstdint>
#include <limits>
#include <string>

#include "dpgpu/error.hpp"
#include "dpgpu/registry.hpp"
#include "tsp/tsp.hpp"
#include "tsp_config.hpp"
#if DPGPU_WITH_CUDA
#include "tsp_wavefront.hpp"
#endif

namespace dpgpu::wavefront {

TspWavefrontConfig tsp_config_from(const Params& p) {
  TspWavefrontConfig c;
  c.block = static_cast<int>(p.integer("block"));
  c.readonly = p.text("readonly");
  c.distances = p.text("distances") == "shared" ? TspDistances::Shared : TspDistances::ReadOnly;
  c.offload = p.flag("offload");
  c.reconstruct = p.flag("reconstruct");
  c.offload_slots = static_cast<int>(p.integer("offload_slots"));
  c.offload_slot_bytes = p.integer("offload_slot_bytes");
  c.waves = static_cast<int>(p.integer("waves"));
  return c;
}

int tsp_cell_bytes(const tsp::Instance& x) {
  return tsp::cost_upper_bound(x) <= std::numeric_limits<std::int32_t>::max() ? 4 : 8;
}

namespace {

SolverBuilder<tsp::Problem> wavefront_solver() {
  const TspWavefrontConfig d;  // defaults
  return dpgpu::solver<tsp::Problem>(
             "gpu.wavefront",
             "Held-Karp by subset-size layers (each layer a 'diagonal'), two cost layers on the GPU, "
             "argmins streamed to the host for the tour; n <= 33")
      .param("block", std::int64_t{d.block}, between(32, 1024), "threads per block, a multiple of 32 (a thread per subset)")
      .choice("readonly", d.readonly, {"texture", "ldg", "plain"},
              "how the distance matrix is read from global memory (staging, or every arc with distances: readonly)")
      .choice("distances", to_string(d.distances), {"shared", "readonly"},
              "shared: each block stages the (n-1)^2 matrix in shared memory; readonly: every arc through `readonly`")
      .param("offload", d.offload,
             "true: each layer's argmins copied to the host while the next computes; false: all argmins kept on "
             "the device, copied at the end")
      .param("reconstruct", d.reconstruct, "false: no argmins, cost only (no certificate)")
      .param("offload_slots", std::int64_t{d.offload_slots}, between(2, 64), "slots of the pinned staging ring")
      .param("offload_slot_bytes", std::int64_t{d.offload_slot_bytes}, between(64, double(1 << 30)),
             "bytes per staging slot (capped at the largest layer's argmins); a layer goes in slot-sized chunks")
      .param("waves", std::int64_t{d.waves}, between(1, 64),
             "grid = resident blocks per SM x SMs x waves, grid-stride over a layer's subsets")
      .memory([](const tsp::Instance& x, const Params& p) {
        const TspBytes b = tsp_bytes(x.n, tsp_cell_bytes(x), tsp_config_from(p));
        return MemoryNeed{b.host, b.device};
      });
}

[[maybe_unused]] const Registered registered =
#if DPGPU_WITH_CUDA
    wavefront_solver().solve([](const tsp::Instance& x, const Params& p, Context& ctx) {
      Outcome<tsp::Solution> out;
      TspWavefrontResult r = tsp_wavefront(x, tsp_config_from(p), ctx);
      out.objective = r.cost;
      if (!r.tour.empty()) out.solution = tsp::Solution{std::move(r.tour)};
      return out;
    });
#else
    wavefront_solver().unavailable("dpgpu was built without CUDA");
#endif

}  // namespace
}  // namespace dpgpu::wavefront
