// edit_batch's generators: each pair (or string) drawn from its own std::mt19937_64, seeded
// from the instance seed and its index, so the strings do not depend on the thread count.
#include <fmt/format.h>
#include <omp.h>

#include <cmath>

#include "dpgpu/draw.hpp"
#include "edit/batch.hpp"
#include "edit/generators.hpp"
#include "lcs/symbols.hpp"

namespace edit {

namespace {

using dpgpu::ParamSpec;
using dpgpu::ParamType;

std::uint64_t seed_of(std::uint64_t seed, std::uint64_t k) {  // splitmix64 of (seed, k)
  std::uint64_t z = seed * 0x9e3779b97f4a7c15ull + k + 1;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// count items made in parallel by make(k, rng), appended in order.
template <class Make>
void fill(Strings& a, Strings* b, std::int64_t count, std::uint64_t seed, const Make& make) {
  std::vector<std::string> sa(static_cast<std::size_t>(count));
  std::vector<std::string> sb(b ? static_cast<std::size_t>(count) : 0);
#pragma omp parallel for schedule(static)
  for (std::int64_t k = 0; k < count; ++k) {
    std::mt19937_64 rng(seed_of(seed, std::uint64_t(k)));
    make(rng, sa[std::size_t(k)], b ? &sb[std::size_t(k)] : nullptr);
  }
  for (auto& s : sa) a.push_back(s);
  if (b)
    for (auto& s : sb) b->push_back(s);
}

std::string draw(std::mt19937_64& rng, std::int64_t n, const std::string& sigma) {
  std::string s(std::size_t(n), '\0');
  for (auto& c : s) c = sigma[dpgpu::draw_below(rng, sigma.size())];
  return s;
}

// A length in [round(len·(1 - spread)), len].
std::int64_t length(std::mt19937_64& rng, std::int64_t len, double spread) {
  const auto lo = std::int64_t(std::llround(double(len) * (1 - spread)));
  return dpgpu::draw_between(rng, lo, len);
}

dpgpu::Schema common(const char* count, std::int64_t count_default, const char* count_help) {
  dpgpu::Schema s;
  s.add(ParamSpec{count, ParamType::Int, count_default, dpgpu::at_least(1), {}, count_help});
  s.add(ParamSpec{"n",
                  ParamType::Int,
                  std::int64_t{1000},
                  dpgpu::at_least(0),
                  {},
                  "length of the a strings (the longest, with spread)"});
  s.add(ParamSpec{"alphabet",
                  ParamType::Int,
                  std::int64_t{4},
                  dpgpu::between(1, 256),
                  {},
                  "number of distinct symbols (4: ACGT)"});
  return s;
}

dpgpu::Generator<BatchInstance> random_generator() {
  dpgpu::Schema s = common("pairs", 1000, "number of independent pairs");
  s.add(ParamSpec{"m",
                  ParamType::Int,
                  std::int64_t{-1},
                  dpgpu::at_least(-1),
                  {},
                  "length of the b strings; -1: same as n"});
  s.add(ParamSpec{"spread",
                  ParamType::Real,
                  0.0,
                  dpgpu::between(0, 1),
                  {},
                  "each length uniform in [len·(1 - spread), len]"});
  return {"random", "independent pairs of uniform i.i.d. strings", std::move(s),
          [](const dpgpu::Params& p, std::uint64_t seed) {
            const auto pairs = p.integer("pairs"), n = p.integer("n");
            const auto m = p.integer("m") < 0 ? n : p.integer("m");
            const auto k = int(p.integer("alphabet"));
            const double spread = p.real("spread");
            const std::string sigma = lcs::symbols(k);
            BatchInstance x;
            fill(x.a, &x.b, pairs, seed, [&](std::mt19937_64& rng, std::string& a, std::string* b) {
              a = draw(rng, length(rng, n, spread), sigma);
              *b = draw(rng, length(rng, m, spread), sigma);
            });
            return dpgpu::Loaded<BatchInstance>{
                fmt::format("random-{}p-{}x{}-a{}-v{}-s{}", pairs, n, m, k, spread, seed),
                std::move(x), std::nullopt};
          }};
}

dpgpu::Generator<BatchInstance> mutated_generator() {
  dpgpu::Schema s = common("pairs", 1000, "number of independent pairs");
  s.add(ParamSpec{"divergence",
                  ParamType::Real,
                  0.1,
                  dpgpu::between(0, 1),
                  {},
                  "random edits per symbol of the seed string (edit/mutated)"});
  return {"mutated", "independent pairs: a random string and a mutated copy (edit/mutated)",
          std::move(s), [](const dpgpu::Params& p, std::uint64_t seed) {
            const auto pairs = p.integer("pairs"), n = p.integer("n");
            const auto k = int(p.integer("alphabet"));
            const double d = p.real("divergence");
            BatchInstance x;
            fill(x.a, &x.b, pairs, seed, [&](std::mt19937_64& rng, std::string& a, std::string* b) {
              auto pair = mutated_pair(n, k, d, rng());
              a = std::move(pair.a);
              *b = std::move(pair.b);
            });
            return dpgpu::Loaded<BatchInstance>{
                fmt::format("mutated-{}p-{}-a{}-v{}-s{}", pairs, n, k, d, seed), std::move(x),
                std::nullopt};
          }};
}

dpgpu::Generator<BatchInstance> cross_generator() {
  dpgpu::Schema s = common("strings", 100, "strings on each side; pairs = strings^2");
  return {"cross", "every pair of two sets of uniform i.i.d. strings (StringZilla's form)",
          std::move(s), [](const dpgpu::Params& p, std::uint64_t seed) {
            const auto count = p.integer("strings"), n = p.integer("n");
            const auto k = int(p.integer("alphabet"));
            const std::string sigma = lcs::symbols(k);
            BatchInstance x;
            x.cross = true;
            auto one = [&](std::mt19937_64& rng, std::string& a, std::string*) {
              a = draw(rng, n, sigma);
            };
            fill(x.a, nullptr, count, seed, one);
            fill(x.b, nullptr, count, seed_of(seed, ~0ull), one);
            return dpgpu::Loaded<BatchInstance>{
                fmt::format("cross-{}x{}-{}-a{}-s{}", count, count, n, k, seed), std::move(x),
                std::nullopt};
          }};
}

}  // namespace

std::uint64_t BatchProblem::instance_bytes(const std::string&, const dpgpu::Params& p) {
  const auto& v = p.values();
  const double n = double(p.integer("n"));
  const double m = v.count("m") && p.integer("m") >= 0 ? double(p.integer("m")) : 2 * n;
  const double count = double(v.count("pairs") ? p.integer("pairs") : 2 * p.integer("strings"));
  // the strings twice (per-pair strings, then back to back) and the offsets
  const double bytes = count * (2 * (n + m) + 128);
  return bytes < 1.8e19 ? std::uint64_t(bytes) : UINT64_MAX;
}

std::vector<dpgpu::Generator<BatchInstance>> BatchProblem::generators() {
  return {random_generator(), mutated_generator(), cross_generator()};
}

}  // namespace edit
