// The offset generators and their registration (schemas and instance names).
#include "sdp/generators.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <random>
#include <set>

#include "dpgpu/draw.hpp"
#include "dpgpu/error.hpp"

namespace sdp {

using dpgpu::InputError;

std::vector<std::int64_t> consecutive_offsets(std::int64_t k) {
  if (k < 1) throw InputError(fmt::format("consecutive: k must be >= 1, got {}", k));
  std::vector<std::int64_t> a;
  for (std::int64_t j = 0; j < k; ++j) a.push_back(k - j);
  return a;
}

std::vector<std::int64_t> strided_offsets(std::int64_t k, std::int64_t stride) {
  if (k < 1) throw InputError(fmt::format("strided: k must be >= 1, got {}", k));
  if (stride < 1 || stride > kMaxN / k)
    throw InputError(
        fmt::format("strided: stride must be in [1, {}] for k = {}, got {}", kMaxN / k, k, stride));
  std::vector<std::int64_t> a;
  for (std::int64_t j = 0; j < k; ++j) a.push_back((k - j) * stride);
  return a;
}

std::vector<std::int64_t> random_offsets(std::int64_t k, std::int64_t a0_max, std::uint64_t seed) {
  if (k < 1) throw InputError(fmt::format("random: k must be >= 1, got {}", k));
  if (a0_max - 1 < k)
    throw InputError(fmt::format(
        "random: a0_max must exceed k = {} (offsets are distinct in [1, a0_max - 1]), got {}", k,
        a0_max));
  std::mt19937_64 rng(seed ^ 0x5d9f3a1bULL);
  const std::int64_t m = a0_max - 1;  // offsets from {1..m}
  std::set<std::int64_t> chosen;      // Floyd: k distinct values of {1..m}
  for (std::int64_t j = m - k + 1; j <= m; ++j) {
    const std::int64_t t = dpgpu::draw_between(rng, 1, j);
    if (!chosen.insert(t).second) chosen.insert(j);
  }
  return {chosen.rbegin(), chosen.rend()};
}

Instance make_instance(std::int64_t n, Op op, std::uint64_t modulus,
                       std::vector<std::int64_t> offsets, std::uint64_t init_max,
                       std::uint64_t seed) {
  Instance x;
  x.n = n;
  x.op = op;
  x.modulus = modulus;
  x.offsets = std::move(offsets);
  if (init_max < 1) throw InputError("init_max must be >= 1");
  std::uint64_t bound = std::min(init_max, kMaxValue);
  if (op == Op::add) bound = std::min(bound, modulus);
  std::mt19937_64 rng(seed);
  x.init.resize(std::size_t(x.a0()));
  for (auto& v : x.init) v = dpgpu::draw_below(rng, bound);
  if (auto why = why_malformed(x); !why.empty()) throw InputError("sdp generator: " + why);
  return x;
}

namespace {

using dpgpu::ParamSpec;
using dpgpu::ParamType;

void common_params(dpgpu::Schema& s) {
  s.add(ParamSpec{"n",
                  ParamType::Int,
                  std::int64_t{1} << 20,
                  dpgpu::between(1, double(kMaxN)),
                  {},
                  "table size"});
  s.add(ParamSpec{
      "k", ParamType::Int, std::int64_t{4}, dpgpu::between(1, 1 << 20), {}, "number of offsets"});
  s.add(ParamSpec{
      "op", ParamType::Choice, std::string("max"), {}, {"min", "max", "add"}, "the operator"});
  s.add(ParamSpec{"modulus",
                  ParamType::Int,
                  std::int64_t(kDefaultModulus),
                  dpgpu::between(1, double(kMaxValue)),
                  {},
                  "add is modulo this"});
  s.add(ParamSpec{"init_max",
                  ParamType::Int,
                  std::int64_t{1000000},
                  dpgpu::between(1, double(kMaxValue)),
                  {},
                  "initial values uniform in [0, init_max) (add: also below the modulus)"});
}

dpgpu::Loaded<Instance> finish(const dpgpu::Params& p, std::vector<std::int64_t> offsets,
                               std::uint64_t seed, const std::string& pattern) {
  const Op op = op_from(p.text("op"));
  Instance x = make_instance(p.integer("n"), op, std::uint64_t(p.integer("modulus")),
                             std::move(offsets), std::uint64_t(p.integer("init_max")), seed);
  auto name = fmt::format("{}-n{}-k{}-{}-s{}", pattern, x.n, x.k(), to_string(op), seed);
  return {std::move(name), std::move(x), std::nullopt};
}

}  // namespace

std::vector<dpgpu::Generator<Instance>> Problem::generators() {
  std::vector<dpgpu::Generator<Instance>> g;
  {
    dpgpu::Schema s;
    common_params(s);
    g.push_back({"consecutive", "aj = k - j: the paper's worst case for read conflicts",
                 std::move(s), [](const dpgpu::Params& p, std::uint64_t seed) {
                   return finish(p, consecutive_offsets(p.integer("k")), seed, "consecutive");
                 }});
  }
  {
    dpgpu::Schema s;
    common_params(s);
    s.add(ParamSpec{"stride",
                    ParamType::Int,
                    std::int64_t{4096},
                    dpgpu::between(1, double(kMaxN)),
                    {},
                    "aj = (k - j)·stride"});
    g.push_back({"strided", "aj = (k - j)·stride: the largest fold p is stride", std::move(s),
                 [](const dpgpu::Params& p, std::uint64_t seed) {
                   return finish(p, strided_offsets(p.integer("k"), p.integer("stride")), seed,
                                 fmt::format("strided{}", p.integer("stride")));
                 }});
  }
  {
    dpgpu::Schema s;
    common_params(s);
    s.add(ParamSpec{"a0_max",
                    ParamType::Int,
                    std::int64_t{65536},
                    dpgpu::between(2, double(kMaxN)),
                    {},
                    "offsets distinct in [1, a0_max - 1]"});
    g.push_back({"random", "k distinct random offsets below a0_max", std::move(s),
                 [](const dpgpu::Params& p, std::uint64_t seed) {
                   return finish(p, random_offsets(p.integer("k"), p.integer("a0_max"), seed), seed,
                                 fmt::format("random{}", p.integer("a0_max")));
                 }});
  }
  return g;
}

}  // namespace sdp
