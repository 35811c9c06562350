// cpu.bitparallel as the harness sees it (the algorithm: bitparallel.cpp).
#include "registration.hpp"

namespace lcs::cpu {
namespace {

struct BitparallelConfig {
  int threads = 1;  // strips of words as a wavefront; 0: OpenMP's default (all cores)
};

[[maybe_unused]] const auto registered_bitparallel =
    dpgpu::solver<lcs::Problem, BitparallelConfig>(
        "cpu.bitparallel", "bit-vector LCS (Allison-Dix/Hyyro), 64 cells per word; length only")
        .param("threads", &BitparallelConfig::threads, dpgpu::between(0, 1024),
               "threads, each a strip of words, strips as a wavefront over row chunks; 0: OpenMP's "
               "default (all cores)")
        .counter("threads", dpgpu::CounterKind::Count, "OpenMP threads the solve ran on", "threads")
        .memory([](const lcs::Instance& x, const BitparallelConfig& c) {
          const auto threads = std::uint64_t(threads_or_all(c.threads));
          const auto rows = std::uint64_t(std::min(x.a.size(), x.b.size()));
          return MemoryNeed{
              lcs::cpu::bitparallel_bytes(x.a, x.b) + (threads > 1 ? threads * (rows + 512) : 0),
              0};
        })
        .solve([](const lcs::Instance& x, const BitparallelConfig& c, Context& ctx) {
          ctx.set("threads", threads_or_all(c.threads));
          auto compute = ctx.phase("compute");
          return length_only(c.threads == 1 ? lcs::cpu::bitparallel(x.a, x.b, deadline_of(ctx))
                                            : lcs::cpu::bitparallel_threads(x.a, x.b, c.threads,
                                                                            deadline_of(ctx)));
        });

}  // namespace
}  // namespace lcs::cpu
