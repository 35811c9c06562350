#include "dpgpu/params.hpp"

#include <fmt/format.h>

#include <cmath>

#include "dpgpu/error.hpp"

namespace dpgpu {

const char* to_string(ParamType t) {
  switch (t) {
    case ParamType::Bool: return "bool";
    case ParamType::Int: return "int";
    case ParamType::Real: return "real";
    case ParamType::String: return "string";
    case ParamType::Choice: return "choice";
  }
  return "?";
}

std::string ParamSpec::describe_allowed() const {
  auto bound = [](const std::optional<double>& b, const char* inf) {
    return b ? fmt::format("{}", *b) : std::string(inf);
  };
  switch (type) {
    case ParamType::Bool: return "true or false";
    case ParamType::String: return "any text";
    case ParamType::Choice: return fmt::format("one of: {}", fmt::join(choices, ", "));
    case ParamType::Int:
    case ParamType::Real:
      if (!range.min && !range.max) return to_string(type);
      return fmt::format("{} in [{}, {}]", to_string(type), bound(range.min, "-inf"),
                         bound(range.max, "inf"));
  }
  return "";
}

Value ParamSpec::normalized(const Value& v) const {
  // 2^63 is exact in a double; whole values below it fit an int64.
  if (const double* x = std::get_if<double>(&v); type == ParamType::Int && x && std::isfinite(*x) &&
                                                 *x == std::floor(*x) && std::fabs(*x) < 0x1p63)
    return Value(static_cast<std::int64_t>(*x));
  return v;
}

std::optional<std::string> ParamSpec::reject(const Value& v) const {
  auto wrong = [&] {
    return fmt::format("expected {}, got {} '{}'", describe_allowed(), type_name(v),
                       dpgpu::to_string(v));
  };
  double x = 0;
  switch (type) {
    case ParamType::Bool:
      return std::holds_alternative<bool>(v) ? std::nullopt : std::optional(wrong());
    case ParamType::String:
      return std::holds_alternative<std::string>(v) ? std::nullopt : std::optional(wrong());
    case ParamType::Choice: {
      // A choice named by a number ("32") may be written as one (cell: 32).
      if (!std::holds_alternative<std::string>(v) && !std::holds_alternative<std::int64_t>(v))
        return wrong();
      const std::string s = dpgpu::to_string(v);
      for (auto& c : choices)
        if (c == s) return std::nullopt;
      return wrong();
    }
    case ParamType::Int:
      if (!std::holds_alternative<std::int64_t>(v)) return wrong();
      x = static_cast<double>(std::get<std::int64_t>(v));
      break;
    case ParamType::Real:
      if (!std::holds_alternative<std::int64_t>(v) && !std::holds_alternative<double>(v))
        return wrong();
      x = to_number(v);
      break;
  }
  if ((range.min && x < *range.min) || (range.max && x > *range.max)) return wrong();
  return std::nullopt;
}

const Value& Params::at(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) throw std::logic_error("parameter '" + name + "' was never declared");
  return it->second;
}
template <class T>
static const T& read_as(const Value& v, const std::string& name, const char* wanted) {
  if (auto x = std::get_if<T>(&v)) return *x;
  throw std::logic_error(fmt::format("parameter '{}' holds {} '{}' but was read as {}", name,
                                     type_name(v), dpgpu::to_string(v), wanted));
}
std::int64_t Params::integer(const std::string& name) const {
  return read_as<std::int64_t>(at(name), name, "int");
}
double Params::real(const std::string& name) const {
  const Value& v = at(name);
  if (std::holds_alternative<bool>(v) || std::holds_alternative<std::string>(v))
    throw std::logic_error(fmt::format("parameter '{}' holds {} '{}' but was read as real", name,
                                       type_name(v), dpgpu::to_string(v)));
  return to_number(v);
}
bool Params::flag(const std::string& name) const { return read_as<bool>(at(name), name, "bool"); }
const std::string& Params::text(const std::string& name) const {
  return read_as<std::string>(at(name), name, "text");
}

