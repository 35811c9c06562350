// Generators: `random` (dimensions uniform in [lo, hi]) and `equal` (every dimension d: every
// parenthesization costs (n - 1)·d³, so the optimum is known).
#include <fmt/format.h>

#include <limits>
#include <optional>
#include <random>

#include "dpgpu/draw.hpp"
#include "dpgpu/error.hpp"
#include "mcm/generators.hpp"

namespace mcm {

Instance random_instance(std::int64_t n, std::int64_t lo, std::int64_t hi, std::uint64_t seed) {
  if (n < 1 || n > kMaxN)
    throw dpgpu::InputError(fmt::format("mcm random: n must be in [1, {}], got {}", kMaxN, n));
  if (lo < 1 || hi < lo || hi > kMaxDim)
    throw dpgpu::InputError(
        fmt::format("mcm random: need 1 <= lo <= hi <= {}, got lo = {}, hi = {}", kMaxDim, lo, hi));
  std::mt19937_64 rng(seed);
  Instance x;
  x.p.resize(std::size_t(n + 1));
  for (auto& v : x.p) v = dpgpu::draw_between(rng, lo, hi);
  return x;
}

namespace {

using dpgpu::ParamSpec;
using dpgpu::ParamType;

ParamSpec n_param() {
  return {"n", ParamType::Int,      std::int64_t{1024}, dpgpu::between(1, double(kMaxN)),
          {},  "number of matrices"};
}

}  // namespace

std::vector<dpgpu::Generator<Instance>> Problem::generators() {
  std::vector<dpgpu::Generator<Instance>> g;
  {
    dpgpu::Schema s;
    s.add(n_param());
    s.add(ParamSpec{"lo",
                    ParamType::Int,
                    std::int64_t{1},
                    dpgpu::between(1, double(kMaxDim)),
                    {},
                    "smallest dimension"});
    s.add(ParamSpec{"hi",
                    ParamType::Int,
                    std::int64_t{100},
                    dpgpu::between(1, double(kMaxDim)),
                    {},
                    "largest dimension"});
    g.push_back(
        {"random", "dimensions p0..pn uniform in [lo, hi] (the paper: 'generated randomly')",
         std::move(s), [](const dpgpu::Params& p, std::uint64_t seed) {
           Instance x = random_instance(p.integer("n"), p.integer("lo"), p.integer("hi"), seed);
           auto name =
               fmt::format("random-n{}-p{}-{}-s{}", x.n(), p.integer("lo"), p.integer("hi"), seed);
           return dpgpu::Loaded<Instance>{std::move(name), std::move(x), std::nullopt};
         }});
  }
  {
    dpgpu::Schema s;
    s.add(n_param());
    s.add(ParamSpec{
        "d", ParamType::Int, std::int64_t{10}, dpgpu::between(1, 1 << 20), {}, "every dimension"});
    g.push_back(
        {"equal", "every dimension d: all parenthesizations tie at (n-1)·d³ (known optimum)",
         std::move(s), [](const dpgpu::Params& p, std::uint64_t) {
           const std::int64_t n = p.integer("n"), d = p.integer("d");
           Instance x;
           x.p.assign(std::size_t(n + 1), d);
           if (auto why = why_malformed(x); !why.empty())
             throw dpgpu::InputError("mcm equal: " + why);
           // (n-1)·d³ reaches 2^80 at the limits: no known optimum beyond int64 (the
           // solvers refuse such an instance by its cost bound anyway).
           const unsigned __int128 opt = (unsigned __int128)(n - 1) * d * d * d;
           std::optional<dpgpu::Objective> known;
           if (opt <= (unsigned __int128)std::numeric_limits<std::int64_t>::max())
             known = dpgpu::Objective(opt);
           return dpgpu::Loaded<Instance>{fmt::format("equal-n{}-d{}", n, d), std::move(x), known};
         }});
  }
  return g;
}

}  // namespace mcm
