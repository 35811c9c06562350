// backtracking_params.cpp — registers gpu.ivm and gpu.bpdfs for the tsp problem: parameter
// schemas, checks, memory estimates and (in CUDA builds) the solves. Host C++ only, so
// CPU-only builds still list both solvers (as unavailable) and check experiment files.
#include <cstdint>
#include <string>

#include "backtracking_config.hpp"
#include "bp_explorer.hpp"
#include "dpgpu/error.hpp"
#include "dpgpu/registry.hpp"
#include "factoradic.hpp"
#include "hypercube.hpp"
#include "ivm_explorer.hpp"
#include "ivm_packed.hpp"
#include "tsp/search_bound.hpp"
#include "tsp/tsp.hpp"
#if DPGPU_WITH_CUDA
#include "backtracking.hpp"
#endif

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
                     " (the victim selection runs on a virtual arity^dims hypercube; e.g. explorers 262144 = 8^6)");
  return *dims;
}

void validate(const IvmConfig& c) {
  auto need = [](bool ok, const std::string& what) {
    if (!ok) throw InputError("gpu.ivm: " + what);
  };
  need(c.explorers >= 1 && c.explorers <= (1 << 24),
       "parameter 'explorers' = " + std::to_string(c.explorers) + ", allowed [1, 2^24]");
  need(c.arity >= 2 && c.arity <= 1024, "parameter 'arity' = " + std::to_string(c.arity) + ", allowed [2, 1024]");
  need(c.trigger >= 0, "parameter 'trigger' = " + std::to_string(c.trigger) + ", allowed >= 0 (0: explorers / 10)");
  need(c.block >= 32 && c.block <= 1024 && c.block % 32 == 0,
       "parameter 'block' = " + std::to_string(c.block) + ", allowed a multiple of 32 in [32, 1024]");
  need(c.poll >= 1 && c.poll <= (1 << 20), "parameter 'poll' = " + std::to_string(c.poll) + ", allowed [1, 2^20]");
  need(c.slice >= 1, "parameter 'slice' = " + std::to_string(c.slice) + ", allowed >= 1");
  ivm_dims(c);
}

void validate(const BpdfsConfig& c) {
  if (c.dcpu < 1 || c.dcpu > kBpMaxCities)
    throw InputError("gpu.bpdfs: parameter 'dcpu' = " + std::to_string(c.dcpu) + ", allowed [1, 32]");
  if (c.block < 32 || c.block > 1024 || c.block % 32 != 0)
    throw InputError("gpu.bpdfs: parameter 'block' = " + std::to_string(c.block) +
                     ", allowed a multiple of 32 in [32, 1024]");
  if (c.poll < 1 || c.poll > (1 << 20))
    throw InputError("gpu.bpdfs: parameter 'poll' = " + std::to_string(c.poll) + ", allowed [1, 2^20]");
}

