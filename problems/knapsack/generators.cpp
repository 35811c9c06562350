// The registered generators: their parameter schemas and instance names.
#include <fmt/format.h>

#include "knapsack/generators.hpp"

namespace knapsack {

namespace {

using dpgpu::ParamSpec;
using dpgpu::ParamType;

dpgpu::Generator<Instance> pisinger_generator(PisingerClass c, const char* help) {
  dpgpu::Schema s;
  s.add(ParamSpec{"n",
                  ParamType::Int,
                  std::int64_t{1000},
                  dpgpu::between(1, double(kMaxItems)),
                  {},
                  "number of items"});
  s.add(ParamSpec{"R",
                  ParamType::Int,
                  std::int64_t{1000},
                  dpgpu::between(1, double(kMaxRange)),
                  {},
                  "coefficient range: weights in [1, R]"});
  s.add(ParamSpec{"capacity",
                  ParamType::Int,
                  std::int64_t{-1},
                  dpgpu::at_least(-1),
                  {},
                  "knapsack capacity; -1: capacity_fraction of the total weight"});
  s.add(ParamSpec{
      "capacity_fraction",
      ParamType::Real,
      0.5,
      dpgpu::between(0, 1),
      {},
      "capacity = floor(fraction * total weight) when capacity is -1 (Pisinger: h/(H+1))"});
  return {to_string(c), help, std::move(s), [c](const dpgpu::Params& p, std::uint64_t seed) {
            Instance x = pisinger_instance(c, p.integer("n"), p.integer("R"), p.integer("capacity"),
                                           p.real("capacity_fraction"), seed);
            auto name = fmt::format("{}-n{}-R{}-C{}-s{}", to_string(c), x.size(), p.integer("R"),
                                    x.capacity, seed);
            return dpgpu::Loaded<Instance>{std::move(name), std::move(x), std::nullopt};
          }};
}

dpgpu::Generator<Instance> paper2014_generator() {
  dpgpu::Schema s;
  s.add(ParamSpec{"n",
                  ParamType::Int,
                  std::int64_t{1500},
                  dpgpu::between(1, double(kMaxPaperItems)),
                  {},
                  "number of items (the paper fixes 1500)"});
  s.add(ParamSpec{"capacity",
                  ParamType::Int,
                  std::int64_t{10000},
                  dpgpu::between(4, double(kMaxPaperCapacity)),
                  {},
                  "knapsack capacity C (the paper sweeps it)"});
  s.add(ParamSpec{"value_max",
                  ParamType::Int,
                  std::int64_t{-1},
                  dpgpu::between(-1, double(kMaxPaperCapacity)),
                  {},
                  "values in [1, value_max]; -1: below 30% of C, like the weights"});
  return {"paper2014",
          "the paper's set-up: n items, every weight (and value) below 30% of the capacity",
          std::move(s), [](const dpgpu::Params& p, std::uint64_t seed) {
            const auto value_max = p.integer("value_max");
            Instance x = paper2014_instance(p.integer("n"), p.integer("capacity"), value_max, seed);
            auto name = fmt::format("paper2014-n{}-C{}{}-s{}", x.size(), x.capacity,
                                    value_max >= 1 ? fmt::format("-v{}", value_max) : "", seed);
            return dpgpu::Loaded<Instance>{std::move(name), std::move(x), std::nullopt};
          }};
}

}  // namespace

std::vector<dpgpu::Generator<Instance>> Problem::generators() {
  return {pisinger_generator(PisingerClass::uncorrelated,
                             "Pisinger class 1: values and weights independent in [1, R]"),
          pisinger_generator(PisingerClass::weakly_correlated,
                             "Pisinger class 2: value within R/10 of the weight (at least 1)"),
          pisinger_generator(PisingerClass::strongly_correlated,
                             "Pisinger class 3: value = weight + R/10"),
          pisinger_generator(PisingerClass::subset_sum, "Pisinger class 6: value = weight"),
          paper2014_generator()};
}

}  // namespace knapsack
