#include <stdexcept>

#include "draw.hpp"
#include "lcs/generators.hpp"
#include "lcs/symbols.hpp"

namespace lcs {

namespace {

std::string random_string(std::mt19937_64& rng, std::int64_t length, const std::string& alphabet) {
  std::string s(static_cast<std::size_t>(length), '\0');
  for (auto& c : s) c = alphabet[draw_below(rng, alphabet.size())];
  return s;
}

}  // namespace

Instance random_pair(std::int64_t n, std::int64_t m, int alphabet, std::uint64_t seed) {
  if (n < 0 || m < 0) throw std::invalid_argument("random_pair: lengths must be >= 0");
  const std::string sigma = symbols(alphabet);
  std::mt19937_64 rng(seed);
  Instance x;
  x.a = random_string(rng, n, sigma);
  x.b = random_string(rng, m, sigma);
  return x;
}

}  // namespace lcs