namespace {

IvmConfig ivm_config_from(const Params& p) {
  IvmConfig c;
  c.explorers = p.integer("explorers");
  c.trigger = p.integer("trigger");
  c.arity = p.integer("arity");
  c.block = static_cast<int>(p.integer("block"));
  c.poll = p.integer("poll");
  c.slice = p.integer("slice");
  c.check_intervals = p.flag("check_intervals");
  c.ws_graph = p.flag("ws_graph");
  c.state = parse_ivm_state(p.text("state"));
  c.initial_ub = p.text("initial_ub");
  return c;
}

BpdfsConfig bpdfs_config_from(const Params& p) {
  BpdfsConfig c;
  c.dcpu = static_cast<int>(p.integer("dcpu"));
  c.block = static_cast<int>(p.integer("block"));
  c.poll = p.integer("poll");
  c.initial_ub = p.text("initial_ub");
  return c;
}

const char* kInitialUbHelp =
    "bound the search starts from: optimal (the instance's known optimum, the paper's protocol), none, or a "
    "value (quoted)";

SolverBuilder<tsp::Problem> ivm_solver() {
  const IvmConfig d;
  return dpgpu::solver<tsp::Problem>(
             "gpu.ivm",
             "ATSP implicit enumeration with T Integer-Vector-Matrix explorers over factoradic intervals of [0, (n-1)!), "
             "work stealing on the GPU over a virtual hypercube (paper 004); n <= 21")
      .param("explorers", std::int64_t{d.explorers}, between(1, 1 << 24), "T, one thread each; must be arity^dims")
      .param("trigger", std::int64_t{d.trigger}, at_least(0),
             "TreeExplore stops once this many explorers are empty; 0: explorers/10; >= explorers: no balancing")
      .param("arity", std::int64_t{d.arity}, between(2, 1024), "arity p of the virtual hypercube (T = p^dims)")
      .param("block", std::int64_t{d.block}, between(32, 1024), "threads per block, a multiple of 32")
      .param("poll", std::int64_t{d.poll}, between(1, 1 << 20),
             "node evaluations between two reads of the trigger count (and of the shared bound)")
      .param("slice", std::int64_t{d.slice}, at_least(1),
             "polls per TreeExplore launch before it returns to the host (deadline checks)")
      .param("check_intervals", d.check_intervals,
             "debug: copy the intervals back after every phase and check none is lost or duplicated")
      .param("ws_graph", d.ws_graph,
             "launch the kernels of a work-stealing phase (trySelect per dimension and offset, stealWork) as one "
             "CUDA graph captured once; false: plain launches")
      .choice("state", ivm_state_name(d.state), {"packed", "matrix"},
             "explorer state during TreeExplore: packed (path and free mask in registers, the matrix rows implied "
             "by the free mask) or matrix (the paper's IVM, in local memory)")
      .param("initial_ub", d.initial_ub, kInitialUbHelp)
      .memory([](const tsp::Instance& x, const Params& p) {
        const auto T = std::uint64_t(p.integer("explorers"));
        const std::uint64_t state = p.text("state") == "matrix" ? sizeof(IvmExplorer<std::int64_t>)
                                                                   : sizeof(IvmPacked<std::int64_t>);
        const std::uint64_t per = state + 8 * 3 + 1 + 1 + 4;
        return MemoryNeed{T * 16, T * per + std::uint64_t(x.n) * std::uint64_t(x.n) * 8 + 4096};
      });
}

SolverBuilder<tsp::Problem> bpdfs_solver() {
  const BpdfsConfig d;
  return dpgpu::solver<tsp::Problem>(
             "gpu.bpdfs",
             "ATSP implicit enumeration: a CPU search to depth dcpu fills an active set, one GPU thread explores each "
             "node's subtree with a bitset (paper 004's BP-DFS); n <= 32")
      .param("dcpu", std::int64_t{d.dcpu}, between(1, 32), "cities per path of the active set (CPU search depth)")
      .param("block", std::int64_t{d.block}, between(32, 1024), "threads per block, a multiple of 32")
      .param("poll", std::int64_t{d.poll}, between(1, 1 << 20),
             "node evaluations between two reads of the shared bound (each thread keeps a copy)")
      .param("initial_ub", d.initial_ub, kInitialUbHelp);
}

#if DPGPU_WITH_CUDA
Outcome<tsp::Solution> outcome_of(const char* solver, const tsp::Instance& x, std::int64_t bound, SearchOutcome r) {
  if (r.tour.empty())
    throw InputError(std::string(solver) + ": no tour of instance '" + x.name + "' costs <= initial_ub (" +
                     (bound == tsp::kNoBound ? std::string("none") : std::to_string(bound)) +
                     "); the bound is below the optimum");
  Outcome<tsp::Solution> o;
  o.objective = r.cost;
  o.solution = tsp::Solution{std::move(r.tour)};
  return o;
}
#endif

[[maybe_unused]] const Registered registered_ivm =
#if DPGPU_WITH_CUDA
    ivm_solver().solve([](const tsp::Instance& x, const Params& p, Context& ctx) {
      const IvmConfig c = ivm_config_from(p);
      const std::int64_t bound = tsp::starting_bound(x, tsp::parse_initial_ub(c.initial_ub));
      return outcome_of("gpu.ivm", x, bound, ivm_search(x, c, bound, ctx));
    });
#else
    ivm_solver().unavailable("dpgpu was built without CUDA");
#endif

[[maybe_unused]] const Registered registered_bpdfs =
#if DPGPU_WITH_CUDA
    bpdfs_solver().solve([](const tsp::Instance& x, const Params& p, Context& ctx) {
      const BpdfsConfig c = bpdfs_config_from(p);
      const std::int64_t bound = tsp::starting_bound(x, tsp::parse_initial_ub(c.initial_ub));
      return outcome_of("gpu.bpdfs", x, bound, bpdfs_search(x, c, bound, ctx));
    });
#else
    bpdfs_solver().unavailable("dpgpu was built without CUDA");
#endif

}  // namespace
}  // namespace dpgpu::backtracking
