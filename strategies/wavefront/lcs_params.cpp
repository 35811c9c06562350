// lcs_params.cpp — registers gpu.wavefront for LCS: each parameter bound to its
// LcsWavefrontConfig field, the rules validate() enforces and the length limit (checked by
// `dpgpu check` and the planner), the device-memory estimate, and the GPU solve. Host C++
// only, so CPU-only builds still list the solver (as unavailable) and check experiment files.
#include <cstdint>
#include <string>
#include <utility>

#include "dpgpu/error.hpp"
#include "dpgpu/registry.hpp"
#include "lcs/lcs.hpp"
#include "lcs_config.hpp"
#include "lcs_geometry.hpp"
#include "lcs_wavefront.hpp"
#include "engine_counters.hpp"
#include "wavefront_counters.hpp"

namespace dpgpu::wavefront {
namespace {

using C = LcsWavefrontConfig;

[[maybe_unused]] const Registered registered =
    dpgpu::solver<lcs::Problem, C>(
        "gpu.wavefront",
        "anti-diagonal wavefront (paper IV-V): tile = a warp per tile, cell = a thread per "
        "cell as published; length only unless reconstruct (decision bits offloaded to the "
        "host, traceback there)")
        .choice("mode", &C::mode, {{"tile", LcsMode::Tile}, {"cell", LcsMode::Cell}},
                "tile: warp per 32*R x TW tile, launch per tile diagonal (tuned); "
                "cell: thread per cell, launch per cell diagonal (the paper's model)")
        .param("block", &C::block, between(32, 1024),
               "threads per block, a multiple of 32 (tile: block/32 tiles per block)")
        .rule("block", multiple_of(32))
        .param("rows_per_thread", &C::rows_per_thread, between(4, 32),
               "tile: rows per lane R, one of 4, 8, 16, 32 (tile height 32*R); ignored by cell")
        .param("tile_width", &C::tile_width, between(32, 65536),
               "tile: columns per tile TW, a multiple of 32 (capped at the shorter string "
               "rounded up to 32); ignored by cell")
        .choice("readonly", &C::readonly,
                {{"texture", LcsReadOnly::Texture},
                 {"ldg", LcsReadOnly::Ldg},
                 {"plain", LcsReadOnly::Plain}},
                "how kernels read the strings: ldg = read-only data cache, plain = ordinary loads, "
                "texture = texture objects (the paper's choice)")
        .param("reconstruct", &C::reconstruct,
               "also return an LCS string: one decision bit per cell to the host, traceback there")
        .param("offload", &C::offload,
               "reconstruct: stream bits to pinned host memory on a second stream while computing "
               "(device keeps two diagonals' bits); false: keep all bits on the device, copy once")
        .param("offload_slots", &C::offload_slots, between(2, 1024),
               "reconstruct + offload: slots of the pinned host ring, each one diagonal's bits "
               "(tile) or 64 diagonals' (cell); the host waits only when all are in flight")
        .check([](const C& c) { return refusal_of([&] { validate(c); }); })
        .counters(engine_counters())
        .counters(offload_counters())
        .counters(lcs_wavefront_counters())
        .check_instance([](const C&, const ValueMap& dims) -> std::optional<std::string> {
          const std::int64_t length =
              std::int64_t(to_number(dims.at("n")) + to_number(dims.at("m")));
          if (length > kMaxLength)
            return "|a| + |b| = " + std::to_string(length) + " exceeds the " +
                   std::to_string(kMaxLength) + " symbols of 32-bit device indices";
          return std::nullopt;
        })
        .memory([](const lcs::Instance& x, const C& c) {
          // Exact for valid configurations (what the DeviceBuffers of a solve allocate); the
          // rules above refuse the others before anything runs.
          const std::int64_t n = std::int64_t(x.a.size()), m = std::int64_t(x.b.size());
          return MemoryNeed{host_bytes(n, m, c), device_bytes(n, m, c)};
        })
        .solve_gpu([](const lcs::Instance& x, const C& c, Context& ctx) {
          Outcome<lcs::Solution> out;
          LcsWavefrontResult r = lcs_wavefront(x.a, x.b, c, ctx);
          out.objective = r.length;
          if (r.subsequence)
            out.solution = lcs::Solution{std::move(*r.subsequence)};  // reconstruct
          return out;
        });

}  // namespace
}  // namespace dpgpu::wavefront
