// mcm_params.cpp — registers gpu.mcm (the paper's three kernels, per-diagonal policy) and
// gpu.mcm_tiled: each parameter bound to its config field (mcm_config.hpp), the rules that
// `dpgpu check` applies without a GPU (threads a multiple of 32, the policy table's syntax,
// the instance's cost bound), the memory estimate and the GPU solve. Host C++ only, so
// CPU-only builds list the solvers (as unavailable) and check experiment files that name them.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "dpgpu/registry.hpp"
#include "mcm/mcm.hpp"
#include "mcm_config.hpp"
#include "mcm_counters.hpp"
#include "mcm_policy.hpp"
#include "mcm_solvers.hpp"

namespace dpgpu::mcm_gpu {
namespace {

using C = McmConfig;

// A policy table must parse (ranges from l = 2, no gaps or overlaps, the last open); the
// error names the range at fault.
std::optional<std::string> valid_table(const Value& v) {
  auto t = parse_table(std::get<std::string>(v));
  if (!t.error.empty()) return t.error;
  return std::nullopt;
}

Outcome<::mcm::Solution> outcome(GpuAnswer a) {
  Outcome<::mcm::Solution> o;
  o.objective = a.cost;
  o.solution = ::mcm::Solution{std::move(a.parenthesization)};
  return o;
}

[[maybe_unused]] const Registered mcm_registered =
    dpgpu::solver<::mcm::Problem, C>(
        "gpu.mcm",
        "paper 002: one launch per diagonal l with OneThreadPerOneEntry (thread), "
        "OneBlockPerOneEntry (block) or "
        "BlocksPerOneEntry (blocks); the kernel per diagonal fixed, from a table, or calibrated on "
        "the instance")
        .choice(
            "policy", &C::policy,
            {{"fixed", Policy::fixed}, {"table", Policy::table}, {"calibrate", Policy::calibrate}},
            "fixed: `kernel` everywhere; table: the ranges in `table`; calibrate: during the "
            "solve, time the "
            "current setting and its grid neighbours on some diagonals and keep the fastest")
        .choice("kernel", &C::kernel,
                {{"thread", Kernel::thread}, {"block", Kernel::block}, {"blocks", Kernel::blocks}},
                "policy fixed: the kernel of every diagonal")
        .param("threads", &C::threads, between(32, 1024),
               "policy fixed: threads per block (a multiple of 32)")
        .rule("threads", multiple_of(32))
        .param("blocks", &C::blocks, between(2, 1024),
               "policy fixed, kernel blocks: blocks per entry")
        .param("table", &C::table,
               "policy table: FROM-TO:KERNEL:THREADS[:BLOCKS] ranges of l, comma-separated, from "
               "2, no gaps, last TO '*'")
        .rule("table", valid_table)
        .param("budget", &C::budget, between(0.0, 1.0),
               "policy calibrate: share of the estimated compute time that the timed launches "
               "which lose may cost")
        .choice("cell", &C::cell,
                {{"auto", CellBits::automatic}, {"32", CellBits::b32}, {"64", CellBits::b64}},
                "bits of a stored cost; 32: every cost provably fits (P²·max (b-a-1)·min p < "
                "2^32); auto: 32, and "
                "where that is not proven a cost of 2^32 - 1 or more escapes to a 64-bit square; "
                "64: 64-bit cells")
        .check_instance([](const C& c, const ::mcm::Instance& x) { return refusal(why_not(x, c)); })
        .counters(mcm_counters())
        .memory([](const ::mcm::Instance& x, const C& c) {
          return MemoryNeed{std::uint64_t(x.n()) * 40, mcm_device_bytes(x, c)};
        })
        .solve_gpu([](const ::mcm::Instance& x, const C& c, Context& ctx) {
          return outcome(solve_mcm(x, c, ctx));
        });

[[maybe_unused]] const Registered tiled_registered =
    dpgpu::solver<::mcm::Problem, TiledConfig>(
        "gpu.mcm_tiled",
        "beyond the paper: 64 × 64 tiles of int32 (bound below 2^31, DPX add-min) or doubles "
        "(exact below 2^53), "
        "panel products in shared memory split over blocks, one tile diagonal per two launches")
        .param("split_target", &TiledConfig::split_target, between(0, 1 << 20),
               "blocks per tile diagonal the panel split aims for; 0: two per SM")
        .choice("compare", &TiledConfig::compare,
                {{"fp64", Compare::fp64}, {"bits", Compare::bits}},
                "panel minimum: compare as doubles (fp64), or the doubles' bit patterns on the "
                "integer pipe (bits; "
                "slower on the H100: 0.61 s against 0.49 s at n = 16384)")
        .choice("arith", &TiledConfig::arith, {{"auto", Arith::automatic}, {"fp64", Arith::fp64}},
                "values: auto computes in int32 with DPX add-min when the instance's split bound "
                "is below 2^31 "
                "(else doubles); fp64 always doubles")
        .check_instance(
            [](const TiledConfig&, const ::mcm::Instance& x) { return refusal(why_not_tiled(x)); })
        .counters(mcm_tiled_counters())
        .memory([](const ::mcm::Instance& x, const TiledConfig&) {
          return MemoryNeed{std::uint64_t(x.n()) * 40, tiled_device_bytes(x)};
        })
        .solve_gpu([](const ::mcm::Instance& x, const TiledConfig& c, Context& ctx) {
          return outcome(solve_mcm_tiled(x, c, ctx));
        });

}  // namespace
}  // namespace dpgpu::mcm_gpu
