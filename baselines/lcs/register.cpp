// The CPU solvers of LCS, as the harness sees them.
#include <fmt/format.h>
#include <omp.h>

#include <new>

#include "dpgpu/error.hpp"
#include "dpgpu/registry.hpp"
#include "lcs/lcs.hpp"
#include "lcs/lcs_cpu.hpp"

namespace {

using dpgpu::Context;
using dpgpu::MemoryNeed;
using dpgpu::Params;
using Outcome = dpgpu::Outcome<lcs::Solution>;

lcs::cpu::Poll deadline_of(Context& ctx) {
  return [&ctx] { ctx.check_deadline(); };
}

Outcome length_only(std::int64_t length) { return Outcome{length, std::nullopt, std::nullopt}; }

Outcome with_certificate(std::string subsequence) {
  const auto length = static_cast<dpgpu::Objective>(subsequence.size());
  return Outcome{length, lcs::Solution{std::move(subsequence)}, std::nullopt};
}

std::uint64_t row_bytes(std::size_t length) { return (length + 1) * sizeof(std::uint32_t); }

[[maybe_unused]] const auto registered_full_table =
    dpgpu::solver<lcs::Problem>("cpu.full_table", "whole (n+1)(m+1) score table, traceback")
        .memory([](const lcs::Instance& x, const Params&) {
          return MemoryNeed{lcs::cpu::full_table_bytes(x.a.size(), x.b.size()), 0};
        })
        .solve([](const lcs::Instance& x, const Params&, Context& ctx) {
          const auto bytes = lcs::cpu::full_table_bytes(x.a.size(), x.b.size());
          ctx.set("table_bytes", double(bytes));
          auto compute = ctx.phase("compute");
          try {
            return with_certificate(lcs::cpu::full_table(x.a, x.b, deadline_of(ctx)));
          } catch (const std::bad_alloc&) {
            throw dpgpu::OutOfMemory(fmt::format("cpu.full_table: could not allocate {} bytes", bytes));
          }
        });

[[maybe_unused]] const auto registered_linear =
    dpgpu::solver<lcs::Problem>("cpu.linear", "two score rows over the shorter string; length only")
        .memory([](const lcs::Instance& x, const Params&) {
          return MemoryNeed{row_bytes(std::min(x.a.size(), x.b.size())), 0};
        })
        .solve([](const lcs::Instance& x, const Params&, Context& ctx) {
          auto compute = ctx.phase("compute");
          return length_only(lcs::cpu::linear(x.a, x.b, deadline_of(ctx)));
        });

[[maybe_unused]] const auto registered_hirschberg =
    dpgpu::solver<lcs::Problem>("cpu.hirschberg", "Hirschberg divide and conquer: linear space, with certificate")
        .memory([](const lcs::Instance& x, const Params&) {
          return MemoryNeed{2 * row_bytes(x.b.size()) + std::min(x.a.size(), x.b.size()), 0};
        })
        .solve([](const lcs::Instance& x, const Params&, Context& ctx) {
          auto compute = ctx.phase("compute");
          return with_certificate(lcs::cpu::hirschberg(x.a, x.b, deadline_of(ctx)));
        });

struct OmpWavefrontConfig {
  int threads = 0;  // 0: OpenMP's default (all cores)
  int tile = 256;   // tile side in cells
};

int threads_or_all(int threads) { return threads > 0 ? threads : omp_get_max_threads(); }

[[maybe_unused]] const auto registered_omp_wavefront =
    dpgpu::solver<lcs::Problem, OmpWavefrontConfig>("cpu.omp_wavefront", "OpenMP over anti-diagonals of tiles; length only")
        .param("threads", &OmpWavefrontConfig::threads, dpgpu::between(0, 1024), "OpenMP threads; 0: OpenMP's default (all cores)")
        .param("tile", &OmpWavefrontConfig::tile, dpgpu::between(1, 1 << 20), "tile side in cells")
        .memory([](const lcs::Instance& x, const OmpWavefrontConfig& c) {
          const auto tile = std::uint64_t(c.tile);
          const auto tile_rows = (x.a.size() + tile - 1) / tile;
          const auto threads = std::uint64_t(threads_or_all(c.threads));
          return MemoryNeed{row_bytes(x.b.size()) + (tile_rows + threads) * row_bytes(tile), 0};
        })
        .solve([](const lcs::Instance& x, const OmpWavefrontConfig& c, Context& ctx) {
          ctx.set("threads", threads_or_all(c.threads));
          auto compute = ctx.phase("compute");
          return length_only(lcs::cpu::omp_wavefront(x.a, x.b, c.threads, c.tile, deadline_of(ctx)));
        });

struct BitparallelConfig {
  int threads = 1;  // strips of words as a wavefront; 0: OpenMP's default (all cores)
};

[[maybe_unused]] const auto registered_bitparallel =
    dpgpu::solver<lcs::Problem, BitparallelConfig>("cpu.bitparallel",
                                                   "bit-vector LCS (Allison-Dix/Hyyro), 64 cells per word; length only")
        .param("threads", &BitparallelConfig::threads, dpgpu::between(0, 1024),
               "threads, each a strip of words, strips as a wavefront over row chunks; 0: OpenMP's default (all cores)")
        .memory([](const lcs::Instance& x, const BitparallelConfig& c) {
          const auto threads = std::uint64_t(threads_or_all(c.threads));
          const auto rows = std::uint64_t(std::min(x.a.size(), x.b.size()));
          return MemoryNeed{lcs::cpu::bitparallel_bytes(x.a, x.b) + (threads > 1 ? threads * (rows + 512) : 0), 0};
        })
        .solve([](const lcs::Instance& x, const BitparallelConfig& c, Context& ctx) {
          ctx.set("threads", threads_or_all(c.threads));
          auto compute = ctx.phase("compute");
          return length_only(c.threads == 1 ? lcs::cpu::bitparallel(x.a, x.b, deadline_of(ctx))
                                            : lcs::cpu::bitparallel_threads(x.a, x.b, c.threads, deadline_of(ctx)));
        });

}  // namespace
