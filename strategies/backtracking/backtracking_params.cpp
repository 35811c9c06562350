// backtracking_params.cpp — registers gpu.ivm and gpu.bpdfs for the tsp problem: parameter
// schemas, checks, memory estimates and (in CUDA builds) the solves. Host C++ only, so
// CPU-only builds still list both solvers (as unavailable) and check experiment files.
#include <cstdint>
#include <optional>
#include <string>

#include "backtracking_config.hpp"
#include "backtracking_counters.hpp"
#include "bp_explorer.hpp"
#include "dpgpu/error.hpp"
#include "dpgpu/registry.hpp"
#include "factoradic.hpp"
#include "hypercube.hpp"
#include "ivm_explorer.hpp"
#include "ivm_packed.hpp"
#include "tsp/search_bound.hpp"
#include "tsp/tsp.hpp"
#include "backtracking.hpp"

namespace dpgpu::backtracking {

std::int64_t effective_trigger(const IvmConfig& c) {
  if (c.trigger > 0) return c.trigger;
  return std::max<std::int64_t>(1, c.explorers / 10);
}

IvmState parse_ivm_state(const std::string& s) {
  if (s == "packed") return IvmState::Packed;
  if (s == "matrix") return IvmState::Matrix;
  throw InputError("gpu.ivm: parameter 'state' = '" + s + "', allowed packed, matrix");
}

const char* ivm_state_name(IvmState s) { return s == IvmState::Packed ? "packed" : "matrix"; }

int ivm_dims(const IvmConfig& c) {
  const auto dims = hypercube_dims(std::uint64_t(c.explorers), std::uint64_t(c.arity));
  if (!dims)
    throw InputError("gpu.ivm: parameter 'explorers' = " + std::to_string(c.explorers) +
                     " is not a power of parameter 'arity' = " + std::to_string(c.arity) +
                     " (the victim selection runs on a virtual arity^dims hypercube; e.g. "
                     "explorers 262144 = 8^6)");
  return *dims;
}

void validate(const IvmConfig& c) {
  auto need = [](bool ok, const std::string& what) {
    if (!ok) throw InputError("gpu.ivm: " + what);
  };
  need(c.explorers >= 1 && c.explorers <= (1 << 24),
       "parameter 'explorers' = " + std::to_string(c.explorers) + ", allowed [1, 2^24]");
  need(c.arity >= 2 && c.arity <= 1024,
       "parameter 'arity' = " + std::to_string(c.arity) + ", allowed [2, 1024]");
  need(c.trigger >= 0,
       "parameter 'trigger' = " + std::to_string(c.trigger) + ", allowed >= 0 (0: explorers / 10)");
  need(c.block >= 32 && c.block <= 1024 && c.block % 32 == 0,
       "parameter 'block' = " + std::to_string(c.block) +
           ", allowed a multiple of 32 in [32, 1024]");
  need(c.poll >= 1 && c.poll <= (1 << 20),
       "parameter 'poll' = " + std::to_string(c.poll) + ", allowed [1, 2^20]");
  need(c.slice >= 1, "parameter 'slice' = " + std::to_string(c.slice) + ", allowed >= 1");
  need(c.gpus >= 1 && c.gpus <= 64,
       "parameter 'gpus' = " + std::to_string(c.gpus) + ", allowed [1, 64]");
  ivm_dims(c);
}

void validate(const BpdfsConfig& c) {
  if (c.dcpu < 1 || c.dcpu > kBpMaxCities)
    throw InputError("gpu.bpdfs: parameter 'dcpu' = " + std::to_string(c.dcpu) +
                     ", allowed [1, 32]");
  if (c.block < 32 || c.block > 1024 || c.block % 32 != 0)
    throw InputError("gpu.bpdfs: parameter 'block' = " + std::to_string(c.block) +
                     ", allowed a multiple of 32 in [32, 1024]");
  if (c.poll < 1 || c.poll > (1 << 20))
    throw InputError("gpu.bpdfs: parameter 'poll' = " + std::to_string(c.poll) +
                     ", allowed [1, 2^20]");
}

namespace {

const char* kInitialUbHelp =
    "bound the search starts from: optimal (the instance's known optimum, the paper's protocol; "
    "Held-Karp finds it "
    "at planning for a file without one when n <= 22), none, or a value (quoted)";

// The rules both searches share: n within the explorer's limit, initial_ub startable on x.
template <class C>
std::optional<std::string> search_rule(const char* solver, int max_n, const char* why_max,
                                       const C& c, const tsp::Instance& x) {
  if (x.n < 1 || x.n > max_n)
    return std::string(solver) + ": n = " + std::to_string(x.n) + " cities; at most " +
           std::to_string(max_n) + " (" + why_max + ")";
  return tsp::initial_ub_refusal(x, c.initial_ub);
}

SolverBuilder<tsp::Problem, IvmConfig> ivm_solver() {
  using C = IvmConfig;
  return dpgpu::solver<tsp::Problem, C>(
             "gpu.ivm",
             "ATSP implicit enumeration with T Integer-Vector-Matrix explorers over factoradic "
             "intervals of [0, (n-1)!), "
             "work stealing on the GPU over a virtual hypercube (paper 004); n <= 21")
      .param("explorers", &C::explorers, between(1, 1 << 24),
             "T, one thread each; must be arity^dims")
      .param("trigger", &C::trigger, at_least(0),
             "TreeExplore stops once this many explorers are empty; 0: explorers/10; >= explorers: "
             "no balancing")
      .param("arity", &C::arity, between(2, 1024), "arity p of the virtual hypercube (T = p^dims)")
      .param("block", &C::block, between(32, 1024), "threads per block, a multiple of 32")
      .rule("block", multiple_of(32))
      .param("poll", &C::poll, between(1, 1 << 20),
             "node evaluations between two reads of the trigger count (and of the shared bound)")
      .param("slice", &C::slice, at_least(1),
             "polls per TreeExplore launch before it returns to the host (deadline checks)")
      .param(
          "check_intervals", &C::check_intervals,
          "debug: copy the intervals back after every phase and check none is lost or duplicated")
      .param("ws_graph", &C::ws_graph,
             "launch the kernels of a work-stealing phase (trySelect per dimension and offset, "
             "stealWork) as one "
             "CUDA graph captured once; false: plain launches")
      .choice("state", &C::state, {{"packed", IvmState::Packed}, {"matrix", IvmState::Matrix}},
              "explorer state during TreeExplore: packed (path and free mask in registers, the "
              "matrix rows implied "
              "by the free mask) or matrix (the paper's IVM, in local memory)")
      .param("initial_ub", &C::initial_ub, kInitialUbHelp)
      .rule("initial_ub", tsp::initial_ub_rule())
      .param("gpus", &C::gpus, between(1, 64),
             "logical GPUs sharing the search (each with `explorers` explorers; work stolen "
             "between GPUs through "
             "peer copies); logical i runs on visible device i mod the device count")
      .check([](const C& c) { return refusal_of([&] { validate(c); }); })  // explorers = arity^dims
      .check_instance([](const C& c, const tsp::Instance& x) {
        return search_rule("gpu.ivm", kIvmMaxCities,
                           "positions in [0, (n-1)!) are 64-bit: 20! < 2^64 < 21!", c, x);
      })
      .needs_optimum([](const C& c) { return tsp::needs_optimum(c.initial_ub); })
      .work_counter("nodes")
      .counters(search_counters())
      .counters(ivm_counters())
      .memory([](const tsp::Instance& x, const C& c) {
        const auto T = std::uint64_t(c.explorers);
        const std::uint64_t state = c.state == IvmState::Matrix ? sizeof(IvmExplorer<std::int64_t>)
                                                                : sizeof(IvmPacked<std::int64_t>);
        const std::uint64_t per = state + 8 * 3 + 1 + 1 + 4;
        const auto G = std::uint64_t(c.gpus);  // all on one card at worst
        return MemoryNeed{
            G * T * 16, G * (T * (per + 16) + std::uint64_t(x.n) * std::uint64_t(x.n) * 8 + 4096)};
      });
}

SolverBuilder<tsp::Problem, BpdfsConfig> bpdfs_solver() {
  using C = BpdfsConfig;
  return dpgpu::solver<tsp::Problem, C>(
             "gpu.bpdfs",
             "ATSP implicit enumeration: a CPU search to depth dcpu fills an active set, one GPU "
             "thread explores each "
             "node's subtree with a bitset (paper 004's BP-DFS); n <= 32")
      .param("dcpu", &C::dcpu, between(1, kBpMaxCities),
             "cities per path of the active set (CPU search depth)")
      .param("block", &C::block, between(32, 1024), "threads per block, a multiple of 32")
      .rule("block", multiple_of(32))
      .param("poll", &C::poll, between(1, 1 << 20),
             "node evaluations between two reads of the shared bound (each thread keeps a copy)")
      .param("initial_ub", &C::initial_ub, kInitialUbHelp)
      .rule("initial_ub", tsp::initial_ub_rule())
      .check([](const C& c) { return refusal_of([&] { validate(c); }); })
      .check_instance([](const C& c, const tsp::Instance& x) {
        return search_rule("gpu.bpdfs", kBpMaxCities, "one 32-bit bitset per path", c, x);
      })
      .needs_optimum([](const C& c) { return tsp::needs_optimum(c.initial_ub); })
      .work_counter("nodes")
      .counters(search_counters())
      .counters(bpdfs_counters());
}

Outcome<tsp::Solution> outcome_of(const char* solver, const tsp::Instance& x, std::int64_t bound,
                                  SearchOutcome r) {
  if (r.tour.empty())
    throw InputError(std::string(solver) + ": no tour of instance '" + x.name +
                     "' costs <= initial_ub (" +
                     (bound == tsp::kNoBound ? std::string("none") : std::to_string(bound)) +
                     "); the bound is below the optimum");
  Outcome<tsp::Solution> o;
  o.objective = r.cost;
  o.solution = tsp::Solution{std::move(r.tour)};
  return o;
}

[[maybe_unused]] const Registered registered_ivm =
    ivm_solver().solve_gpu([](const tsp::Instance& x, const IvmConfig& c, Context& ctx) {
      const std::int64_t bound = tsp::starting_bound(x, tsp::parse_initial_ub(c.initial_ub));
      return outcome_of("gpu.ivm", x, bound, ivm_search(x, c, bound, ctx));
    });

[[maybe_unused]] const Registered registered_bpdfs =
    bpdfs_solver().solve_gpu([](const tsp::Instance& x, const BpdfsConfig& c, Context& ctx) {
      const std::int64_t bound = tsp::starting_bound(x, tsp::parse_initial_ub(c.initial_ub));
      return outcome_of("gpu.bpdfs", x, bound, bpdfs_search(x, c, bound, ctx));
    });

}  // namespace
}  // namespace dpgpu::backtracking
