// The registered generators: their parameter schemas and instance names.
#include <fmt/format.h>

#include "tsp/atsp_classes.hpp"
#include "tsp/generators.hpp"
#include "tsp/reference.hpp"

namespace tsp {

namespace {

using dpgpu::ParamSpec;
using dpgpu::ParamType;

ParamSpec cities_spec() {
  return ParamSpec{"n", ParamType::Int,    std::int64_t{16}, dpgpu::between(1, kMaxCities),
                   {},  "number of cities"};
}

dpgpu::Loaded<Instance> named(Instance x, std::string name) {
  x.name = name;
  return dpgpu::Loaded<Instance>{std::move(name), std::move(x), std::nullopt};
}

dpgpu::Generator<Instance> euclidean_generator() {
  dpgpu::Schema schema;
  schema.add(cities_spec());
  schema.add(ParamSpec{"side",
                       ParamType::Int,
                       std::int64_t{1000},
                       dpgpu::between(1, double(kMaxSide)),
                       {},
                       "integer coordinates uniform in [0, side)"});
  return {"euclidean", "uniform points in a square, TSPLIB EUC_2D distances (symmetric)",
          std::move(schema), [](const dpgpu::Params& p, std::uint64_t seed) {
            const auto n = static_cast<int>(p.integer("n"));
            const auto side = p.integer("side");
            return named(euclidean(n, side, seed),
                         fmt::format("euclidean-n{}-side{}-s{}", n, side, seed));
          }};
}

dpgpu::Generator<Instance> random_matrix_generator() {
  dpgpu::Schema schema;
  schema.add(cities_spec());
  schema.add(ParamSpec{"min",
                       ParamType::Int,
                       std::int64_t{1},
                       dpgpu::between(0, double(kMaxWeight)),
                       {},
                       "smallest arc cost"});
  schema.add(ParamSpec{"max",
                       ParamType::Int,
                       std::int64_t{1000},
                       dpgpu::between(0, double(kMaxWeight)),
                       {},
                       "largest arc cost (>= min)"});
  return {"random_matrix", "every arc uniform in [min, max], independently (asymmetric)",
          std::move(schema), [](const dpgpu::Params& p, std::uint64_t seed) {
            const auto n = static_cast<int>(p.integer("n"));
            const auto lo = p.integer("min"), hi = p.integer("max");
            return named(random_matrix(n, lo, hi, seed),
                         fmt::format("random_matrix-n{}-{}to{}-s{}", n, lo, hi, seed));
          }};
}

// The ATSP classes (atsp_classes.hpp) know their optimum when n <= optimum_max_n: Held-Karp
// runs here, at generation, never inside a timed solve (n = 22: about a second, ~180 MB).
ParamSpec optimum_max_n_spec() {
  return ParamSpec{"optimum_max_n",
                   ParamType::Int,
                   std::int64_t{kDefaultOptimumMaxN},
                   dpgpu::between(0, kMaxHeldKarpOptimum),
                   {},
                   "compute the optimum (Held-Karp, at generation) when n <= this"};
}

dpgpu::Loaded<Instance> with_optimum(Instance x, std::string name, const dpgpu::Params& p) {
  if (x.n <= p.integer("optimum_max_n")) x.optimum = held_karp_optimum(x);
  auto optimum = x.optimum;
  x.name = name;
  return dpgpu::Loaded<Instance>{std::move(name), std::move(x), optimum};
}

// amat, tmat, tsmat: the same parameters, one maker each.
dpgpu::Generator<Instance> matrix_class_generator(const char* name, const char* help,
                                                  Instance (*make)(int, std::int64_t, std::int64_t,
                                                                   std::uint64_t)) {
  dpgpu::Schema schema;
  schema.add(cities_spec());
  schema.add(ParamSpec{"min",
                       ParamType::Int,
                       std::int64_t{0},
                       dpgpu::between(0, double(kMaxWeight)),
                       {},
                       "smallest arc drawn (DIMACS: 0, unverified)"});
  schema.add(ParamSpec{"max",
                       ParamType::Int,
                       kMatrixClassMax,
                       dpgpu::between(0, double(kMaxWeight)),
                       {},
                       "largest arc drawn (DIMACS: 10^6 - 1, unverified)"});
  schema.add(optimum_max_n_spec());
  return {name, help, std::move(schema),
          [name = std::string(name), make](const dpgpu::Params& p, std::uint64_t seed) {
            const auto n = static_cast<int>(p.integer("n"));
            const auto lo = p.integer("min"), hi = p.integer("max");
            const bool plain = lo == 0 && hi == kMatrixClassMax;
            return with_optimum(make(n, lo, hi, seed),
                                plain ? fmt::format("{}{}-s{}", name, n, seed)
                                      : fmt::format("{}{}-{}to{}-s{}", name, n, lo, hi, seed),
                                p);
          }};
}

dpgpu::Generator<Instance> crane_generator() {
  dpgpu::Schema schema;
  schema.add(cities_spec());
  schema.add(ParamSpec{"side",
                       ParamType::Int,
                       std::int64_t{1'000'000},
                       dpgpu::between(1, 1e8),
                       {},
                       "job sources uniform in [0, side)^2 (unverified)"});
  schema.add(
      ParamSpec{"job_scale",
                ParamType::Real,
                1.0,
                dpgpu::between(0, 10),
                {},
                "job offsets uniform in [-L, L]^2, L = job_scale*side/sqrt(n) (unverified)"});
  schema.add(ParamSpec{"loaded",
                       ParamType::Bool,
                       true,
                       {},
                       {},
                       "arcs include the next job's loaded move (unverified)"});
  schema.add(optimum_max_n_spec());
  return {"crane", "stacker-crane jobs in the plane, DIMACS 'crane' reconstructed (asymmetric)",
          std::move(schema), [](const dpgpu::Params& p, std::uint64_t seed) {
            const auto n = static_cast<int>(p.integer("n"));
            const CraneShape shape{p.integer("side"), p.real("job_scale"), p.flag("loaded")};
            const bool plain = shape.side == CraneShape{}.side &&
                               shape.job_scale == CraneShape{}.job_scale &&
                               shape.loaded == CraneShape{}.loaded;
            return with_optimum(
                crane(n, shape, seed),
                plain ? fmt::format("crane{}-s{}", n, seed)
                      : fmt::format("crane{}-side{}-job{}{}-s{}", n, shape.side, shape.job_scale,
                                    shape.loaded ? "" : "-empty", seed),
                p);
          }};
}

dpgpu::Generator<Instance> coin_generator() {
  dpgpu::Schema schema;
  schema.add(cities_spec());
  schema.add(ParamSpec{"grid",
                       ParamType::Int,
                       std::int64_t{0},
                       dpgpu::between(0, 1000),
                       {},
                       "intersections per side; 0: smallest g with g^2 >= 4n (unverified)"});
  schema.add(ParamSpec{
      "block", ParamType::Int, std::int64_t{100}, dpgpu::between(1, 1e6), {}, "block length"});
  schema.add(ParamSpec{"two_way_every",
                       ParamType::Int,
                       std::int64_t{0},
                       dpgpu::between(0, 1000),
                       {},
                       "streets k with k % this == 0 are two-way; 0: none (unverified)"});
  schema.add(
      ParamSpec{"ring", ParamType::Bool, true, {}, {}, "the four outer streets are two-way"});
  schema.add(optimum_max_n_spec());
  return {"coin",
          "pay phones on a grid of alternating one-way streets, DIMACS 'coin' reconstructed "
          "(asymmetric)",
          std::move(schema), [](const dpgpu::Params& p, std::uint64_t seed) {
            const auto n = static_cast<int>(p.integer("n"));
            const CoinShape shape{static_cast<int>(p.integer("grid")), p.integer("block"),
                                  static_cast<int>(p.integer("two_way_every")), p.flag("ring")};
            const bool plain =
                shape.grid == 0 && shape.block == 100 && shape.two_way_every == 0 && shape.ring;
            return with_optimum(
                coin(n, shape, seed),
                plain ? fmt::format("coin{}-s{}", n, seed)
                      : fmt::format("coin{}-g{}-b{}-w{}{}-s{}", n, coin_grid(n, shape), shape.block,
                                    shape.two_way_every, shape.ring ? "" : "-noring", seed),
                p);
          }};
}

}  // namespace

std::vector<dpgpu::Generator<Instance>> Problem::generators() {
  return {
      euclidean_generator(),
      random_matrix_generator(),
      matrix_class_generator("amat", "every arc uniform, DIMACS 'amat' reconstructed (asymmetric)",
                             amat),
      matrix_class_generator("tmat",
                             "amat closed under shortest paths, DIMACS 'tmat' reconstructed", tmat),
      matrix_class_generator("tsmat",
                             "symmetric random matrix closed under shortest paths, DIMACS 'tsmat' "
                             "reconstructed (symmetric, metric)",
                             tsmat),
      crane_generator(),
      coin_generator()};
}

}  // namespace tsp
