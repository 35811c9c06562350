// mcm_register.cpp — registers gpu.mcm (the paper's three kernels, per-diagonal policy) and
// gpu.mcm_tiled. Host C++ only, so CPU-only builds list them (as unavailable) and check
// experiment files that name them, tables included.
#include <cstdint>
#include <string>
#include <utility>

#include "dpgpu/registry.hpp"
#include "mcm/mcm.hpp"
#include "mcm_policy.hpp"
#if DPGPU_WITH_CUDA
#include "mcm_solvers.hpp"
#endif

namespace dpgpu::mcm_gpu {
namespace {

// The paper's Table II as a table (GTX 480, n = 16,384): its threads per setting are not
// given, so 32 (its fastest Table I column) and 8 blocks per entry.
const char* kPaperTable = "2-3668:block:32,3669-15406:thread:32,15407-15662:block:32,15663-*:blocks:32:8";

std::optional<std::string> multiple_of_32(const Value& v) {
  const auto t = std::get<std::int64_t>(v);
  if (t % 32) return "threads must be a multiple of 32 (whole warps), got " + std::to_string(t);
  return std::nullopt;
}

std::optional<std::string> valid_table(const Value& v) {
  auto t = parse_table(std::get<std::string>(v));
  if (!t.error.empty()) return t.error;
  return std::nullopt;
}

SolverBuilder<::mcm::Problem> mcm_solver() {
  return dpgpu::solver<::mcm::Problem>(
             "gpu.mcm",
             "paper 002: one launch per diagonal l with OneThreadPerOneEntry (thread), OneBlockPerOneEntry (block) or "
             "BlocksPerOneEntry (blocks); the kernel per diagonal fixed, from a table, or calibrated on the instance")
      .choice("policy", "fixed", {"fixed", "table", "calibrate"},
              "fixed: `kernel` everywhere; table: the ranges in `table`; calibrate: time the paper's grid on sampled "
              "diagonals and build the table")
      .choice("kernel", "thread", {"thread", "block", "blocks"}, "policy fixed: the kernel of every diagonal")
      .param("threads", std::int64_t{32}, between(32, 1024), "policy fixed: threads per block (a multiple of 32)")
      .param("blocks", std::int64_t{8}, between(2, 1024), "policy fixed, kernel blocks: blocks per entry")
      .param("table", std::string(kPaperTable),
             "policy table: FROM-TO:KERNEL:THREADS[:BLOCKS] ranges of l, comma-separated, from 2, no gaps, last TO '*'")
      .param("samples", std::int64_t{16}, between(2, 4096), "policy calibrate: diagonals timed")
      .choice("cell", "auto", {"auto", "32", "64"},
              "bits of a stored cost; auto: 32 when every cost provably fits (P²·max (b-a-1)·min p < 2^32)")
      .rule("threads", multiple_of_32)
      .rule("table", valid_table);
}

SolverBuilder<::mcm::Problem> tiled_solver() {
  return dpgpu::solver<::mcm::Problem>(
             "gpu.mcm_tiled",
             "beyond the paper: 64 × 64 tiles of doubles (exact below 2^53), panel products in shared memory split over "
             "blocks, one tile diagonal per two launches")
      .param("split_target", std::int64_t{0}, between(0, 1 << 20),
             "blocks per tile diagonal the panel split aims for; 0: two per SM")
      .choice("compare", "fp64", {"fp64", "bits"},
              "panel minimum: compare as doubles (fp64), or the doubles' bit patterns on the integer pipe (bits; "
              "slower on the H100: 0.61 s against 0.49 s at n = 16384)");
}

#if DPGPU_WITH_CUDA
McmConfig config_from(const Params& p) {
  McmConfig c;
  c.policy = p.text("policy");
  c.fixed = Setting{*kernel_from(p.text("kernel")), int(p.integer("threads")), int(p.integer("blocks"))};
  if (c.fixed.kernel != Kernel::blocks) c.fixed.blocks = 1;
  c.table = p.text("table");
  c.cell = p.text("cell");
  c.samples = int(p.integer("samples"));
  return c;
}

Outcome<::mcm::Solution> outcome(GpuAnswer a) {
  Outcome<::mcm::Solution> o;
  o.objective = a.cost;
  o.solution = ::mcm::Solution{std::move(a.parenthesization)};
  return o;
}

[[maybe_unused]] const Registered mcm_registered =
    mcm_solver()
        .memory([](const ::mcm::Instance& x, const Params& p) {
          return MemoryNeed{std::uint64_t(x.n()) * 40, mcm_device_bytes(x, config_from(p))};
        })
        .solve([](const ::mcm::Instance& x, const Params& p, Context& ctx) { return outcome(solve_mcm(x, config_from(p), ctx)); });
[[maybe_unused]] const Registered tiled_registered =
    tiled_solver()
        .memory([](const ::mcm::Instance& x, const Params&) {
          return MemoryNeed{std::uint64_t(x.n()) * 40, tiled_device_bytes(x)};
        })
        .solve([](const ::mcm::Instance& x, const Params& p, Context& ctx) {
          TiledConfig c;
          c.split_target = int(p.integer("split_target"));
          c.compare_bits = p.text("compare") == "bits";
          return outcome(solve_mcm_tiled(x, c, ctx));
        });
#else
[[maybe_unused]] const Registered mcm_registered = mcm_solver().unavailable("dpgpu was built without CUDA");
[[maybe_unused]] const Registered tiled_registered = tiled_solver().unavailable("dpgpu was built without CUDA");
#endif

}  // namespace
}  // namespace dpgpu::mcm_gpu
