// Random and mutated pairs.
#include <cmath>
#include <stdexcept>

#include "dpgpu/draw.hpp"
#include "edit/generators.hpp"
#include "lcs/generators.hpp"
#include "lcs/symbols.hpp"

namespace edit {

Instance random_pair(std::int64_t n, std::int64_t m, int alphabet, std::uint64_t seed) {
  auto x = lcs::random_pair(n, m, alphabet, seed);
  return {std::move(x.a), std::move(x.b)};
}

Instance mutated_pair(std::int64_t n, int alphabet, double divergence, std::uint64_t seed) {
  using dpgpu::draw_below;
  if (n < 0) throw std::invalid_argument("mutated_pair: n must be >= 0");
  if (!(divergence >= 0.0 && divergence <= 1.0))
    throw std::invalid_argument("mutated_pair: divergence must be in [0, 1]");
  const std::string sigma = lcs::symbols(alphabet);  // throws outside [1, 256]
  std::mt19937_64 rng(seed);
  Instance x;
  x.a.resize(static_cast<std::size_t>(n));
  for (auto& c : x.a) c = sigma[draw_below(rng, sigma.size())];
  x.b = x.a;
  const auto edits = std::int64_t(std::llround(divergence * double(n)));
  for (std::int64_t e = 0; e < edits; ++e) {
    const auto kind = draw_below(rng, 3);  // 0 substitute, 1 insert, 2 delete
    if (kind == 1 || x.b.empty()) {
      const auto at = draw_below(rng, x.b.size() + 1);
      x.b.insert(x.b.begin() + std::ptrdiff_t(at), sigma[draw_below(rng, sigma.size())]);
    } else if (kind == 2) {
      x.b.erase(x.b.begin() + std::ptrdiff_t(draw_below(rng, x.b.size())));
    } else if (sigma.size() > 1) {
      auto& c = x.b[draw_below(rng, x.b.size())];
      const auto old = sigma.find(c);
      c = sigma[(old + 1 + draw_below(rng, sigma.size() - 1)) % sigma.size()];
    }
  }
  return x;
}

}  // namespace edit
