// lcs_params.cpp — registers gpu.wavefront for LCS: its parameter schema, its device-memory
// estimate, and (in CUDA builds) its solve. Host C++ only, so CPU-only builds still list the
// solver (as unavailable) and still check experiment files that name it.
#include <cstdint>
#include <string>
#include <utility>

#include "dpgpu/error.hpp"
#include "dpgpu/registry.hpp"
#include "lcs/lcs.hpp"
#include "lcs_config.hpp"
#include "lcs_geometry.hpp"
#if DPGPU_WITH_CUDA
#include "lcs_wavefront.hpp"
#endif

namespace dpgpu::wavefront {
namespace {

LcsWavefrontConfig config_from(const Params& p) {
  LcsWavefrontConfig c;
  c.mode = p.text("mode") == "cell" ? LcsMode::Cell : LcsMode::Tile;
  c.block = static_cast<int>(p.integer("block"));
  c.rows_per_thread = static_cast<int>(p.integer("rows_per_thread"));
  c.tile_width = static_cast<int>(p.integer("tile_width"));
  c.readonly = readonly_from(p.text("readonly"));
  c.reconstruct = p.flag("reconstruct");
  c.offload = p.flag("offload");
  c.offload_slots = static_cast<int>(p.integer("offload_slots"));
  return c;
}

SolverBuilder<lcs::Problem> wavefront_solver() {
  const LcsWavefrontConfig d;  // defaults
  return dpgpu::solver<lcs::Problem>(
             "gpu.wavefront",
             "anti-diagonal wavefront (paper IV-V): tile = a warp per tile, cell = a thread per "
             "cell as published; length only unless reconstruct (decision bits offloaded to the "
             "host, traceback there)")
      .choice("mode", to_string(d.mode), {"tile", "cell"},
              "tile: warp per 32*R x TW tile, launch per tile diagonal (tuned); "
              "cell: thread per cell, launch per cell diagonal (the paper's model)")
      .param("block", std::int64_t{d.block}, between(32, 1024),
             "threads per block, a multiple of 32 (tile: block/32 tiles per block)")
      .param("rows_per_thread", std::int64_t{d.rows_per_thread}, between(4, 32),
             "tile: rows per lane R, one of 4, 8, 16, 32 (tile height 32*R); ignored by cell")
      .param("tile_width", std::int64_t{d.tile_width}, between(32, 65536),
             "tile: columns per tile TW, a multiple of 32 (capped at the shorter string "
             "rounded up to 32); ignored by cell")
      .choice("readonly", to_string(d.readonly), {"texture", "ldg", "plain"},
              "how kernels read the strings: ldg = read-only data cache, plain = ordinary loads, "
              "texture = texture objects (the paper's choice)")
      .param("reconstruct", d.reconstruct,
             "also return an LCS string: one decision bit per cell to the host, traceback there")
      .param("offload", d.offload,
             "reconstruct: stream bits to pinned host memory on a second stream while computing "
             "(device keeps two diagonals' bits); false: keep all bits on the device, copy once")
      .param("offload_slots", std::int64_t{d.offload_slots}, between(2, 1024),
             "reconstruct + offload: slots of the pinned host ring, each one diagonal's bits "
             "(tile) or 64 diagonals' (cell); the host waits only when all are in flight")
      .memory([](const lcs::Instance& x, const Params& p) {
        // Not validated here (solve() refuses bad combinations by name); the estimate is
        // exact for valid ones: what the DeviceBuffers of a solve allocate.
        const std::int64_t n = std::int64_t(x.a.size()), m = std::int64_t(x.b.size());
        const LcsWavefrontConfig c = config_from(p);
        return MemoryNeed{host_bytes(n, m, c), device_bytes(n, m, c)};
      });
}

[[maybe_unused]] const Registered registered =
#if DPGPU_WITH_CUDA
    wavefront_solver().solve([](const lcs::Instance& x, const Params& p, Context& ctx) {
      Outcome<lcs::Solution> out;
      LcsWavefrontResult r = lcs_wavefront(x.a, x.b, config_from(p), ctx);
      out.objective = r.length;
      if (r.subsequence) out.solution = lcs::Solution{std::move(*r.subsequence)};  // reconstruct
      return out;
    });
#else
    wavefront_solver().unavailable("dpgpu was built without CUDA");
#endif

}  // namespace
}  // namespace dpgpu::wavefront
