// cpu.full_table as the harness sees it (the algorithm: full_table.cpp).
#include <fmt/format.h>

#include <new>

#include "dpgpu/error.hpp"
#include "dpgpu/out_of_memory.hpp"
#include "registration.hpp"

namespace lcs::cpu {
namespace {

[[maybe_unused]] const auto registered_full_table =
    dpgpu::solver<lcs::Problem>("cpu.full_table", "whole (n+1)(m+1) score table, traceback")
        .counter("table_bytes", dpgpu::CounterKind::Bytes, "the score table and the result")
        .memory([](const lcs::Instance& x, const Params&) {
          return MemoryNeed{lcs::cpu::full_table_bytes(x.a.size(), x.b.size()), 0};
        })
        .solve([](const lcs::Instance& x, const Params&, Context& ctx) {
          const auto bytes = lcs::cpu::full_table_bytes(x.a.size(), x.b.size());
          ctx.set("table_bytes", double(bytes));
          auto compute = ctx.phase("compute");
          return with_certificate(dpgpu::out_of_memory_as_error("cpu.full_table", bytes, [&] {
            return lcs::cpu::full_table(x.a, x.b, deadline_of(ctx));
          }));
        });

}  // namespace
}  // namespace lcs::cpu
