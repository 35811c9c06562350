// The registered generators: their parameter schemas and instance names.
#include <fmt/format.h>

#include "lcs/generators.hpp"

namespace lcs {

namespace {

using dpgpu::ParamSpec;
using dpgpu::ParamType;

// m = -1 stands for "same as n", so a sweep over n alone gives square instances.
std::int64_t length_of_b(const dpgpu::Params& p) {
  const auto m = p.integer("m");
  return m < 0 ? p.integer("n") : m;
}

dpgpu::Schema lengths_schema() {
  dpgpu::Schema s;
  s.add(ParamSpec{"n", ParamType::Int, std::int64_t{1024}, dpgpu::at_least(0), {}, "length of a"});
  s.add(ParamSpec{"m",
                  ParamType::Int,
                  std::int64_t{-1},
                  dpgpu::at_least(-1),
                  {},
                  "length of b; -1: same as n"});
  return s;
}

dpgpu::Generator<Instance> random_generator() {
  dpgpu::Schema schema = lengths_schema();
  schema.add(ParamSpec{"alphabet",
                       ParamType::Int,
                       std::int64_t{4},
                       dpgpu::between(1, 256),
                       {},
                       "number of distinct symbols (4: ACGT)"});
  return {"random", "uniform i.i.d. symbols in both strings", std::move(schema),
          [](const dpgpu::Params& p, std::uint64_t seed) {
            const auto n = p.integer("n"), m = length_of_b(p);
            const auto k = static_cast<int>(p.integer("alphabet"));
            return dpgpu::Loaded<Instance>{fmt::format("random-{}x{}-a{}-s{}", n, m, k, seed),
                                           random_pair(n, m, k, seed), std::nullopt};
          }};
}

dpgpu::Generator<Instance> planted_generator() {
  dpgpu::Schema schema = lengths_schema();
  schema.add(ParamSpec{"alphabet",
                       ParamType::Int,
                       std::int64_t{4},
                       dpgpu::between(3, 256),
                       {},
                       "number of distinct symbols, split into planted and two filler sets"});
  schema.add(ParamSpec{"lcs_fraction",
                       ParamType::Real,
                       0.5,
                       dpgpu::between(0, 1),
                       {},
                       "LCS length as a fraction of min(n, m), rounded down"});
  return {"planted", "a common string with private filler inserted; LCS known exactly",
          std::move(schema), [](const dpgpu::Params& p, std::uint64_t seed) {
            const auto n = p.integer("n"), m = length_of_b(p);
            const auto k = static_cast<int>(p.integer("alphabet"));
            const double fraction = p.real("lcs_fraction");
            Planted planted = planted_pair(n, m, k, fraction, seed);
            return dpgpu::Loaded<Instance>{
                fmt::format("planted-{}x{}-a{}-f{}-s{}", n, m, k, fraction, seed),
                std::move(planted.instance), planted.lcs_length};
          }};
}

}  // namespace

std::vector<dpgpu::Generator<Instance>> Problem::generators() {
  return {random_generator(), planted_generator()};
}

}  // namespace lcs
