// The registered generators: their parameter schemas and instance names.
#include <fmt/format.h>

#include "edit/generators.hpp"

namespace edit {

namespace {

using dpgpu::ParamSpec;
using dpgpu::ParamType;

ParamSpec length_n() {
  return {"n", ParamType::Int, std::int64_t{1024}, dpgpu::at_least(0), {}, "length of a"};
}
ParamSpec alphabet(std::int64_t lowest, const char* help) {
  return {"alphabet", ParamType::Int, std::int64_t{4}, dpgpu::between(lowest, 256), {}, help};
}

dpgpu::Generator<Instance> random_generator() {
  dpgpu::Schema s;
  s.add(length_n());
  s.add(ParamSpec{"m",
                  ParamType::Int,
                  std::int64_t{-1},
                  dpgpu::at_least(-1),
                  {},
                  "length of b; -1: same as n"});
  s.add(alphabet(1, "number of distinct symbols (4: ACGT)"));
  return {"random", "uniform i.i.d. symbols in both strings (as lcs/random)", std::move(s),
          [](const dpgpu::Params& p, std::uint64_t seed) {
            const auto n = p.integer("n"), m = p.integer("m") < 0 ? n : p.integer("m");
            const auto k = int(p.integer("alphabet"));
            return dpgpu::Loaded<Instance>{fmt::format("random-{}x{}-a{}-s{}", n, m, k, seed),
                                           random_pair(n, m, k, seed), std::nullopt};
          }};
}

dpgpu::Generator<Instance> planted_generator() {
  dpgpu::Schema s;
  s.add(length_n());
  s.add(alphabet(2, "number of distinct symbols; a uses all but the last, the edits the last"));
  s.add(ParamSpec{"distance",
                  ParamType::Int,
                  std::int64_t{64},
                  dpgpu::at_least(0),
                  {},
                  "the edit distance (edits planted in b)"});
  s.add(ParamSpec{"insert_fraction",
                  ParamType::Real,
                  0.5,
                  dpgpu::between(0, 1),
                  {},
                  "share of the edits that are insertions (the rest substitute)"});
  s.add_check([](const dpgpu::Params& p) -> std::optional<std::string> {
    const auto d = p.integer("distance");
    const auto subs = d - std::int64_t(std::llround(p.real("insert_fraction") * double(d)));
    if (subs <= p.integer("n")) return std::nullopt;
    return fmt::format(
        "'distance' {} with 'insert_fraction' {} makes {} substitutions, more than "
        "'n' {} positions",
        d, p.real("insert_fraction"), subs, p.integer("n"));
  });
  return {"planted", "b is a with `distance` edits by a symbol a lacks; distance known exactly",
          std::move(s), [](const dpgpu::Params& p, std::uint64_t seed) {
            const auto n = p.integer("n"), d = p.integer("distance");
            const auto k = int(p.integer("alphabet"));
            const double f = p.real("insert_fraction");
            Planted planted = planted_pair(n, k, d, f, seed);
            return dpgpu::Loaded<Instance>{
                fmt::format("planted-{}-a{}-d{}-i{}-s{}", n, k, d, f, seed),
                std::move(planted.instance), planted.distance};
          }};
}

dpgpu::Generator<Instance> mutated_generator() {
  dpgpu::Schema s;
  s.add(length_n());
  s.add(alphabet(1, "number of distinct symbols (4: ACGT)"));
  s.add(ParamSpec{"divergence",
                  ParamType::Real,
                  0.1,
                  dpgpu::between(0, 1),
                  {},
                  "random edits (substitution, insertion, deletion) per symbol of a"});
  return {"mutated", "a random seed string and a copy of it with random edits", std::move(s),
          [](const dpgpu::Params& p, std::uint64_t seed) {
            const auto n = p.integer("n");
            const auto k = int(p.integer("alphabet"));
            const double d = p.real("divergence");
            return dpgpu::Loaded<Instance>{fmt::format("mutated-{}-a{}-v{}-s{}", n, k, d, seed),
                                           mutated_pair(n, k, d, seed), std::nullopt};
          }};
}

}  // namespace

std::vector<dpgpu::Generator<Instance>> Problem::generators() {
  return {random_generator(), planted_generator(), mutated_generator()};
}

}  // namespace edit
