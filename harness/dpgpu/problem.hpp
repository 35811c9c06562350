// problem.hpp — what a problem gives the harness. A problem knows nothing of solvers.
//
// A problem is a struct P with:
//   static constexpr const char* name, help;
//   using Instance = ...;  using Solution = ...;     (the certificate)
//   static Verdict check(const Instance&, const Solution&);  recomputes the objective itself
//   static double work(const Instance&);             cell updates (DP) or nodes (search)
//   static ValueMap dims(const Instance&);           sizes: caps (`max:`) and columns
//   static std::vector<Generator<Instance>> generators();
//   static std::vector<Loaded<Instance>> load(const FileSource&);   throws InputError
// and optionally
//   static std::uint64_t instance_bytes(const std::string& generator, const Params&);
//                                                    host bytes, estimated before building
//   static constexpr const char* file_kinds = "fasta,text";  what load() reads (file_kind.hpp)
// and is registered with DPGPU_REGISTER_PROBLEM(P) in one .cpp of its folder.
#pragma once
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "dpgpu/params.hpp"
#include "dpgpu/value.hpp"

namespace dpgpu {

using Objective = std::int64_t;

struct Verdict {
  bool ok = false;
  Objective objective = 0;
  std::string message;  // why not ok
  static Verdict valid(Objective v) { return {true, v, {}}; }
  static Verdict invalid(std::string why) { return {false, 0, std::move(why)}; }
};

// An instance the problem made or read, with what is known of its optimum.
template <class Instance>
struct Loaded {
  std::string name;  // short label for rows and plots
  Instance instance;
  std::optional<Objective> known_optimum;  // by construction or from the file
};

template <class Instance>
struct Generator {
  std::string name;
  std::string help;
  Schema schema;  // the generator's parameters (n, alphabet, ...)
  std::function<Loaded<Instance>(const Params&, std::uint64_t seed)> make;
};

// A `file:` entry of an experiment: one or more paths (resolved against the YAML's folder)
// and an optional `select:` naming one instance inside a multi-instance file.
struct FileSource {
  std::vector<std::filesystem::path> paths;
  std::string select;
};

}  // namespace dpgpu
