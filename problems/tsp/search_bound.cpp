#include "tsp/search_bound.hpp"

#include <fmt/format.h>

#include <charconv>

#include "dpgpu/error.hpp"
#include "tsp/reference.hpp"

namespace tsp {

InitialBound parse_initial_ub(const std::string& text) {
  if (text == "optimal") return {InitialBound::Kind::Optimal, 0};
  if (text == "none") return {InitialBound::Kind::None, 0};
  std::int64_t v = 0;
  const auto* end = text.data() + text.size();
  auto [at, ec] = std::from_chars(text.data(), end, v);
  if (text.empty() || ec != std::errc() || at != end || v < 0 || text.front() == '+')
    throw dpgpu::InputError(
        fmt::format("initial_ub '{}': expected 'optimal', 'none', or a non-negative integer below "
                    "2^63 (quoted in YAML, "
                    "e.g. initial_ub: \"1234\")",
                    text));
  return {InitialBound::Kind::Value, v};
}

namespace {

std::string no_optimum(const Instance& x) {
  return fmt::format(
      "initial_ub optimal: instance '{}' (n = {}) has no known optimum, and Held-Karp finds one "
      "only for n <= {}; "
      "list it in OPTIMA.tsv next to the TSPLIB file, or set initial_ub to 'none' or a value "
      "(quoted, "
      "initial_ub: \"1234\")",
      x.name, x.n, kDefaultOptimumMaxN);
}

}  // namespace

std::int64_t starting_bound(const Instance& x, const InitialBound& b) {
  switch (b.kind) {
    case InitialBound::Kind::Optimal:
      if (!x.optimum) throw dpgpu::InputError(no_optimum(x));
      return *x.optimum;
    case InitialBound::Kind::None: return kNoBound;
    case InitialBound::Kind::Value: return b.value;
  }
  return kNoBound;
}

dpgpu::ParamRule initial_ub_rule() {
  return [](const dpgpu::Value& v) -> std::optional<std::string> {
    const auto* text = std::get_if<std::string>(&v);
    if (!text) return std::string("expected text: optimal, none or a quoted value");
    try {
      parse_initial_ub(*text);
    } catch (const dpgpu::InputError& e) {
      return std::string(e.what());
    }
    return std::nullopt;
  };
}

bool needs_optimum(const std::string& initial_ub) { return initial_ub == "optimal"; }

std::optional<std::string> initial_ub_refusal(const Instance& x, const std::string& initial_ub) {
  const InitialBound b = parse_initial_ub(initial_ub);
  if (b.kind == InitialBound::Kind::Optimal && !x.optimum)
    return "parameter 'initial_ub': " + no_optimum(x);
  if (b.kind == InitialBound::Kind::Value && x.optimum && b.value < *x.optimum)
    return fmt::format(
        "parameter 'initial_ub' = {} is below instance '{}''s optimum {}: no tour costs that "
        "little",
        b.value, x.name, *x.optimum);
  return std::nullopt;
}

}  // namespace tsp
