// A toy problem for end-to-end tests of the runner: its solvers answer right, answer wrong,
// crash, hang, run out of memory, or take a known time, so every runner path is exercised.
// Linked only into the `dpgpu_toy` test binary.
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <thread>

#include "dpgpu/error.hpp"
#include "dpgpu/registry.hpp"

namespace toy {

struct Instance {
  std::int64_t n = 0;
};
struct Solution {
  std::int64_t value = 0;
};

struct Problem {
  static constexpr const char* name = "toy";
  static constexpr const char* help = "the objective is n (runner tests only)";
  using Instance = toy::Instance;
  using Solution = toy::Solution;
  static dpgpu::Verdict check(const Instance& x, const Solution& s) {
    if (s.value > x.n) return dpgpu::Verdict::invalid("value above n");
    return dpgpu::Verdict::valid(s.value);
  }
  static double work(const Instance& x) { return double(x.n); }
  static dpgpu::ValueMap dims(const Instance& x) { return {{"n", x.n}}; }
  // The toy claims a MiB per unit of n, so a large n exercises the estimate before building.
  static std::uint64_t instance_bytes(const std::string&, const dpgpu::Params& p) {
    return std::uint64_t(p.integer("n")) << 20;
  }
  static std::vector<dpgpu::Generator<Instance>> generators() {
    dpgpu::Schema s;
    s.add({"n", dpgpu::ParamType::Int, std::int64_t{10}, dpgpu::between(0, 1e9), {}, "the answer"});
    return {{"count", "instance whose optimum is n", s, [](const dpgpu::Params& p, std::uint64_t) {
               dpgpu::Loaded<Instance> l;
               l.name = "count";
               l.instance.n = p.integer("n");
               l.known_optimum = l.instance.n;
               return l;
             }}};
  }
  static std::vector<dpgpu::Loaded<Instance>> load(const dpgpu::FileSource& src) {
    throw dpgpu::InputError(src.paths.at(0).string() + ": toy instances cannot be read from files");
  }
};

DPGPU_REGISTER_PROBLEM(Problem);

using Out = dpgpu::Outcome<Solution>;

static const auto right =
    dpgpu::solver<Problem>("cpu.right", "answers n with a certificate")
        .param("sleep_ms", std::int64_t{0}, dpgpu::between(0, 10000), "time to spend")
        .counter(dpgpu::counters::count("answers", "answers", "answers given (1)"))
        .solve([](const Instance& x, const dpgpu::Params& p, dpgpu::Context& ctx) {
          auto c = ctx.phase("compute");
          std::this_thread::sleep_for(std::chrono::milliseconds(p.integer("sleep_ms")));
          ctx.set("answers", 1);
          return Out{x.n, Solution{x.n}, std::nullopt};
        });

// Its `threads` only names the CPU threads a case asks for (reproduce's cores rule).
static const auto threaded =
    dpgpu::solver<Problem>("cpu.threaded", "answers n; `threads` is recorded, not used")
        .param("threads", std::int64_t{1}, dpgpu::between(1, 4096), "CPU threads asked for")
        .solve([](const Instance& x, const dpgpu::Params&, dpgpu::Context&) {
          return Out{x.n, Solution{x.n}, std::nullopt};
        });

static const auto bare = dpgpu::solver<Problem>("cpu.bare", "answers n without a certificate")
                             .solve([](const Instance& x, const dpgpu::Params&, dpgpu::Context&) {
                               return Out{x.n, std::nullopt, std::nullopt};
                             });

static const auto wrong =
    dpgpu::solver<Problem>("cpu.wrong", "answers n - 1 with a matching certificate")
        .solve([](const Instance& x, const dpgpu::Params&, dpgpu::Context&) {
          return Out{x.n - 1, Solution{x.n - 1}, std::nullopt};
        });

static const auto crash =
    dpgpu::solver<Problem>("cpu.crash", "aborts the process")
        .solve([](const Instance&, const dpgpu::Params&, dpgpu::Context&) -> Out { std::abort(); });

static const auto hang =
    dpgpu::solver<Problem>("cpu.hang", "never returns and ignores its deadline")
        .solve([](const Instance&, const dpgpu::Params&, dpgpu::Context&) -> Out {
          for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
        });

static const auto polite =
    dpgpu::solver<Problem>("cpu.polite_hang", "loops until its deadline")
        .solve([](const Instance&, const dpgpu::Params&, dpgpu::Context& ctx) -> Out {
          for (;;) {
            ctx.check_deadline();
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
          }
        });

static const auto oom =
    dpgpu::solver<Problem>("cpu.oom", "runs out of memory")
        .solve([](const Instance&, const dpgpu::Params&, dpgpu::Context&) -> Out {
          throw dpgpu::OutOfMemory("needs 10 TiB");
        });

static const auto greedy =
    dpgpu::solver<Problem>("cpu.greedy", "asks for more memory than any machine has")
        .memory([](const Instance&, const dpgpu::Params&) {
          return dpgpu::MemoryNeed{std::uint64_t(1) << 60, 0};
        })
        .solve([](const Instance& x, const dpgpu::Params&, dpgpu::Context&) {
          return Out{x.n, std::nullopt, std::nullopt};
        });

// Killed by SIGKILL, as the kernel's OOM killer kills, the first time it runs (while the file
// $DPGPU_TOY_KILL_ONCE does not exist yet); answers n on any later run.
static const auto killed_once =
    dpgpu::solver<Problem>("cpu.killed_once", "SIGKILLed the first time (as by the OOM killer)")
        .solve([](const Instance& x, const dpgpu::Params&, dpgpu::Context&) {
          const char* flag = std::getenv("DPGPU_TOY_KILL_ONCE");
          if (flag && !std::ifstream(flag)) {
            std::ofstream(flag) << "killed\n";
            std::raise(SIGKILL);
          }
          return Out{x.n, Solution{x.n}, std::nullopt};
        });

// Its memory estimate saturates (an overflowing product), as an estimate of a huge case can.
static const auto overflowing =
    dpgpu::solver<Problem>("cpu.overflowing", "a memory estimate that overflows")
        .memory([](const Instance&, const dpgpu::Params&) {
          return dpgpu::MemoryNeed{UINT64_MAX, 0};
        })
        .solve([](const Instance& x, const dpgpu::Params&, dpgpu::Context&) {
          return Out{x.n, std::nullopt, std::nullopt};
        });

static const auto noisy =
    dpgpu::solver<Problem>("cpu.noisy", "takes 2 ms and 40 ms in turn (noisy timings)")
        .solve([](const Instance& x, const dpgpu::Params&, dpgpu::Context&) {
          static int calls = 0;
          std::this_thread::sleep_for(std::chrono::milliseconds(calls++ % 2 ? 40 : 2));
          return Out{x.n, Solution{x.n}, std::nullopt};
        });

static const auto steps =
    dpgpu::solver<Problem>("cpu.steps", "answers n; its series run records step i -> i*i")
        .counter(dpgpu::counters::count("series_wanted", "flag", "1 on the series run, else 0"))
        .solve([](const Instance& x, const dpgpu::Params&, dpgpu::Context& ctx) {
          ctx.set("series_wanted", ctx.series_wanted() ? 1 : 0);  // timed runs must say 0
          for (std::int64_t i = 0; i < x.n; ++i)
            ctx.series("step_square", std::size_t(i), double(i * i));
          return Out{x.n, Solution{x.n}, std::nullopt};
        });

static const auto sleep_n =
    dpgpu::solver<Problem>("cpu.sleep_n", "answers n after n ms: time in proportion to work")
        .solve([](const Instance& x, const dpgpu::Params&, dpgpu::Context&) {
          std::this_thread::sleep_for(std::chrono::milliseconds(x.n));
          return Out{x.n, Solution{x.n}, std::nullopt};
        });

// Sets a counter its registration does not declare: every run is an error naming both.
static const auto undeclared =
    dpgpu::solver<Problem>("cpu.undeclared", "answers n; sets a counter it does not declare")
        .solve([](const Instance& x, const dpgpu::Params&, dpgpu::Context& ctx) {
          ctx.set("surprise", 1);
          return Out{x.n, Solution{x.n}, std::nullopt};
        });

static const auto small_only =
    dpgpu::solver<Problem>("cpu.small_only", "answers n; a rule refuses n above 100")
        .check_instance([](const dpgpu::Params&,
                           const dpgpu::ValueMap& dims) -> std::optional<std::string> {
          if (dpgpu::to_number(dims.at("n")) > 100)
            return "n=" + dpgpu::to_string(dims.at("n")) + " is above the 100 this solver takes";
          return std::nullopt;
        })
        .solve([](const Instance& x, const dpgpu::Params&, dpgpu::Context&) {
          return Out{x.n, Solution{x.n}, std::nullopt};
        });

static const auto gpu_only =
    dpgpu::solver<Problem>("gpu.none", "a GPU solver that is never available")
        .backend(dpgpu::Backend::Gpu)
        .unavailable("registered without an implementation (test)");

// A second problem, so one experiment file can hold parts of two problems: the objective is 2n.
struct Doubled {
  static constexpr const char* name = "toy_doubled";
  static constexpr const char* help = "the objective is 2n (runner tests only)";
  using Instance = toy::Instance;
  using Solution = toy::Solution;
  static dpgpu::Verdict check(const Instance& x, const Solution& s) {
    return s.value == 2 * x.n ? dpgpu::Verdict::valid(s.value) : dpgpu::Verdict::invalid("not 2n");
  }
  static double work(const Instance& x) { return double(x.n); }
  static dpgpu::ValueMap dims(const Instance& x) { return {{"n", x.n}}; }
  static std::vector<dpgpu::Generator<Instance>> generators() {
    dpgpu::Schema s;
    s.add({"n",
           dpgpu::ParamType::Int,
           std::int64_t{10},
           dpgpu::between(0, 1e9),
           {},
           "half the answer"});
    return {{"half", "instance whose optimum is 2n", s, [](const dpgpu::Params& p, std::uint64_t) {
               dpgpu::Loaded<Instance> l;
               l.name = "half";
               l.instance.n = p.integer("n");
               return l;
             }}};
  }
  static std::vector<dpgpu::Loaded<Instance>> load(const dpgpu::FileSource& src) {
    throw dpgpu::InputError(src.paths.at(0).string() + ": toy instances cannot be read from files");
  }
};

DPGPU_REGISTER_PROBLEM(Doubled);

static const auto doubler =
    dpgpu::solver<Doubled>("cpu.double", "answers 2n with a certificate")
        .solve([](const Instance& x, const dpgpu::Params&, dpgpu::Context&) {
          return Out{2 * x.n, Solution{2 * x.n}, std::nullopt};
        });

// No certificate, and the instance has no known optimum: nothing checks it (valid = n/a).
static const auto double_length =
    dpgpu::solver<Doubled>("cpu.double_length", "answers 2n without a certificate")
        .solve([](const Instance& x, const dpgpu::Params&, dpgpu::Context&) {
          return Out{2 * x.n, std::nullopt, std::nullopt};
        });

}  // namespace toy
