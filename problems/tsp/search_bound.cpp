#include "tsp/search_bound.hpp"

#include <fmt/format.h>

#include <charconv>

#include "dpgpu/error.hpp"

namespace tsp {

InitialBound parse_initial_ub(const std::string& text) {
  if (text == "optimal") return {InitialBound::Kind::Optimal, 0};
  if (text == "none") return {InitialBound::Kind::None, 0};
  std::int64_t v = 0;
  const auto* end = text.data() + text.size();
  auto [at, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || ec != std::errc() || at != end || v < 0 || text.front() == '+')
    throw dpgpu::InputError(fmt::format(
        "initial_ub '{}': expected 'optimal', 'none', or a non-negative integer below 2^63 (quoted in YAML, "
        "e.g. initial_ub: \"1234\")",
        text));
  return {InitialBound::Kind::Value, v};
}

std::int64_t starting_bound(const Instance& x, const InitialBound& b) {
  switch (b.kind) {
    case InitialBound::Kind::Optimal:
      if (!x.optimum)
        throw dpgpu::InputError(fmt::format(
            "initial_ub optimal: instance '{}' (n = {}) has no known optimum; list it in OPTIMA.tsv next to the "
            "TSPLIB file, generate it with n <= the generator's optimum_max_n (Held-Karp at generation), or set "
            "initial_ub to 'none' or a value",
            x.name, x.n));
      return *x.optimum;
    case InitialBound::Kind::None: return kNoBound;
    case InitialBound::Kind::Value: return b.value;
  }
  return kNoBound;
}

}  // namespace tsp
