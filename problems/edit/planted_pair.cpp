// A pair with a known edit distance.
//
// a is n symbols drawn over P = the first k - 1 symbols of lcs::symbols(k); the last symbol z
// is absent from a. b is a with d edits: d·insert_fraction (rounded) insertions of z at
// uniform places and the rest substitutions of distinct uniform positions by z. Then:
//   - the edits themselves turn a into b: distance <= d;
//   - every z in b (there are d) can be matched with no symbol of a, so an alignment must
//     insert it or substitute for it, one operation per z: distance >= d.
// Hence the edit distance is d exactly.
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "dpgpu/draw.hpp"
#include "edit/generators.hpp"
#include "lcs/symbols.hpp"

namespace edit {

namespace {

using dpgpu::draw_below;

// `count` distinct positions of [0, n), uniformly (selection sampling), as a flag per position.
std::vector<bool> choose(std::mt19937_64& rng, std::int64_t n, std::int64_t count) {
  std::vector<bool> chosen(static_cast<std::size_t>(n), false);
  std::int64_t left = count;
  for (std::int64_t i = 0; i < n && left > 0; ++i)
    if (std::int64_t(draw_below(rng, std::uint64_t(n - i))) < left) {
      chosen[i] = true;
      --left;
    }
  return chosen;
}

}  // namespace

Planted planted_pair(std::int64_t n, int alphabet, std::int64_t distance, double insert_fraction,
                     std::uint64_t seed) {
  if (n < 0 || distance < 0)
    throw std::invalid_argument("planted_pair: n and distance must be >= 0");
  if (alphabet < 2 || alphabet > 256)
    throw std::invalid_argument("planted_pair: alphabet must be in [2, 256]");
  if (!(insert_fraction >= 0.0 && insert_fraction <= 1.0))
    throw std::invalid_argument("planted_pair: insert_fraction must be in [0, 1]");
  const auto inserts = std::int64_t(std::llround(insert_fraction * double(distance)));
  const std::int64_t subs = distance - inserts;
  if (subs > n)
    throw std::invalid_argument("planted_pair: " + std::to_string(subs) +
                                " substitutions need n >= that many, n is " + std::to_string(n));
  const std::string sigma = lcs::symbols(alphabet);
  const std::string body = sigma.substr(0, sigma.size() - 1);
  const char z = sigma.back();

  std::mt19937_64 rng(seed);
  Planted out;
  auto& [a, b] = out.instance;
  a.resize(static_cast<std::size_t>(n));
  for (auto& c : a) c = body[draw_below(rng, body.size())];
  const auto substituted = choose(rng, n, subs);
  // b has n + inserts places; which of them are insertions is a uniform choice.
  const auto inserted = choose(rng, n + inserts, inserts);
  std::size_t i = 0;
  for (std::int64_t p = 0; p < n + inserts; ++p) {
    if (inserted[p]) {
      b.push_back(z);
    } else {
      b.push_back(substituted[i] ? z : a[i]);
      ++i;
    }
  }
  out.distance = distance;
  return out;
}

}  // namespace edit
