// stringzilla_params.cpp — registers StringZilla's batched Levenshtein as peers over
// edit_batch (stringzilla_peer.hpp): peer.stringzilla (stringzillas-cuda on the GPU) and
// peer.stringzilla_cpu (its CPU backend, all cores). Each row's time is the library call
// alone, as the worker times it (strings built, engine warmed up); the worker's whole run is
// the counter worker_s. Where the package is missing, `dpgpu check` says so and what to
// install: the CPU peer refuses its cases, the GPU peer where a GPU is usable.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "dpgpu/registry.hpp"
#include "edit/batch.hpp"
#include "stringzilla_peer.hpp"

namespace dpgpu::myers {
namespace {

std::optional<std::string> cross_only(const edit::BatchInstance& x) {
  if (x.cross) return std::nullopt;
  return std::string(
      "StringZilla's call computes every pair of two lists: it runs the cross "
      "shape (generator cross, or two files), not independent pairs");
}

std::optional<std::string> usable(const std::string& backend) {
  const std::string why = stringzilla_unavailable(backend);
  if (why.empty()) return std::nullopt;
  return "StringZilla's worker cannot run (" + why + ")";
}

Outcome<edit::BatchSolution> outcome(PeerRun r, Context& ctx) {
  ctx.report_elapsed_s(r.library_s);
  ctx.set("worker_s", r.worker_s);
  std::int64_t sum = 0;
  for (const auto v : r.distances) sum += v;
  const auto checksum = edit::batch_checksum(r.distances);
  return {sum, edit::BatchSolution{std::move(r.distances)}, checksum};
}

template <class Builder>
Builder& declare(Builder& b) {
  b.check_instance([](const Params&, const edit::BatchInstance& x) { return cross_only(x); })
      .counter(counters::seconds("worker_s",
                                 "the worker's whole run (interpreter, strings, warm-up, call, "
                                 "output); the row's time is the library call alone"))
      .memory([](const edit::BatchInstance& x, const Params&) {
        const std::uint64_t strings = x.a.text.size() + x.b.text.size();
        return MemoryNeed{3 * strings + x.pairs() * 16, strings + x.pairs() * 8};
      });
  return b;
}

[[maybe_unused]] const Registered registered_gpu = [] {
  auto b = dpgpu::solver<edit::BatchProblem>(
      "peer.stringzilla",
      "StringZilla's stringzillas-cuda LevenshteinDistances (Python worker), cross shape; the "
      "time is the library call alone (strings built, engine warmed up)");
  declare(b).check_device([](const Params&, const edit::BatchInstance&) { return usable("cuda"); });
  return b.solve_gpu([](const edit::BatchInstance& x, const Params&, Context& ctx) {
    return outcome(run_stringzilla(x, "cuda"), ctx);
  });
}();

[[maybe_unused]] const Registered registered_cpu = [] {
  auto b = dpgpu::solver<edit::BatchProblem>(
      "peer.stringzilla_cpu",
      "StringZilla's CPU backend (stringzillas-cpus, all cores; Python worker), cross shape; "
      "the time is the library call alone (strings built, engine warmed up)");
  declare(b).check_instance(
      [](const Params&, const edit::BatchInstance&) { return usable("cpu"); });
  return b.solve([](const edit::BatchInstance& x, const Params&, Context& ctx) {
    return outcome(run_stringzilla(x, "cpu"), ctx);
  });
}();

}  // namespace
}  // namespace dpgpu::myers
