// claim_eval.cpp — evaluates a claim (claims.hpp) on a folder's summary rows.
#include "verify/claim_eval.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <numeric>
#include <set>

#include "dpgpu/error.hpp"
#include "verify/power_fit.hpp"

namespace dpgpu {

namespace {

using Rows = std::vector<const ClaimRow*>;
using GroupKey = std::vector<std::string>;

// Four significant digits; whole numbers (an objective, a node count) in full.
std::string num(double v) {
  if (v == std::floor(v) && std::fabs(v) >= 1e4 && std::fabs(v) < 1e15)
    return fmt::format("{:.0f}", v);
  return fmt::format("{:.4g}", v);
}

// A planned-but-not-run row (a `max:` cap, memory) is not part of the results a claim is about.
bool planned_out(const ClaimRow& r) {
  auto it = r.find("status");
  return it != r.end() && (it->second == "skipped" || it->second == "oom");
}

const std::string& cell(const ClaimRow& r, const std::string& column) {
  static const std::string empty;
  auto it = r.find(column);
  return it == r.end() ? empty : it->second;
}

void require_columns(const Claim& c, const std::vector<ClaimRow>& rows) {
  std::set<std::string> have;
  for (auto& r : rows)
    for (auto& [k, v] : r) have.insert(k);
  for (const NamedColumn& col : named_columns(c)) {
    if (have.count(col.name)) continue;
    std::vector<std::string> params;
    for (auto& k : have)
      if (k.rfind("i.", 0) == 0 || k.rfind("s.", 0) == 0) params.push_back(k);
    throw InputError(fmt::format(
        "{}: claims: {}: key '{}': no column '{}' in the results (parameter columns: {})",
        col.where.str(), c.id, col.key, col.name, fmt::join(params, ", ")));
  }
  if (c.scales_as)
    for (auto& name : c.scales_as->names)
      if (!resolve_name(name, have))
        throw InputError(fmt::format(
            "{}: claims: {}: key 'scales_as': no column '{}' (nor i.{}, s.{}, c.{}) in the "
            "results",
            c.where.str(), c.id, name, name, name, name));
}

// A selection's conditions on the columns that say how a run ended (status, valid): a row
// that meets the rest of the selection but ended badly is not silently left out.
bool outcome_column(const std::string& column) { return column == "status" || column == "valid"; }

Selection without_outcome(const Selection& s) {
  Selection out = s;
  out.conditions.clear();
  for (const Condition& c : s.conditions)
    if (!outcome_column(c.column)) out.conditions.push_back(c);
  return out;
}

bool tolerated(const Claim& c, const std::string& status) {
  return std::find(c.tolerate.begin(), c.tolerate.end(), status) != c.tolerate.end();
}

// What the claim's selections take from the rows: the groups of one side, and (over both
// sides) the rows and instances they cover and the bad rows they met.
struct Coverage {
  std::set<const ClaimRow*> rows;
  std::set<std::string> instances;
  std::vector<std::string> violations;  // "case: status invalid"
};

std::map<GroupKey, Rows> grouped(const Claim& c, const Selection& s,
                                 const std::vector<ClaimRow>& rows, Coverage* cover = nullptr) {
  std::map<GroupKey, Rows> out;
  const Selection loose = without_outcome(s);
  for (const ClaimRow& r : rows) {
    if (planned_out(r) || !selects(loose, r)) continue;
    const std::string& status = cell(r, "status");
    const bool bad = !status.empty() && status != "ok";
    if (!selects(s, r)) {
      if (bad && !tolerated(c, status) && cover)
        cover->violations.push_back(
            fmt::format("{}: status {}{}", cell(r, "case_id"), status,
                        cell(r, "message").empty() ? "" : " (" + cell(r, "message") + ")"));
      continue;
    }
    if (bad && tolerated(c, status)) continue;
    GroupKey key;
    for (auto& f : c.for_each) key.push_back(cell(r, f));
    out[key].push_back(&r);
  }
  return out;
}

// Rows that enter a comparison count toward the claim's coverage.
void covers(Coverage& cover, const Rows& rows) {
  for (const ClaimRow* r : rows) cover.rows.insert(r), cover.instances.insert(cell(*r, "instance"));
}

std::string group_label(const Claim& c, const GroupKey& key) {
  if (key.empty()) return "all rows";
  std::vector<std::string> parts;
  for (std::size_t i = 0; i < key.size(); ++i) parts.push_back(c.for_each[i] + "=" + key[i]);
  return fmt::format("{}", fmt::join(parts, ","));
}

// One value to compare: a row's, or a side's reduced over its rows.
struct Point {
  std::string label;
  double value = 0, other = 0;  // other: the ratio's denominator (ratio_to) or the optimum
  bool has_other = false;
  std::string text;    // equals on a text column
  std::string broken;  // a row whose status is not ok: the reason
};

double reduced(const std::string& how, std::vector<double> v) {
  if (how == "min") return *std::min_element(v.begin(), v.end());
  if (how == "max") return *std::max_element(v.begin(), v.end());
  if (how == "mean") return std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// The side's value in a group: the reduced value, or the one row's. Several rows without
// reduce: nullopt (the caller decides whether that means "every row" or bad input).
std::optional<double> side_value(const Claim& c, const Rows& rows, std::string& broken) {
  std::vector<double> v;
  for (const ClaimRow* r : rows) {
    if (cell(*r, "status") != "ok" && !cell(*r, "status").empty()) {
      broken = fmt::format("{}: status {}", cell(*r, "case_id"), cell(*r, "status"));
      return 0.0;
    }
    if (auto m = r->find(kMismatchPrefix + c.column); m != r->end()) {
      broken = m->second;
      return 0.0;
    }
    auto x = cell_number(cell(*r, c.column));
    if (!x) {
      broken = fmt::format("{}: no number in {}", cell(*r, "case_id"), c.column);
      return 0.0;
    }
    v.push_back(*x);
  }
  if (v.size() == 1) return v.front();
  if (c.reduce.empty()) return std::nullopt;
  return reduced(c.reduce, v);
}

[[noreturn]] void ambiguous(const Claim& c, const char* side, const std::string& group,
                            std::size_t n) {
  throw InputError(
      fmt::format("{}: claims: {}: {} holds {} rows at {}; narrow the selection or set reduce: "
                  "min|max|median|mean",
                  c.where.str(), c.id, side, n, group));
}

std::vector<Point> ratio_points(const Claim& c, const std::vector<ClaimRow>& rows,
                                Coverage& cover) {
  std::vector<Point> out;
  auto lhs = grouped(c, c.rows, rows, &cover), rhs = grouped(c, *c.ratio_to, rows, &cover);
  for (auto& [key, left] : lhs) {
    auto it = rhs.find(key);
    if (it == rhs.end()) continue;
    covers(cover, left), covers(cover, it->second);
    Point p;
    p.label = group_label(c, key);
    auto l = side_value(c, left, p.broken);
    auto r = side_value(c, it->second, p.broken);
    if (p.broken.empty()) {
      if (!l) ambiguous(c, "rows", p.label, left.size());
      if (!r) ambiguous(c, "ratio_to", p.label, it->second.size());
      p.value = *l / *r, p.other = *r, p.has_other = true;
    }
    out.push_back(p);
  }
  return out;
}

// Constant comparisons: the reduced value of each group, or every row of it.
std::vector<Point> row_points(const Claim& c, const std::vector<ClaimRow>& rows, Coverage& cover) {
  std::vector<Point> out;
  for (auto& [key, group] : grouped(c, c.rows, rows, &cover)) {
    const std::string label = group_label(c, key);
    covers(cover, group);
    if (!c.reduce.empty() && !c.equals_optimum) {
      Point p;
      p.label = label;
      if (auto v = side_value(c, group, p.broken)) p.value = *v;
      out.push_back(p);
      continue;
    }
    for (const ClaimRow* r : group) {
      Point p;
      p.label = group.size() > 1 ? label + " " + cell(*r, "case_id") : label;
      p.text = cell(*r, c.column);
      if (auto v = side_value(c, Rows{r}, p.broken)) p.value = *v;
      if (c.equals_optimum && p.broken.empty()) {
        auto opt = cell_number(cell(*r, "known_optimum"));
        if (!opt)
          p.broken = cell(*r, "case_id") + ": no known optimum";
        else
          p.other = *opt, p.has_other = true;
      }
      if (c.equals && !cell_number(*c.equals))
        p.broken.clear();  // a text comparison needs no number
      out.push_back(p);
    }
  }
  return out;
}

bool point_holds(const Claim& c, const Point& p) {
  if (!p.broken.empty()) return false;
  if (c.equals_optimum)
    return std::fabs(p.value - p.other) <= c.within.value_or(0) * std::fabs(p.other);
  if (c.equals) {
    auto want = cell_number(*c.equals);
    if (!want) return p.text == *c.equals;
    return std::fabs(p.value - *want) <= c.within.value_or(0) * std::fabs(*want);
  }
  return (!c.at_most || p.value <= *c.at_most) && (!c.at_least || p.value >= *c.at_least);
}

// How far a point is from failing (lower: worse), to show the one nearest the bound.
double slack(const Claim& c, const Point& p) {
  if (!p.broken.empty()) return -1e300;
  double s = 1e300;
  if (c.at_most) s = std::min(s, *c.at_most - p.value);
  if (c.at_least) s = std::min(s, p.value - *c.at_least);
  if (c.equals_optimum) s = -std::fabs(p.value - p.other);
  if (c.equals) {
    auto want = cell_number(*c.equals);
    s = want ? -std::fabs(p.value - *want) : (p.text == *c.equals ? 0 : -1);
  }
  return s;
}

std::string point_text(const Claim& c, const Point& p) {
  if (!p.broken.empty()) return p.label + ": " + p.broken;
  if (c.ratio_to)
    return fmt::format("{}: {} = {} / {}", p.label, num(p.value), num(p.value * p.other),
                       num(p.other));
  if (c.equals_optimum)
    return fmt::format("{}: {} vs optimum {}", p.label, num(p.value), num(p.other));
  if (c.equals && !cell_number(*c.equals)) return fmt::format("{}: '{}'", p.label, p.text);
  return fmt::format("{}: {}", p.label, num(p.value));
}

// One value per group (a row's, or a side reduced), or per row without for_each, with the
// x of its first row. Returns why a row cannot be used ("" when all can).
struct FitPoint {
  std::string label;
  double value = 0, x = 0;
};

std::string fit_points(const Claim& c, const std::vector<ClaimRow>& rows, Coverage& cover,
                       const std::function<double(const ClaimRow&)>& x_of,
                       std::vector<FitPoint>& points) {
  for (auto& [key, group] : grouped(c, c.rows, rows, &cover)) {
    const std::string label = group_label(c, key);
    covers(cover, group);
    std::string broken;
    auto v = side_value(c, group, broken);
    if (!broken.empty()) return label + ": " + broken;
    if (!v) {
      if (!c.for_each.empty()) ambiguous(c, "rows", label, group.size());
      for (const ClaimRow* r : group)
        points.push_back({cell(*r, "case_id"), *cell_number(cell(*r, c.column)), x_of(*r)});
      continue;
    }
    points.push_back({label, *v, x_of(*group.front())});
  }
  return "";
}

ClaimOutcome scaling_outcome(const Claim& c, const std::vector<ClaimRow>& rows, Coverage& cover) {
  ClaimOutcome out;
  std::vector<FitPoint> points;
  const std::string broken = fit_points(
      c, rows, cover, [&](const ClaimRow& r) { return evaluate(*c.scales_as, r).value_or(NAN); },
      points);
  if (!broken.empty()) {
    out.detail = broken, out.groups = 1;
    return out;
  }
  out.groups = points.size();
  if (points.size() < 2) {
    out.detail = fmt::format("{} point(s): a scaling needs at least 2", points.size());
    return out;
  }
  double log_sum = 0;
  for (const FitPoint& p : points) log_sum += std::log(p.value / p.x);
  const double a = std::exp(log_sum / double(points.size()));
  double worst = -1;
  std::string worst_label;
  for (const FitPoint& p : points) {
    const double dev = std::fabs(p.value / (a * p.x) - 1);
    if (dev <= *c.within) ++out.held_groups;
    if (!(dev <= worst)) worst = dev, worst_label = p.label;  // NaN (no f) is the worst
  }
  out.held = out.held_groups == out.groups;
  out.detail = fmt::format(
      "fit {} x ({}); worst {}: {:.1f} % off the fit (tolerance {:.0f} %); {} of {} points within",
      num(a), c.scales_as->text, worst_label, 100 * worst, 100 * *c.within, out.held_groups,
      out.groups);
  return out;
}

// The value a power_fit claim bounds: the exponent, or the fit at extrapolate_to.
std::string power_value_text(const Claim& c, double value) {
  const Claim::PowerFit& p = *c.power_fit;
  if (p.extrapolate_to)
    return fmt::format("fit at {}={}: {}", p.x, num(*p.extrapolate_to), num(value));
  return fmt::format("exponent {:.3f}", value);
}

ClaimOutcome power_outcome(const Claim& c, const std::vector<ClaimRow>& rows, Coverage& cover) {
  ClaimOutcome out;
  const Claim::PowerFit& p = *c.power_fit;
  std::vector<FitPoint> points;
  const std::string broken = fit_points(
      c, rows, cover, [&](const ClaimRow& r) { return cell_number(cell(r, p.x)).value_or(NAN); },
      points);
  if (!broken.empty()) return out.detail = broken, out.groups = 1, out;
  out.groups = points.size();
  const std::size_t need = p.exponent ? 2 : 3;
  if (points.size() < need)
    return out.detail =
               fmt::format("{} point(s): a power fit {}needs at least {} ({})", points.size(),
                           p.exponent ? "with a fixed exponent " : "", need,
                           p.exponent ? "one point fits exactly" : "two points always fit exactly"),
           out;
  std::vector<PowerPoint> xy;
  for (const FitPoint& q : points) xy.push_back({q.x, q.value});
  const auto fit = fit_power(xy, p.exponent);
  if (!fit)
    return out.detail = fmt::format("no power fit: {} and {} must be above 0", p.x, c.column), out;
  for (const PowerPoint& q : xy)
    if (std::fabs(q.value / fit->at(q.x) - 1) <= *c.within) ++out.held_groups;
  const double value = p.extrapolate_to ? fit->at(*p.extrapolate_to) : fit->k;
  const bool in_bounds =
      (!c.at_most || value <= *c.at_most) && (!c.at_least || value >= *c.at_least);
  out.held = out.held_groups == out.groups && in_bounds;
  if (c.at_most || c.at_least) out.worst = value;
  out.detail = fmt::format(
      "fit {} x {}^{:.3f} over {} points; worst {}: {:.1f} % off the fit (tolerance {:.0f} %); {}",
      num(fit->a), p.x, fit->k, points.size(), points[fit->worst].label, 100 * fit->max_error,
      100 * *c.within, power_value_text(c, value));
  return out;
}

}  // namespace

std::string describe_comparison(const Claim& c) {
  std::string what = c.column + (c.ratio_to ? " ratio" : "");
  if (c.scales_as)
    what += fmt::format(" scales as {} within {:.0f} %", c.scales_as->text, 100 * *c.within);
  if (c.power_fit) {
    const Claim::PowerFit& p = *c.power_fit;
    what += fmt::format(" fits a·{}^{} within {:.0f} %", p.x, p.exponent ? num(*p.exponent) : "k",
                        100 * *c.within);
    if (p.extrapolate_to)
      what += fmt::format(", fit at {}={}", p.x, num(*p.extrapolate_to));
    else if (c.at_least || c.at_most)
      what += ", k";
  }
  if (c.equals_optimum) what += " equals the known optimum";
  if (c.equals) what += " equals " + *c.equals;
  if (c.at_least) what += fmt::format(" >= {}", num(*c.at_least));
  if (c.at_most) what += fmt::format(" <= {}", num(*c.at_most));
  if (!c.reduce.empty()) what += " (" + c.reduce + " of each side)";
  if (!c.for_each.empty()) what += fmt::format(" for each {}", fmt::join(c.for_each, ","));
  return what;
}

namespace {

// The claim's verdict on its points, before coverage and bad rows are looked at.
ClaimOutcome point_outcome(const Claim& c, const std::vector<Point>& points) {
  ClaimOutcome out;
  out.groups = points.size();
  if (points.empty()) {
    out.detail =
        c.ratio_to ? "no group where both rows and ratio_to select a row" : "no row selected";
    return out;
  }
  const Point* worst = nullptr;
  for (const Point& p : points) {
    if (point_holds(c, p)) ++out.held_groups;
    if (!worst || slack(c, p) < slack(c, *worst)) worst = &p;
  }
  out.held = out.held_groups == out.groups;
  if (worst->broken.empty()) out.worst = worst->value;
  out.detail = fmt::format("{}{}; {} of {} hold", out.held ? "nearest " : "worst ",
                           point_text(c, *worst), out.held_groups, out.groups);
  return out;
}

// A bad row the selection met, or coverage under the claim's minimum, fails the claim.
void apply_coverage(const Claim& c, const Coverage& cover, ClaimOutcome& out) {
  out.rows = cover.rows.size(), out.instances = cover.instances.size();
  std::vector<std::string> why;
  if (!cover.violations.empty())
    why.push_back(
        fmt::format("the selection meets {} row(s) that did not end ok, e.g. {} "
                    "(tolerate: [status] to allow)",
                    cover.violations.size(), cover.violations.front()));
  if (c.min_rows && out.rows < *c.min_rows)
    why.push_back(fmt::format("covers {} rows, fewer than min_rows {}", out.rows, *c.min_rows));
  if (c.min_instances && out.instances < *c.min_instances)
    why.push_back(fmt::format("covers {} instances, fewer than min_instances {}", out.instances,
                              *c.min_instances));
  if (why.empty()) return;
  out.held = false;
  out.detail = fmt::format("{}; {}", fmt::join(why, "; "), out.detail);
}

}  // namespace

ClaimOutcome evaluate_claim(const Claim& c, const std::vector<ClaimRow>& rows) {
  require_columns(c, rows);
  Coverage cover;
  ClaimOutcome out = c.scales_as   ? scaling_outcome(c, rows, cover)
                     : c.power_fit ? power_outcome(c, rows, cover)
                                   : point_outcome(c, c.ratio_to ? ratio_points(c, rows, cover)
                                                                 : row_points(c, rows, cover));
  apply_coverage(c, cover, out);
  return out;
}

}  // namespace dpgpu
