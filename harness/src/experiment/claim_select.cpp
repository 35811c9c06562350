// claim_select.cpp — which rows a claim's selection takes, and the f(row) of scales_as.
#include <fmt/format.h>

#include <cctype>
#include <cmath>
#include <regex>

#include "dpgpu/error.hpp"
#include "experiment/claims.hpp"

namespace dpgpu {

// ---------------------------------------------------------------------------------------
// Selections.

namespace {

// Equal as numbers where both read as numbers ("4096" = "4096.0"), else as text.
bool same_value(const std::string& cell, const std::string& written) {
  auto a = cell_number(cell), b = cell_number(written);
  if (a && b) return *a == *b || std::fabs(*a - *b) <= 1e-12 * std::fabs(*b);
  return cell == written;
}

}  // namespace

bool condition_holds(const Condition& c, const std::string& value) {
  using Op = Condition::Op;
  switch (c.op) {
    case Op::Equal: return same_value(value, c.texts.front());
    case Op::NotEqual: return !same_value(value, c.texts.front());
    case Op::AnyOf:
      for (auto& t : c.texts)
        if (same_value(value, t)) return true;
      return false;
    case Op::Matches: return std::regex_search(value, std::regex(c.texts.front()));
    default: break;
  }
  auto v = cell_number(value);
  if (!v) return false;
  switch (c.op) {
    case Op::Less: return *v < c.number;
    case Op::LessEqual: return *v <= c.number;
    case Op::Greater: return *v > c.number;
    case Op::GreaterEqual: return *v >= c.number;
    default: return false;
  }
}

bool selects(const Selection& s, const ClaimRow& row, bool absent_passes) {
  for (const Condition& c : s.conditions) {
    auto it = row.find(c.column);
    if (it == row.end()) {
      if (absent_passes) continue;
      return false;
    }
    if (!condition_holds(c, it->second)) return false;
  }
  return true;
}

std::optional<std::string> resolve_name(const std::string& name,
                                        const std::set<std::string>& columns) {
  for (const char* prefix : {"", "i.", "s.", "c."})
    if (columns.count(prefix + name)) return prefix + name;
  return std::nullopt;
}

std::vector<NamedColumn> named_columns(const Claim& c) {
  std::vector<NamedColumn> out;
  for (auto& cond : c.rows.conditions) out.push_back({cond.column, cond.where, "rows"});
  if (c.ratio_to)
    for (auto& cond : c.ratio_to->conditions) out.push_back({cond.column, cond.where, "ratio_to"});
  out.push_back({c.column, c.column_where, "column"});
  for (auto& f : c.for_each) out.push_back({f, c.for_each_where, "for_each"});
  if (c.power_fit) out.push_back({c.power_fit->x, c.power_fit->where, "power_fit"});
  return out;
}

// ---------------------------------------------------------------------------------------
// scales_as: a small expression language, parsed once into a tree.

struct ScaleExpr::Node {
  char op = 0;  // + - * / ^, 'n' number, 'v' name, 'f' function
  double number = 0;
  std::string name;  // a name or a function (log, log2, sqrt)
  std::shared_ptr<const Node> a, b;
};

namespace {

using NodeP = std::shared_ptr<const ScaleExpr::Node>;

class ExprParser {
 public:
  ExprParser(const std::string& text, const Where& where, std::vector<std::string>& names)
      : s_(text), where_(where), names_(names) {}

