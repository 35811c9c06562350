// The registered generators: their parameter schemas and instance names.
#include <fmt/format.h>

#include "tsp/generators.hpp"

namespace tsp {

namespace {

using dpgpu::ParamSpec;
using dpgpu::ParamType;

ParamSpec cities_spec() {
  return ParamSpec{"n", ParamType::Int, std::int64_t{16}, dpgpu::between(1, kMaxCities), {}, "number of cities"};
}

dpgpu::Loaded<Instance> named(Instance x, std::string name) {
  x.name = name;
  return dpgpu::Loaded<Instance>{std::move(name), std::move(x), std::nullopt};
}

dpgpu::Generator<Instance> euclidean_generator() {
  dpgpu::Schema schema;
  schema.add(cities_spec());
  schema.add(ParamSpec{"side", ParamType::Int, std::int64_t{1000}, dpgpu::between(1, double(kMaxSide)), {},
                       "integer coordinates uniform in [0, side)"});
  return {"euclidean", "uniform points in a square, TSPLIB EUC_2D distances (symmetric)", std::move(schema),
          [](const dpgpu::Params& p, std::uint64_t seed) {
            const auto n = static_cast<int>(p.integer("n"));
            const auto side = p.integer("side");
            return named(euclidean(n, side, seed), fmt::format("euclidean-n{}-side{}-s{}", n, side, seed));
          }};
}

dpgpu::Generator<Instance> random_matrix_generator() {
  dpgpu::Schema schema;
  schema.add(cities_spec());
  schema.add(ParamSpec{"min", ParamType::Int, std::int64_t{1}, dpgpu::between(0, double(kMaxWeight)), {},
                       "smallest arc cost"});
  schema.add(ParamSpec{"max", ParamType::Int, std::int64_t{1000}, dpgpu::between(0, double(kMaxWeight)), {},
                       "largest arc cost (>= min)"});
  return {"random_matrix", "every arc uniform in [min, max], independently (asymmetric)", std::move(schema),
          [](const dpgpu::Params& p, std::uint64_t seed) {
            const auto n = static_cast<int>(p.integer("n"));
            const auto lo = p.integer("min"), hi = p.integer("max");
            return named(random_matrix(n, lo, hi, seed),
                         fmt::format("random_matrix-n{}-{}to{}-s{}", n, lo, hi, seed));
          }};
}

}  // namespace

std::vector<dpgpu::Generator<Instance>> Problem::generators() {
  return {euclidean_generator(), random_matrix_generator()};
}

}  // namespace tsp
