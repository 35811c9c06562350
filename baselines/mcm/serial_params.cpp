// cpu.serial as the harness sees it (the algorithm: serial.cpp).
#include "registration.hpp"

namespace mcm::cpu {
namespace {

[[maybe_unused]] const dpgpu::Registered serial_registered =
    dpgpu::solver<Problem>("cpu.serial",
                           "the paper's Figure 3: textbook O(n³) DP, tables m and s, one core")
        .check_instance(int64_rule)
        .memory([](const Instance& x, const dpgpu::Params&) {
          return dpgpu::MemoryNeed{serial_bytes(x), 0};
        })
        .solve([](const Instance& x, const dpgpu::Params&, dpgpu::Context& ctx) {
          auto ph = ctx.phase("compute");
          return outcome(serial(x, [&] { ctx.check_deadline(); }));
        });

}  // namespace
}  // namespace mcm::cpu
