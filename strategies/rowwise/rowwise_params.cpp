// rowwise_params.cpp — registers gpu.rowwise for the 0-1 knapsack: each parameter bound to its
// RowwiseConfig field, the rules validate() enforces (checked by `dpgpu check`), the memory
// estimate, and the GPU solve. Host C++ only, so CPU-only builds still list the solver (as
// unavailable) and still check experiment files that name it.
#include <cstdint>
#include <string>
#include <utility>

#include "dpgpu/error.hpp"
#include "dpgpu/registry.hpp"
#include "knapsack/knapsack.hpp"
#include "rowwise_config.hpp"
#include "rowwise_knapsack.hpp"
#include "rowwise_counters.hpp"

namespace dpgpu::rowwise {
namespace {

using C = RowwiseConfig;

[[maybe_unused]] const Registered registered =
    dpgpu::solver<knapsack::Problem, C>(
        "gpu.rowwise",
        "one launch per item computes its whole DP row in parallel over capacities; "
        "decision bits (1 per cell) for the certificate")
        .param("block", &C::block, between(32, 1024), "threads per block, a multiple of 32")
        .rule("block", multiple_of(32))
        .param("offload", &C::offload,
               "stream the decision bits to pinned host memory per chunk of rows while computing; "
               "false: keep them on the device and trace the packing there")
        .choice("readonly", &C::readonly, {"texture", "ldg", "plain"},
                "how kernels read the item weights and values")
        .param("reconstruct", &C::reconstruct,
               "keep decision bits and return the chosen items; false: value only")
        .param("offload_rows", &C::offload_rows, between(0, 1e9),
               "rows per offloaded chunk; 0: about 4 MiB per chunk")
        .param("offload_slots", &C::offload_slots, between(1, 1024),
               "pinned staging slots (chunks in flight to the host)")
        .check([](const C& c) { return refusal_of([&] { validate(c); }); })
        .counters(rowwise_counters())
        .counters(wavefront::offload_counters())
        .check_instance([](const C&, const ValueMap& dims) -> std::optional<std::string> {
          auto it = dims.find("capacity");
          if (it != dims.end() && to_number(it->second) > double(kMaxCapacity))
            return "capacity " + to_string(it->second) + " exceeds the " +
                   std::to_string(kMaxCapacity) + " that 32-bit device weights allow";
          return std::nullopt;
        })
        .memory([](const knapsack::Instance& x, const C& c) {
          if (x.capacity > kMaxCapacity)
            return MemoryNeed{0, 0};  // refused by check_instance / solve()
          const RowwiseGeometry g = rowwise_geometry(x, c);
          return MemoryNeed{host_bytes(g, c), device_bytes(g, c)};
        })
        .solve_gpu([](const knapsack::Instance& x, const C& c, Context& ctx) {
          RowwiseResult r = rowwise_knapsack(x, c, ctx);
          Outcome<knapsack::Solution> out;
          out.objective = r.value;
          if (r.items) out.solution = knapsack::Solution{std::move(*r.items)};
          return out;
        });

}  // namespace
}  // namespace dpgpu::rowwise
