// sensitivity.cpp — claims perturbed toward failing (sensitivity.hpp).
#include "verify/sensitivity.hpp"

#include <fmt/format.h>

#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <utility>

#include "verify/claim_eval.hpp"

namespace dpgpu {

namespace {

// Which rows a perturbation changes: those `rows` selects (both sides where the selections
// overlap), those only `rows` selects, or those only `ratio_to` selects (changed the other way).
enum class Part { Rows, RowsOnly, RatioOnly };

// The rows with the claim's column changed by `f` (1 / f on the ratio_to side).
std::vector<ClaimRow> perturbed(const Claim& c, const std::vector<ClaimRow>& rows,
                                const std::function<double(double)>& f, Part part = Part::Rows) {
  std::vector<ClaimRow> out = rows;
  for (ClaimRow& r : out) {
    const bool in_rows = selects(c.rows, r), in_ratio = c.ratio_to && selects(*c.ratio_to, r);
    const bool change = part == Part::Rows       ? in_rows
                        : part == Part::RowsOnly ? in_rows && !in_ratio
                                                 : in_ratio && !in_rows;
    auto it = r.find(c.column);
    if (!change || it == r.end()) continue;
    if (auto v = cell_number(it->second))
      it->second = fmt::format("{}", part == Part::RatioOnly ? *v * *v / f(*v) : f(*v));
  }
  return out;
}

bool holds(const Claim& c, const std::vector<ClaimRow>& rows) {
  return evaluate_claim(c, rows).held;
}

// The claim still holds with every part of its data scaled by `factor` toward failing.
bool holds_scaled(const Claim& c, const std::vector<ClaimRow>& rows, double factor) {
  auto f = [&](double v) { return v * factor; };
  for (Part part : {Part::Rows, Part::RowsOnly, Part::RatioOnly}) {
    if (part != Part::Rows && !c.ratio_to) break;
    if (!holds(c, perturbed(c, rows, f, part))) return false;
  }
  return true;
}

// at_least / at_most: past the nearest value's bound by 1 % and by twice that factor, and 2x
// toward failing.
void bound_sensitivity(const Claim& c, const std::vector<ClaimRow>& rows, double w,
                       Sensitivity& s) {
  const bool low =
      c.at_least && (!c.at_most || std::fabs(w - *c.at_least) < std::fabs(*c.at_most - w));
  const double b = low ? *c.at_least : *c.at_most;
  if (b > 0 && w > 0) {
    s.margin_x = low ? w / b : b / w;
    const double past = low ? 0.99 * b / w : 1.01 * b / w, twice = low ? 0.5 : 2.0;
    s.cannot_fail = holds_scaled(c, rows, past) && holds_scaled(c, rows, past * twice);
    s.survives_2x = holds(c, perturbed(c, rows, [&](double v) { return v * twice; }));
    s.note =
        fmt::format("selected values x{:.3g} and x{:.3g} (past the bound)", past, past * twice);
    return;
  }
  const double shift = (b - w) + (low ? -1 : 1) * std::max(1e-9, 0.01 * std::fabs(b - w));
  s.cannot_fail = holds(c, perturbed(c, rows, [&](double v) { return v + shift; }));
  s.note = fmt::format("selected values {:+.3g} (past the bound)", shift);
}

std::optional<double> number_at(const ClaimRow& r, const std::string& column) {
  auto it = r.find(column);
  return it == r.end() ? std::nullopt : cell_number(it->second);
}

// The selected rows' values times g(x, value) (x: the power fit's column).
std::vector<ClaimRow> refitted(const Claim& c, const std::vector<ClaimRow>& rows,
                               const std::function<double(double, double)>& g) {
  std::vector<ClaimRow> out = rows;
  for (ClaimRow& r : out) {
    const std::optional<double> x = number_at(r, c.power_fit->x), v = number_at(r, c.column);
    if (x.has_value() && v.has_value() && *x > 0 && selects(c.rows, r))
      r[c.column] = fmt::format("{}", g(*x, *v));
  }
  return out;
}

// power_fit: the points zigzag off any power law by (1 + 4 within), alternately up and down
// in order of x; and a bound on the fitted exponent, the values tilted by x^d past it.
bool power_within_cannot_fail(const Claim& c, const std::vector<ClaimRow>& rows) {
  std::map<double, bool> up;  // x -> up or down, alternating in order of x
  for (const ClaimRow& r : rows)
    if (const std::optional<double> x = number_at(r, c.power_fit->x); x && selects(c.rows, r))
      up[*x] = false;
  bool next = true;
  for (auto& [x, u] : up) u = std::exchange(next, !next);
  const double f = 1 + 4 * *c.within;
  return holds(c, refitted(c, rows, [&](double x, double v) { return up[x] ? v * f : v / f; }));
}

void exponent_sensitivity(const Claim& c, const std::vector<ClaimRow>& rows, double k,
                          Sensitivity& s) {
  const bool low =
      c.at_least && (!c.at_most || std::fabs(k - *c.at_least) < std::fabs(*c.at_most - k));
  const double b = low ? *c.at_least : *c.at_most;
  const double gap = (b - k) + (low ? -1 : 1) * std::max(1e-9, 0.01 * std::fabs(b - k));
  auto tilted = [&](double d) {
    return refitted(c, rows, [&](double x, double v) { return v * std::pow(x, d); });
  };
  if (b > 0 && k > 0) s.margin_x = low ? k / b : b / k;
  s.cannot_fail = holds(c, tilted(gap)) && holds(c, tilted(2 * gap));
  s.survives_2x = holds(c, tilted(low ? -k / 2 : k));  // the exponent halved or doubled
  s.note =
      fmt::format("values x (x^{:+.3g}) and x (x^{:+.3g}) (exponent past the bound)", gap, 2 * gap);
}

Sensitivity power_sensitivity(const Claim& c, const std::vector<ClaimRow>& rows,
                              const ClaimOutcome& o, Sensitivity s) {
  const bool within_fixed = power_within_cannot_fail(c, rows);
  if ((c.at_least || c.at_most) && o.worst) {
    if (c.power_fit->extrapolate_to)
      bound_sensitivity(c, rows, *o.worst, s);
    else
      exponent_sensitivity(c, rows, *o.worst, s);
  }
  if (within_fixed) {
    s.cannot_fail = true;
    s.note += fmt::format("{}points zigzagged x/÷ {:.3g} off the fit and it still holds",
                          s.note.empty() ? "" : "; ", 1 + 4 * *c.within);
  } else if (s.note.empty()) {
    s.note = fmt::format("points zigzagged x/÷ {:.3g}", 1 + 4 * *c.within);
  }
  return s;
}

}  // namespace

Sensitivity claim_sensitivity(const Claim& c, const std::vector<ClaimRow>& rows) {
  Sensitivity s;
  const ClaimOutcome o = evaluate_claim(c, rows);
  if (!o.held) return s;
  s.tested = true;
  if (c.equals && !cell_number(*c.equals)) {
    // A text (valid equals true): every selected row's text changed must fail it.
    std::vector<ClaimRow> changed = rows;
    for (ClaimRow& r : changed)
      if (selects(c.rows, r) && r.count(c.column)) r[c.column] = "not " + *c.equals;
    s.cannot_fail = holds(c, changed);
    s.note = "selected rows' text changed";
    return s;
  }
  if (c.power_fit) return power_sensitivity(c, rows, o, s);
  if (c.at_least || c.at_most) {
    if (!o.worst) return s.tested = false, s;
    bound_sensitivity(c, rows, *o.worst, s);
    return s;
  }
  if (c.scales_as) {
    // One point off the fit: the first selected row's value times (1 + 4 within).
    bool first = true;
    const double f = 1 + 4 * *c.within;
    s.cannot_fail = holds(
        c, perturbed(c, rows, [&](double v) { return std::exchange(first, false) ? v * f : v; }));
    s.note = fmt::format("one point x{:.3g}", f);
    return s;
  }
  // equals (a number, or the optimum): off by the tolerance twice over, or by one.
  const double tol = c.within.value_or(0);
  s.cannot_fail = holds(c, perturbed(c, rows, [&](double v) {
                          return tol > 0 ? v * (1 + 2 * tol) + (v == 0 ? 2 * tol : 0) : v + 1;
                        }));
  s.note = tol > 0 ? fmt::format("selected values x{:.3g}", 1 + 2 * tol) : "selected values +1";
  return s;
}

}  // namespace dpgpu