ParamRule multiple_of(std::int64_t m) {
  return [m](const Value& v) -> std::optional<std::string> {
    auto x = std::get_if<std::int64_t>(&v);
    if (x && *x % m == 0) return std::nullopt;
    return fmt::format("must be a multiple of {}, got {}", m, dpgpu::to_string(v));
  };
}

ParamRule power_of_two() {
  return [](const Value& v) -> std::optional<std::string> {
    auto x = std::get_if<std::int64_t>(&v);
    if (x && *x > 0 && (*x & (*x - 1)) == 0) return std::nullopt;
    return fmt::format("must be a power of two, got {}", dpgpu::to_string(v));
  };
}

ParamRule one_of(std::vector<std::int64_t> allowed) {
  return [allowed = std::move(allowed)](const Value& v) -> std::optional<std::string> {
    auto x = std::get_if<std::int64_t>(&v);
    for (auto a : allowed)
      if (x && *x == a) return std::nullopt;
    return fmt::format("must be one of {}, got {}", fmt::join(allowed, ", "), dpgpu::to_string(v));
  };
}

Schema& Schema::add(ParamSpec spec) {
  if (find(spec.name)) throw std::logic_error("parameter '" + spec.name + "' declared twice");
  if (auto why = spec.reject(spec.default_value))
    throw std::logic_error("default of parameter '" + spec.name + "': " + *why);
  specs_.push_back(std::move(spec));
  return *this;
}

Schema& Schema::set_rule(const std::string& name, ParamRule rule) {
  auto spec = find(name);
  if (!spec) throw std::logic_error("rule for undeclared parameter '" + name + "'");
  if (auto why = rule(spec->default_value))
    throw std::logic_error("default of parameter '" + name + "': " + *why);
  rules_[name] = std::move(rule);
  return *this;
}

Schema& Schema::add_check(ParamsCheck check) {
  ValueMap defaults;
  for (auto& spec : specs_) defaults[spec.name] = spec.default_value;
  if (auto why = check(Params(defaults)))
    throw std::logic_error("the defaults break a rule: " + *why);
  checks_.push_back(std::move(check));
  return *this;
}

const ParamSpec* Schema::find(const std::string& name) const {
  for (auto& s : specs_)
    if (s.name == name) return &s;
  return nullptr;
}

Value Schema::check_value(const std::string& name, const Value& given,
                          const std::string& where) const {
  std::string prefix = where.empty() ? "" : where + ": ";
  auto spec = find(name);
  if (!spec) {
    std::vector<std::string> known;
    for (auto& s : specs_) known.push_back(s.name);
    throw InputError(
        fmt::format("{}unknown parameter '{}' (known: {})", prefix, name,
                    known.empty() ? "none" : fmt::format("{}", fmt::join(known, ", "))));
  }
  const Value value = spec->normalized(given);
  if (auto why = spec->reject(value))
    throw InputError(fmt::format("{}parameter '{}': {}", prefix, name, *why));
  if (auto rule = rules_.find(name); rule != rules_.end())
    if (auto why = rule->second(value))
      throw InputError(fmt::format("{}parameter '{}': {}", prefix, name, *why));
  // Reals given as ints are stored as reals, and choices as text, so solvers read one type.
  return spec->type == ParamType::Real     ? Value(to_number(value))
         : spec->type == ParamType::Choice ? Value(to_string(value))
                                           : value;
}

Params Schema::resolve(const ValueMap& given, const std::string& where) const {
  std::string prefix = where.empty() ? "" : where + ": ";
  ValueMap out;
  for (auto& [name, value] : given) out[name] = check_value(name, value, where);
  for (auto& s : specs_)
    if (!out.count(s.name)) out[s.name] = s.default_value;
  Params resolved(std::move(out));
  for (auto& check : checks_)
    if (auto why = check(resolved)) throw InputError(fmt::format("{}{}", prefix, *why));
  return resolved;
}

}  // namespace dpgpu
