// claims.cpp — reads the `claims:` section (claims.hpp). Every error names the file, line,
// column, the claim and the key, and lists what is allowed.
#include "experiment/claims.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <cmath>
#include <fstream>
#include <regex>
#include <sstream>

#include "dpgpu/error.hpp"
#include "experiment/node_reader.hpp"

namespace dpgpu {

namespace {

const std::vector<std::string> kClaimKeys = {
    "id",       "says",          "paper",     "rows",    "column",    "ratio_to", "at_most",
    "at_least", "equals",        "scales_as", "within",  "for_each",  "at",       "reduce",
    "min_rows", "min_instances", "tolerate",  "revised", "power_fit", "exponent", "extrapolate_to"};

const std::vector<std::string> kStatuses = {"invalid", "error", "timeout", "oom", "skipped"};

std::string trimmed(const std::string& s) {
  const auto a = s.find_first_not_of(" \t");
  if (a == std::string::npos) return "";
  return s.substr(a, s.find_last_not_of(" \t") - a + 1);
}

// "1024", "1e6", "2^15".
std::optional<double> number_text(const std::string& text) {
  const std::string t = trimmed(text);
  if (auto caret = t.find('^'); caret != std::string::npos) {
    auto base = number_text(t.substr(0, caret)), power = number_text(t.substr(caret + 1));
    if (!base || !power) return std::nullopt;
    return std::pow(*base, *power);
  }
  return cell_number(t);
}

// One filter: `column: value`.
Condition read_condition(const NodeReader& r, const std::string& label, const YAML::Node& key,
                         const YAML::Node& v) {
  Condition c;
  c.column = claim_column(key.Scalar());
  c.where = r.at(key);
  if (v.IsSequence() && v.size() > 0) {
    c.op = Condition::Op::AnyOf;
    for (const auto& item : v) {
      if (!item.IsScalar())
        r.fail(item,
               fmt::format("{}: '{}': a list of values holds plain values", label, key.Scalar()));
      c.texts.push_back(item.Scalar());
    }
    return c;
  }
  if (!v.IsScalar())
    r.fail(v.IsNull() ? key : v,
           fmt::format("{}: '{}': expected a value, a list of values, or \">= 1024\", \"< 2^15\", "
                       "\"!= x\", \"~ regex\"",
                       label, key.Scalar()));
  const std::string text = v.Scalar();
  static const std::vector<std::pair<std::string, Condition::Op>> ops = {
      {">=", Condition::Op::GreaterEqual}, {"<=", Condition::Op::LessEqual},
      {"!=", Condition::Op::NotEqual},     {">", Condition::Op::Greater},
      {"<", Condition::Op::Less},          {"~", Condition::Op::Matches}};
  for (auto& [sym, op] : ops) {
    if (text.rfind(sym, 0) != 0) continue;
    c.op = op;
    const std::string rest = trimmed(text.substr(sym.size()));
    if (op == Condition::Op::NotEqual || op == Condition::Op::Matches) {
      c.texts.push_back(rest);
      if (op == Condition::Op::Matches) {
        try {
          std::regex re(rest);
        } catch (const std::regex_error& e) {
          r.fail(v, fmt::format("{}: '{}': '{}' is not a regular expression: {}", label,
                                key.Scalar(), rest, e.what()));
        }
      }
      return c;
    }
    auto n = number_text(rest);
    if (!n)
      r.fail(v, fmt::format("{}: '{}': '{}' needs a number after {} (e.g. \"{} 1024\")", label,
                            key.Scalar(), text, sym, sym));
    c.number = *n;
    return c;
  }
  c.texts.push_back(text);
  return c;
}

Selection read_selection(const NodeReader& r, const std::string& label, const YAML::Node& key,
                         const YAML::Node& v) {
  if (!v.IsMap() || v.size() == 0)
    r.fail(v.IsNull() ? key : v,
           fmt::format("{}: '{}': expected a mapping of column: value, e.g. {{solver: gpu.mcm, "
                       "s.policy: calibrate, i.n: \">= 1024\"}}",
                       label, key.Scalar()));
  Selection s;
  s.where = r.at(v);
  for (const auto& kv : v)
    s.conditions.push_back(read_condition(r, label + ": " + key.Scalar(), kv.first, kv.second));
  return s;
}

double read_number(const NodeReader& r, const std::string& label, const YAML::Node& key,
                   const YAML::Node& v) {
  std::optional<double> n = v.IsScalar() ? number_text(v.Scalar()) : std::nullopt;
  if (!n || !std::isfinite(*n))
    r.fail(v.IsNull() ? key : v, fmt::format("{}: '{}': expected a number", label, key.Scalar()));
  return *n;
}

std::string read_text(const NodeReader& r, const std::string& label, const YAML::Node& key,
                      const YAML::Node& v) {
  if (!v.IsScalar() || trimmed(v.Scalar()).empty())
    r.fail(v.IsNull() ? key : v,
           fmt::format("{}: '{}': expected a short text", label, key.Scalar()));
  return trimmed(v.Scalar());
}

void read_for_each(const NodeReader& r, const std::string& label, const YAML::Node& key,
                   const YAML::Node& v, Claim& c) {
  c.for_each_where = r.at(v.IsNull() ? key : v);
  if (v.IsScalar() && !v.Scalar().empty()) {
    c.for_each.push_back(claim_column(v.Scalar()));
    return;
  }
  if (!v.IsSequence() || v.size() == 0)
    r.fail(v.IsNull() ? key : v,
           fmt::format("{}: 'for_each': expected a column (i.n, instance, ...) or a list of them",
                       label));
  for (const auto& item : v) {
    if (!item.IsScalar()) r.fail(item, label + ": 'for_each': expected column names");
    c.for_each.push_back(claim_column(item.Scalar()));
  }
}

std::size_t read_count(const NodeReader& r, const std::string& label, const YAML::Node& key,
                       const YAML::Node& v) {
  const double n = read_number(r, label, key, v);
  if (n < 0 || n != std::floor(n))
    r.fail(v, fmt::format("{}: '{}': expected a whole number >= 0", label, key.Scalar()));
  return std::size_t(n);
}

void read_tolerate(const NodeReader& r, const std::string& label, const YAML::Node& v, Claim& c) {
  if (!v.IsSequence() && !v.IsScalar())
    r.fail(v,
           label + ": 'tolerate': expected a status or a list of them (" + joined(kStatuses) + ")");
  const YAML::Node items = v.IsSequence() ? v : YAML::Node(std::vector<std::string>{v.Scalar()});
  for (const auto& item : items) {
    const std::string st = item.IsScalar() ? item.Scalar() : "";
    if (std::find(kStatuses.begin(), kStatuses.end(), st) == kStatuses.end())
      r.fail(v, fmt::format("{}: 'tolerate': unknown status '{}' (allowed: {})", label, st,
                            joined(kStatuses)));
    c.tolerate.push_back(st);
  }
}

void read_revised(const NodeReader& r, const std::string& label, const YAML::Node& v, Claim& c) {
  if (!v.IsSequence() || v.size() == 0)
    r.fail(v, label + ": 'revised': expected a list of {date: YYYY-MM-DD, old: ..., why: ...}");
  for (const auto& item : v) {
    Claim::Revision rev;
    for (auto [key, field] : {std::pair{"date", &rev.date}, {"old", &rev.old}, {"why", &rev.why}}) {
      const YAML::Node f = item.IsMap() ? item[key] : YAML::Node();
      if (!f || !f.IsScalar() || trimmed(f.Scalar()).empty())
        r.fail(item, fmt::format("{}: 'revised': each entry needs '{}' (date, old bound, why)",
                                 label, key));
      *field = trimmed(f.Scalar());
    }
    c.revised.push_back(rev);
  }
}

// power_fit: the x column; exponent, extrapolate_to: numbers (checked together later).
void read_power_fit(const NodeReader& r, const std::string& label, const YAML::Node& key,
                    const YAML::Node& v, Claim& c) {
  if (!c.power_fit) c.power_fit.emplace();
  const std::string k = key.Scalar();
  if (k == "power_fit") {
    c.power_fit->x = claim_column(read_text(r, label, key, v));
    c.power_fit->where = r.at(v);
  } else if (k == "exponent")
    c.power_fit->exponent = read_number(r, label, key, v);
  else
    c.power_fit->extrapolate_to = read_number(r, label, key, v);
}

void read_key(const NodeReader& r, const std::string& label, const YAML::Node& key,
              const YAML::Node& v, Claim& c) {
  const std::string k = key.Scalar();
  if (k == "says")
    c.says = read_text(r, label, key, v);
  else if (k == "paper")
    c.paper = read_text(r, label, key, v);
  else if (k == "rows")
    c.rows = read_selection(r, label, key, v);
  else if (k == "ratio_to")
    c.ratio_to = read_selection(r, label, key, v);
  else if (k == "column") {
    c.column = claim_column(read_text(r, label, key, v));
    c.column_where = r.at(v);
  } else if (k == "at_most")
    c.at_most = read_number(r, label, key, v);
  else if (k == "at_least")
    c.at_least = read_number(r, label, key, v);
  else if (k == "within")
    c.within = read_number(r, label, key, v);
  else if (k == "equals") {
    const std::string e = read_text(r, label, key, v);
    if (e == "optimum")
      c.equals_optimum = true;
    else
      c.equals = e;
  } else if (k == "scales_as")
    c.scales_as = parse_scale_expr(read_text(r, label, key, v), r.at(v));
  else if (k == "power_fit" || k == "exponent" || k == "extrapolate_to")
    read_power_fit(r, label, key, v, c);
  else if (k == "for_each")
    read_for_each(r, label, key, v, c);
  else if (k == "min_rows")
    c.min_rows = read_count(r, label, key, v);
  else if (k == "min_instances")
    c.min_instances = read_count(r, label, key, v);
  else if (k == "tolerate")
    read_tolerate(r, label, v, c);
  else if (k == "revised")
    read_revised(r, label, v, c);
  else if (k == "reduce") {
    c.reduce = read_text(r, label, key, v);
    if (c.reduce != "min" && c.reduce != "max" && c.reduce != "median" && c.reduce != "mean")
      r.fail(v, fmt::format("{}: 'reduce': unknown '{}' (allowed: min, max, median, mean)", label,
                            c.reduce));
  }
}

// power_fit: its x column, `within`, and bounds only on a value that is fitted.
void check_power_fit(const NodeReader& r, const std::string& label, const YAML::Node& item,
                     const Claim& c) {
  const Claim::PowerFit& f = *c.power_fit;
  if (f.x.empty())
    r.fail(item, label + ": exponent and extrapolate_to go with 'power_fit: COLUMN' (e.g. i.n)");
  if (!c.within)
    r.fail(item, label +
                     ": power_fit needs 'within' (the largest relative error of the fit on "
                     "the measured points, e.g. 0.15)");
  if (c.ratio_to) r.fail(item, label + ": power_fit and ratio_to do not go together");
  if (f.exponent && !f.extrapolate_to && (c.at_least || c.at_most))
    r.fail(item, label +
                     ": at_least / at_most bound the fitted exponent, which 'exponent' fixes; "
                     "add extrapolate_to: X to bound the fit at X");
  if (f.extrapolate_to && *f.extrapolate_to <= 0)
    r.fail(item, label + ": extrapolate_to must be above 0 (the fit is a·x^k)");
}

// The comparison: exactly one kind, with what it needs.
void check_comparison(const NodeReader& r, const std::string& label, const YAML::Node& item,
                      const Claim& c) {
  if (c.power_fit) check_power_fit(r, label, item, c);
  const int kinds = int((c.at_most || c.at_least) && !c.power_fit) +
                    int(c.equals_optimum || c.equals.has_value()) + int(c.scales_as.has_value()) +
                    int(c.power_fit.has_value());
  if (kinds != 1)
    r.fail(item, fmt::format("{}: give exactly one comparison: at_most and/or at_least, equals, "
                             "scales_as with within, or power_fit with within (and optionally "
                             "at_least / at_most on its value) (this claim has {})",
                             label, kinds));
  if (c.scales_as && !c.within)
    r.fail(item, label + ": scales_as needs 'within' (a relative tolerance, e.g. 0.15)");
  if (c.scales_as && c.ratio_to)
    r.fail(item, label + ": scales_as and ratio_to do not go together");
  if (c.equals_optimum && c.ratio_to)
    r.fail(item, label + ": equals: optimum compares each row with its own optimum; drop ratio_to");
  if (c.at_most && c.at_least && *c.at_least > *c.at_most)
    r.fail(item,
           fmt::format("{}: at_least {} is above at_most {}", label, *c.at_least, *c.at_most));
}

Claim read_claim(const NodeReader& r, const YAML::Node& item, std::size_t i,
                 std::set<std::string>& ids) {
  std::string label = fmt::format("claims[{}]", i);
  if (!item.IsMap())
    r.fail(item, label + ": a claim is a mapping (id: ..., says: ..., paper: ..., rows: ..., ...)");
  Claim c;
  c.where = r.at(item);
  c.column_where = c.where;
  const YAML::Node id = item["id"];
  if (!id || !id.IsScalar() || !std::regex_match(id.Scalar(), std::regex("[a-z0-9_.-]+")))
    r.fail(
        id ? id : item,
        label + ": 'id' is required: lower-case letters, digits, _ . - (e.g. calibrate_vs_block)");
  c.id = id.Scalar();
  if (!ids.insert(c.id).second) r.fail(id, fmt::format("{}: id '{}' is used twice", label, c.id));
  label += " (" + c.id + ")";
  std::optional<std::pair<YAML::Node, YAML::Node>> at;
  for (const auto& kv : item) {
    const std::string k = kv.first.Scalar();
    if (std::find(kClaimKeys.begin(), kClaimKeys.end(), k) == kClaimKeys.end())
      r.fail(kv.first,
             fmt::format("{}: unknown key '{}' (allowed keys: {})", label, k, joined(kClaimKeys)));
    if (k == "at")
      at.emplace(kv.first, kv.second);
    else
      read_key(r, label, kv.first, kv.second, c);
  }
  for (const char* need : {"says", "paper", "rows"})
    if (!item[need]) r.fail(item, fmt::format("{}: missing key '{}'", label, need));
  if (at) {
    // A point: the same filter on both sides.
    Selection point = read_selection(r, label, at->first, at->second);
    for (auto& cond : point.conditions) {
      c.rows.conditions.push_back(cond);
      if (c.ratio_to) c.ratio_to->conditions.push_back(cond);
    }
  }
  if (c.equals_optimum && !item["column"]) c.column = "objective";  // the optimum is an objective
  check_comparison(r, label, item, c);
  return c;
}

}  // namespace

std::string claim_column(const std::string& written) {
  if (written == "time") return "time_median_s";
  return written;
}

std::optional<double> cell_number(const std::string& text) {
  if (text.empty()) return std::nullopt;
  const char* begin = text.c_str();
  char* end = nullptr;
  const double v = std::strtod(begin, &end);
  if (end == begin) return std::nullopt;
  while (*end == ' ') ++end;
  if (*end != '\0') return std::nullopt;
  if (std::isnan(v)) return std::nullopt;
  return v;
}

std::vector<Claim> read_claims_section(const YAML::Node& claims, const std::string& file) {
  const NodeReader r(file);
  std::vector<Claim> out;
  if (claims.IsNull()) return out;
  if (!claims.IsSequence())
    r.fail(claims, "claims: must be a list of claims (- id: ..., says: ..., ...)");
  std::set<std::string> ids;
  std::size_t i = 0;
  for (const auto& item : claims) out.push_back(read_claim(r, item, i++, ids));
  return out;
}

ClaimsFile read_claims_file(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(file + ": cannot read the experiment file");
  std::ostringstream text;
  text << in.rdbuf();
  YAML::Node root;
  try {
    root = YAML::Load(text.str());
  } catch (const YAML::Exception& e) {
    throw InputError(fmt::format("{}:{}:{}: {}", file, e.mark.line + 1, e.mark.column + 1, e.msg));
  }
  ClaimsFile out;
  out.name = std::filesystem::path(file).stem().string();
  if (!root.IsMap()) return out;
  if (root["name"] && root["name"].IsScalar()) out.name = root["name"].Scalar();
  if (const YAML::Node c = root["claims"]) out.claims = read_claims_section(c, file);
  return out;
}

}  // namespace dpgpu
