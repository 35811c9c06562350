// A pair with a known LCS length.
//
// The alphabet (symbols(k), k >= 3) is split into three disjoint, non-empty parts:
//   P  = the first k - 2f symbols (planted),   Fa = the next f (filler of a only),
//   Fb = the last f (filler of b only),        f  = max(1, k / 4).
// A planted string s of length L = floor(lcs_fraction * min(n, m)) is drawn over P; a is s
// with n - L symbols of Fa inserted at uniformly random places, b is s with m - L symbols of
// Fb. A common subsequence can hold no symbol of Fa (absent from b) nor of Fb (absent from
// a), so it is a common subsequence of a|P = s and b|P = s: at most L long, and s itself
// reaches L. Hence LCS(a, b) = L exactly.
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "draw.hpp"
#include "lcs/generators.hpp"
#include "lcs/symbols.hpp"

namespace lcs {

namespace {

// s with (length - |s|) filler symbols inserted: which places hold s is a uniform choice of
// |s| places out of `length` (selection sampling, one draw per place).
std::string interleave(std::mt19937_64& rng, const std::string& s, std::int64_t length,
                       const std::string& filler) {
  std::string out(static_cast<std::size_t>(length), '\0');
  std::size_t next = 0;  // next symbol of s to place
  for (std::int64_t i = 0; i < length; ++i) {
    const std::uint64_t places_left = static_cast<std::uint64_t>(length - i);
    const std::uint64_t planted_left = s.size() - next;
    if (draw_below(rng, places_left) < planted_left)
      out[i] = s[next++];
    else
      out[i] = filler[draw_below(rng, filler.size())];
  }
  return out;
}

}  // namespace

Planted planted_pair(std::int64_t n, std::int64_t m, int alphabet, double lcs_fraction,
                     std::uint64_t seed) {
  if (n < 0 || m < 0) throw std::invalid_argument("planted_pair: lengths must be >= 0");
  if (alphabet < 3 || alphabet > 256)
    throw std::invalid_argument("planted_pair: alphabet must be in [3, 256]");
  if (!(lcs_fraction >= 0.0 && lcs_fraction <= 1.0))
    throw std::invalid_argument("planted_pair: lcs_fraction must be in [0, 1]");

  const std::string sigma = symbols(alphabet);
  const std::size_t f = std::max(1, alphabet / 4);
  const std::string planted = sigma.substr(0, sigma.size() - 2 * f);
  const std::string filler_a = sigma.substr(sigma.size() - 2 * f, f);
  const std::string filler_b = sigma.substr(sigma.size() - f, f);

  const std::int64_t shorter = std::min(n, m);
  const auto length =
      std::clamp(static_cast<std::int64_t>(std::floor(lcs_fraction * double(shorter))),
                 std::int64_t{0}, shorter);

  std::mt19937_64 rng(seed);
  std::string s(static_cast<std::size_t>(length), '\0');
  for (auto& c : s) c = planted[draw_below(rng, planted.size())];

  Planted out;
  out.instance.a = interleave(rng, s, n, filler_a);
  out.instance.b = interleave(rng, s, m, filler_b);
  out.lcs_length = length;
  return out;
}

}  // namespace lcs
