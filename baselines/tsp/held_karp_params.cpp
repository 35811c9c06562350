// cpu.held_karp as the harness sees it (the algorithm: held_karp.cpp).
#include "registration.hpp"

namespace tsp::cpu {
namespace {

[[maybe_unused]] const auto registered_held_karp =
    dpgpu::solver<tsp::Problem>(
        "cpu.held_karp",
        "Held-Karp DP, one thread, whole 2^(n-1)·(n-1) table; tour from stored predecessors")
        .counter("cell_bytes", dpgpu::CounterKind::Bytes, "one cell of the cost table (4 or 8)")
        .counter("table_bytes", dpgpu::CounterKind::Bytes, "the whole table the solve allocates")
        .memory([](const tsp::Instance& x, const Params&) {
          return MemoryNeed{tsp::cpu::held_karp_bytes(x), 0};
        })
        .solve([](const tsp::Instance& x, const Params&, Context& ctx) {
          ctx.set("cell_bytes", double(tsp::cpu::held_karp_cell_bytes(x)));
          return computed(ctx, "cpu.held_karp", tsp::cpu::held_karp_bytes(x),
                          [&] { return tsp::cpu::held_karp(x, deadline_of(ctx)); });
        });

}  // namespace
}  // namespace tsp::cpu
