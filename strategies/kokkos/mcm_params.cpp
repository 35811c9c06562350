// mcm_params.cpp — registers kokkos.mcm (CUDA backend) and kokkos.mcm_host (OpenMP
// backend) for the matrix chain: parameters bound to McmKokkosConfig, the memory estimate,
// and (in Kokkos builds) the solve. Plain C++.
#include <optional>
#include <string>

#include "dpgpu/registry.hpp"
#include "mcm/mcm.hpp"
#include "mcm_kokkos.hpp"
#include "kokkos_counters.hpp"
#include "solvers.hpp"

namespace dpgpu::kokkos {
namespace {

template <Space S>
Registered register_mcm() {
  using C = McmKokkosConfig<S>;
  constexpr bool device = S == Space::Device;
  auto s = kokkos_solver<::mcm::Problem, C>(
      S, device ? kMcmDeviceSolver : kMcmHostSolver,
      "paper 002's diagonal DP written once in Kokkos: one dispatch per diagonal l, a work item "
      "per entry "
      "(OneThreadPerOneEntry, as gpu.mcm kernel thread); splits to the host, parenthesized there");
  if constexpr (device)  // the host team is one thread: a work item per entry only
    s.choice("kernel", &C::kernel, {{"thread", McmKernel::Thread}, {"block", McmKernel::Block}},
             "thread: a work item per entry over the diagonal-major table; block: a team per entry "
             "over the "
             "symmetric table, a team reduction (OneBlockPerOneEntry, as gpu.mcm kernel block)")
        .param("threads", &C::threads, between(32, 1024),
               "kernel block: threads per team, a multiple of 32")
        .rule("threads", multiple_of(32));
  s.choice("cell", &C::cell,
           {{"auto", McmCell::Auto}, {"32", McmCell::Bits32}, {"64", McmCell::Bits64}},
           "bits of a stored cost; auto: 32 when every cost provably fits (P²·max (b-a-1)·min p < "
           "2^32)")
      .check_instance([](const C& c, const ::mcm::Instance& x) -> std::optional<std::string> {
        // The refusals the solve would give, declared so `dpgpu check` finds them first.
        if (auto why = refusal(::mcm::int64_excess(x))) return why;
        if (c.cell == McmCell::Bits32 && !::mcm::costs_fit_32_bits(x))
          return "'cell' 32: a cost could reach 2^32 or more (bound P²·max(b-a-1)·min(p_a..p_b)); "
                 "use cell 64 or auto";
        return std::nullopt;
      })
      .memory([](const ::mcm::Instance& x, const C& c) { return mcm_memory(x, c); });
  s.counters(mcm_counters());
  return kokkos_solve<S>(s, [](const ::mcm::Instance& x, const auto& c, Context& ctx) {
    return mcm_solve(x, c, ctx);
  });
}

[[maybe_unused]] const Registered registered_device = register_mcm<Space::Device>();
[[maybe_unused]] const Registered registered_host = register_mcm<Space::Host>();

}  // namespace
}  // namespace dpgpu::kokkos
