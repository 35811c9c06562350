// cpu.serial as the harness sees it (the algorithm: serial.cpp).
#include "registration.hpp"

namespace sdp::cpu {
namespace {

[[maybe_unused]] const dpgpu::Registered serial_registered =
    dpgpu::solver<Problem>("cpu.serial",
                           "the paper's Figure 1: ST[i] from its k predecessors, i = a0..n-1")
        .memory([](const Instance& x, const dpgpu::Params&) {
          return dpgpu::MemoryNeed{std::uint64_t(x.n) * (fits_32_bits(x) ? 4u : 8u), 0};
        })
        .solve([](const Instance& x, const dpgpu::Params&, dpgpu::Context& ctx) {
          auto ph = ctx.phase("compute");
          return outcome(serial(x, [&] { ctx.check_deadline(); }));
        });

}  // namespace
}  // namespace sdp::cpu
