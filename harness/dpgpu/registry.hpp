// registry.hpp — problems and solvers declare themselves where they live; the harness
// finds them here by name and never includes them.
//
//   DPGPU_REGISTER_PROBLEM(lcs::Problem);
//
// A solver whose parameters are the fields of a config struct declares each one once, bound
// to its field (type and default come from the field), and gets the config built for it:
//
//   struct Config { int block = 256; bool offload = true; Mode mode = Mode::Tile; };
//   static const auto registered = dpgpu::solver<lcs::Problem, Config>("gpu.x", "what it is")
//       .param("block", &Config::block, dpgpu::between(32, 1024), "threads per block")
//       .rule("block", dpgpu::multiple_of(32))
//       .param("offload", &Config::offload, "bits to the host while computing")
//       .choice("mode", &Config::mode, {{"tile", Mode::Tile}, {"cell", Mode::Cell}}, "...")
//       .check([](const Config& c) -> std::optional<std::string> { ... })  // across parameters
//       .check_instance([](const Config& c, const dpgpu::ValueMap& dims) { ... })  // with sizes
//       .check_device([](const Config& c, const lcs::Instance& x) { ... })  // needs the GPU
//       .memory([](const lcs::Instance& x, const Config& c) { return dpgpu::MemoryNeed{...}; })
//       .solve_gpu([](const lcs::Instance& x, const Config& c, dpgpu::Context& ctx) {
//           return dpgpu::Outcome<lcs::Solution>{...}; });
//
// `solve_gpu` is the one registration for a GPU solve: in a build without CUDA the solver is
// listed as unavailable ("dpgpu was built without CUDA"), and where no GPU is usable a solve
// throws GpuUnavailable with a reason a user can act on. The solve's body must then only call
// functions declared in CUDA-free headers; it is never emitted without CUDA, so their
// definitions may live in .cu files that CPU-only builds leave out.
//
// Solvers without a config read values by name (`Params::integer("block")`, ...):
//
//   dpgpu::solver<lcs::Problem>("cpu.linear", "two rows, length only")
//       .param("threads", std::int64_t{0}, dpgpu::at_least(0), "0: all cores")
//       .solve([](const lcs::Instance& x, const dpgpu::Params& p, dpgpu::Context& ctx) { ... });
//
// The registration declares where a solver runs, never its name: `solve_gpu` (or
// `.backend(Backend::Gpu, ...)` for a library's device backend) makes a GPU solver, run in a
// child process and timed by CUDA events on ctx.stream(); `solve` a CPU one. A "gpu." name
// registered as a CPU solve is a broken registration. One solver name may be registered for
// several problems.
//
// This header gathers the registration's parts, one role each: registry_entries.hpp (what is
// held), registry_table.hpp (the table, Registry::get()), problem_registration.hpp
// (DPGPU_REGISTER_PROBLEM), solver_builder.hpp (dpgpu::solver), source_location.hpp.
#pragma once
#include "dpgpu/problem_registration.hpp"
#include "dpgpu/registry_entries.hpp"
#include "dpgpu/registry_table.hpp"
#include "dpgpu/solver_builder.hpp"
