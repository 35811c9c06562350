// rowwise_params.cpp — registers gpu.rowwise for the 0-1 knapsack: its parameter schema, its
// memory estimate, and (in CUDA builds) its solve. Host C++ only, so CPU-only builds still
// list the solver (as unavailable) and still check experiment files that name it.
#include <cstdint>
#include <string>
#include <utility>

#include "dpgpu/error.hpp"
#include "dpgpu/registry.hpp"
#include "knapsack/knapsack.hpp"
#include "rowwise_config.hpp"
#if DPGPU_WITH_CUDA
#include "rowwise_knapsack.hpp"
#endif

namespace dpgpu::rowwise {
namespace {

RowwiseConfig config_from(const Params& p) {
  RowwiseConfig c;
  c.block = static_cast<int>(p.integer("block"));
  c.offload = p.flag("offload");
  c.readonly = p.text("readonly");
  c.reconstruct = p.flag("reconstruct");
  c.offload_rows = p.integer("offload_rows");
  c.offload_slots = p.integer("offload_slots");
  return c;
}

SolverBuilder<knapsack::Problem> rowwise_solver() {
  const RowwiseConfig d;  // defaults
  return dpgpu::solver<knapsack::Problem>(
             "gpu.rowwise",
             "one launch per item computes its whole DP row in parallel over capacities; "
             "decision bits (1 per cell) for the certificate")
      .param("block", std::int64_t{d.block}, between(32, 1024), "threads per block, a multiple of 32")
      .param("offload", d.offload,
             "stream the decision bits to pinned host memory per chunk of rows while computing; "
             "false: keep them on the device and trace the packing there")
      .choice("readonly", d.readonly, {"texture", "ldg", "plain"},
              "how kernels read the item weights and values")
      .param("reconstruct", d.reconstruct, "keep decision bits and return the chosen items; false: value only")
      .param("offload_rows", d.offload_rows, between(0, 1e9), "rows per offloaded chunk; 0: about 4 MiB per chunk")
      .param("offload_slots", d.offload_slots, between(1, 1024), "pinned staging slots (chunks in flight to the host)")
      .memory([](const knapsack::Instance& x, const Params& p) {
        const RowwiseConfig c = config_from(p);
        if (x.capacity > kMaxCapacity) return MemoryNeed{0, 0};  // solve() refuses it by name
        const RowwiseGeometry g = rowwise_geometry(x, c);
        return MemoryNeed{host_bytes(g, c), device_bytes(g, c)};
      });
}

[[maybe_unused]] const Registered registered =
#if DPGPU_WITH_CUDA
    rowwise_solver().solve([](const knapsack::Instance& x, const Params& p, Context& ctx) {
      RowwiseResult r = rowwise_knapsack(x, config_from(p), ctx);
      Outcome<knapsack::Solution> out;
      out.objective = r.value;
      if (r.items) out.solution = knapsack::Solution{std::move(*r.items)};
      return out;
    });
#else
    rowwise_solver().unavailable("dpgpu was built without CUDA");
#endif

}  // namespace
}  // namespace dpgpu::rowwise
