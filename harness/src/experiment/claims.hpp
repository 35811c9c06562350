// claims.hpp — the `claims:` section of an experiment file: short declarative statements
// over its results (no code), each one a sentence, the paper item it stands for, a selection
// of summary rows, a column and a comparison. `dpgpu check` checks them against the plan's
// cases (claims_check.cpp); `dpgpu verify` evaluates them on committed records (verify/).
//
//   claims:
//     - id: calibrate_vs_block
//       says: At every n >= 1024 calibrate takes at most 1.03x the block kernel's time.
//       paper: 002 Table II
//       rows: {solver: gpu.mcm, s.policy: calibrate, i.n: ">= 1024"}
//       column: time                    # time_median_s (default); throughput, objective, c.x, m.x, ...
//       ratio_to: {solver: gpu.mcm, s.policy: fixed, s.kernel: block}   # value / that value
//       at_most: 1.03                   # and/or at_least; or equals; or scales_as + within
//       for_each: i.n                   # every value of an axis (or a list of axes); or
//       # at: {i.n: 4096}               #   one point (a filter on both sides)
//       # reduce: min                   # several rows on a side of a group: min|max|median|mean
//
// A filter value is text or a number (equal), a list (any of), or a string starting with
// an operator: ">= 1024", "< 2^15", "!= 0", "~ ^coin" (a regular expression).
// `equals: optimum` compares each row's value with its known_optimum.
// `scales_as: "n/p"` fits value = a·f(row) over the groups (the rows without for_each) and
// holds when every point is within `within` (relative) of the fit.
// `power_fit: i.n` fits value = a·x^k over the groups by least squares on log value against
// log x (at least 3 points: two always fit exactly) and holds when every measured point is
// within `within` of the fit; `exponent: 3` fixes k (only a is fitted). The claim's value is
// k, or with `extrapolate_to: 16384` the fit at that x; at_least / at_most bound it:
//       power_fit: i.n, exponent: 3, within: 0.25, extrapolate_to: 16384, at_least: 1000
//
// What keeps a claim honest on other data (claim_eval.cpp):
//   min_rows: 12, min_instances: 6   # coverage: fewer selected rows or instances fail the
//                                    # claim (pinned claims record the count when written)
//   tolerate: [timeout]              # statuses a selected row may have; without it a row the
//                                    # selection meets that is invalid, error or timeout fails
//                                    # the claim (even under `status: ok`)
//   revised:                         # a bound's history; verify prints revised claims
//     - {date: 2026-11-28, old: "at_least: 3", why: "..."}
#pragma once
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "experiment/where.hpp"

namespace dpgpu {

// A results row (summary.csv), or what a planned case already knows of its row.
using ClaimRow = std::map<std::string, std::string>;

struct Condition {
  enum class Op { Equal, AnyOf, NotEqual, Less, LessEqual, Greater, GreaterEqual, Matches };
  std::string column;
  Op op = Op::Equal;
  std::vector<std::string> texts;  // Equal, AnyOf, NotEqual, Matches: as written
  double number = 0;               // the ordered comparisons
  Where where;
};

struct Selection {
  std::vector<Condition> conditions;
  Where where;
};

// f(row) of scales_as: + - * / ^, parentheses, numbers, log, log2, sqrt, and column names
// (i.n, s.p, or bare n, p for i./s./c. columns).
struct ScaleExpr {
  struct Node;
  std::shared_ptr<const Node> root;
  std::vector<std::string> names;  // identifiers as written
  std::string text;
};

// Throws InputError at `where` for a syntax error or an unknown function.
ScaleExpr parse_scale_expr(const std::string& text, const Where& where);

struct Claim {
  std::string id, says, paper;
  Where where;
  Selection rows;
  std::optional<Selection> ratio_to;
  std::string column = "time_median_s";
  Where column_where;
  std::vector<std::string> for_each;
  Where for_each_where;
  std::string reduce;  // empty: a side with several rows is "every row" (constants) or an error
  std::optional<double> at_most, at_least;
  bool equals_optimum = false;
  std::optional<std::string> equals;  // a number or a text, compared with each row's value
  std::optional<ScaleExpr> scales_as;
  struct PowerFit {
    std::string x;  // the column of x (i.n)
    Where where;
    std::optional<double> exponent, extrapolate_to;
  };
  std::optional<PowerFit> power_fit;
  std::optional<double> within;  // scales_as, power_fit: required; equals: relative tolerance
  std::optional<std::size_t> min_rows, min_instances;
  std::vector<std::string> tolerate;  // statuses a selected row may have besides ok
  struct Revision {
    std::string date, old, why;
  };
  std::vector<Revision> revised;
};

// The claims of a `claims:` value; InputError "FILE:LINE:COLUMN: claims[i] (id): ..." naming
// the key and the allowed keys or values.
std::vector<Claim> read_claims_section(const YAML::Node& claims, const std::string& file);

// The experiment name and claims of a file, read without the registry (verify needs neither
// the solvers nor the instance files).
struct ClaimsFile {
  std::string name;
  std::vector<Claim> claims;
};
ClaimsFile read_claims_file(const std::string& file);

// Column names a claim may use: `time` for time_median_s; the rest as in summary.csv.
std::string claim_column(const std::string& written);

// The row passes every condition. Conditions on columns the row lacks pass when
// `absent_passes` (a planned case does not know its results yet), else fail.
bool selects(const Selection& s, const ClaimRow& row, bool absent_passes = false);
bool condition_holds(const Condition& c, const std::string& value);

// A number of a cell ("4096", "1.2e-3"); nullopt for text or empty.
std::optional<double> cell_number(const std::string& text);

// f(row); nullopt when a name has no number in the row. Names resolve as written, then
// with the prefixes i., s., c.
std::optional<double> evaluate(const ScaleExpr& e, const ClaimRow& row);
std::optional<std::string> resolve_name(const std::string& name,
                                        const std::set<std::string>& columns);

// Every column a claim names, with where it is named (for the checks of check and verify).
struct NamedColumn {
  std::string name;
  Where where;
  std::string key;  // "rows", "column", "for_each", ...
};
std::vector<NamedColumn> named_columns(const Claim& c);

// A column of the energy window's (energy_j, power_w, work_per_joule, ...: record_rows.cpp).
bool energy_column(const std::string& name);

// `dpgpu check`: every named column is one the results will have (`known`, or a prefix
// only a run sets: c., phase., gpu.; m.<metric> of the profile), every selection matches
// a planned case, and ratio_to finds a partner. InputError naming FILE:LINE:COLUMN.
void check_claims(const std::vector<Claim>& claims, const std::vector<ClaimRow>& cases,
                  const std::set<std::string>& known, const std::vector<std::string>& metrics);

}  // namespace dpgpu