  NodeP parse() {
    NodeP n = sum();
    skip();
    if (i_ != s_.size()) fail(fmt::format("unexpected '{}'", s_.substr(i_, 1)));
    return n;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(fmt::format(
        "{}: scales_as '{}': {} at character {} (allowed: numbers, column names such as "
        "n or i.n, + - * / ^, parentheses, log, log2, sqrt)",
        where_.str(), s_, what, i_ + 1));
  }
  void skip() {
    while (i_ < s_.size() && s_[i_] == ' ') ++i_;
  }
  bool eat(char c) {
    skip();
    if (i_ < s_.size() && s_[i_] == c) return ++i_, true;
    return false;
  }
  static NodeP binary(char op, NodeP a, NodeP b) {
    auto n = std::make_shared<ScaleExpr::Node>();
    n->op = op, n->a = std::move(a), n->b = std::move(b);
    return n;
  }
  NodeP sum() {
    NodeP n = product();
    for (;;) {
      if (eat('+'))
        n = binary('+', n, product());
      else if (eat('-'))
        n = binary('-', n, product());
      else
        return n;
    }
  }
  NodeP product() {
    NodeP n = power();
    for (;;) {
      if (eat('*'))
        n = binary('*', n, power());
      else if (eat('/'))
        n = binary('/', n, power());
      else
        return n;
    }
  }
  NodeP power() {
    NodeP n = atom();
    if (eat('^')) return binary('^', n, power());
    return n;
  }
  NodeP atom();

  const std::string& s_;
  Where where_;
  std::vector<std::string>& names_;
  std::size_t i_ = 0;
};

NodeP ExprParser::atom() {
  skip();
  if (eat('(')) {
    NodeP n = sum();
    if (!eat(')')) fail("missing ')'");
    return n;
  }
  auto n = std::make_shared<ScaleExpr::Node>();
  const std::size_t start = i_;
  if (i_ < s_.size() && (std::isdigit(static_cast<unsigned char>(s_[i_])) || s_[i_] == '.')) {
    while (i_ < s_.size() &&
           (std::isdigit(static_cast<unsigned char>(s_[i_])) || s_[i_] == '.' || s_[i_] == 'e'))
      ++i_;
    auto v = cell_number(s_.substr(start, i_ - start));
    if (!v) fail("not a number");
    n->op = 'n', n->number = *v;
    return n;
  }
  while (i_ < s_.size() &&
         (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '_' || s_[i_] == '.'))
    ++i_;
  if (i_ == start)
    fail(i_ < s_.size() ? fmt::format("unexpected '{}'", s_.substr(i_, 1))
                        : "the expression ends early");
  n->name = s_.substr(start, i_ - start);
  if (eat('(')) {
    if (n->name != "log" && n->name != "log2" && n->name != "sqrt")
      fail(fmt::format("unknown function '{}'", n->name));
    n->op = 'f', n->a = sum();
    if (!eat(')')) fail("missing ')'");
    return n;
  }
  n->op = 'v';
  names_.push_back(n->name);
  return n;
}

std::optional<double> eval(const ScaleExpr::Node& n, const ClaimRow& row,
                           const std::set<std::string>& columns) {
  if (n.op == 'n') return n.number;
  if (n.op == 'v') {
    auto col = resolve_name(n.name, columns);
    if (!col) return std::nullopt;
    return cell_number(row.at(*col));
  }
  auto a = eval(*n.a, row, columns);
  if (!a) return std::nullopt;
  if (n.op == 'f')
    return n.name == "log" ? std::log(*a) : n.name == "log2" ? std::log2(*a) : std::sqrt(*a);
  auto b = eval(*n.b, row, columns);
  if (!b) return std::nullopt;
  switch (n.op) {
    case '+': return *a + *b;
    case '-': return *a - *b;
    case '*': return *a * *b;
    case '/': return *a / *b;
    default: return std::pow(*a, *b);
  }
}

}  // namespace

ScaleExpr parse_scale_expr(const std::string& text, const Where& where) {
  ScaleExpr e;
  e.text = text;
  e.root = ExprParser(text, where, e.names).parse();
  return e;
}

std::optional<double> evaluate(const ScaleExpr& e, const ClaimRow& row) {
  std::set<std::string> columns;
  for (auto& [k, v] : row)
    if (!v.empty()) columns.insert(k);
  return eval(*e.root, row, columns);
}

}  // namespace dpgpu
