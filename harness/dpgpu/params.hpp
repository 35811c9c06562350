// params.hpp — typed parameter schemas (solvers, generators) and the values resolved from them.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "dpgpu/value.hpp"

namespace dpgpu {

enum class ParamType { Bool, Int, Real, String, Choice };
const char* to_string(ParamType t);

struct Range {
  std::optional<double> min, max;  // inclusive
};
inline Range between(double lo, double hi) { return {lo, hi}; }
inline Range at_least(double lo) { return {lo, std::nullopt}; }

// An extra check on a parameter's value beyond its type and range (a syntax, a relation between
// parts of a string), attached with Schema::set_rule: why the value is not acceptable, or nullopt.
using ParamRule = std::function<std::optional<std::string>(const Value&)>;

// Common rules: an int that is a multiple of `m`, a power of two, one of a few values.
ParamRule multiple_of(std::int64_t m);
ParamRule power_of_two();
ParamRule one_of(std::vector<std::int64_t> allowed);

class Params;
// A rule across parameters (`block` relative to `tile_width`, a mode needing a flag), checked
// on the resolved values after every single-parameter check: why they are not acceptable
// together, naming the parameters, or nullopt.
using ParamsCheck = std::function<std::optional<std::string>(const Params&)>;

struct ParamSpec {
  std::string name;
  ParamType type = ParamType::Int;
  Value default_value;
  Range range;                       // Int and Real
  std::vector<std::string> choices;  // Choice
  std::string help;

  // Why `v` is not acceptable (wrong type, out of range, not a choice), or nullopt.
  // Ints are accepted for Real; nothing else (a whole real for Int: pass normalized(v)).
  std::optional<std::string> reject(const Value& v) const;
  // The value as the parameter stores it: an int parameter written as a whole real (YAML reads
  // `n: 1e12` as a real) becomes that integer; anything else is returned as given.
  Value normalized(const Value& v) const;
  std::string describe_allowed() const;  // "int in [32, 1024]", "one of: texture, ldg, plain"
};

// The resolved values handed to a solver or generator: every spec'd name has a value.
// Reading one as another type than it was declared throws std::logic_error naming it (a bug in
// the solver, not in the input); solvers bound to a config (registry.hpp) never read by name.
class Params {
 public:
  Params() = default;
  explicit Params(ValueMap values) : values_(std::move(values)) {}
  std::int64_t integer(const std::string& name) const;
  double real(const std::string& name) const;
  bool flag(const std::string& name) const;
  const std::string& text(const std::string& name) const;  // String and Choice
  const ValueMap& values() const { return values_; }

 private:
  const Value& at(const std::string& name) const;
  ValueMap values_;
};

class Schema {
 public:
  Schema& add(ParamSpec spec);
  const std::vector<ParamSpec>& specs() const { return specs_; }
  const ParamSpec* find(const std::string& name) const;
  // Attaches a rule to the declared parameter `name`; its default must pass it. resolve()
  // runs it after the type and range checks.
  Schema& set_rule(const std::string& name, ParamRule rule);
  // Adds a rule across parameters; the defaults together must pass it. resolve() runs it last.
  Schema& add_check(ParamsCheck check);
  // Fills defaults; throws InputError naming the key and the allowed values on an unknown
  // name or a rejected value. `where` prefixes messages (e.g. "exp.yaml:12: solver gpu.x").
  Params resolve(const ValueMap& given, const std::string& where = "") const;
  // One value on its own: its name, type, range and rule, not the checks across parameters
  // (whose other parameters are not known yet; resolve() runs those on whole points).
  // Returns the value as resolve() stores it (normalized; Real as a real, Choice as text).
  Value check_value(const std::string& name, const Value& v, const std::string& where = "") const;

 private:
  std::vector<ParamSpec> specs_;
  std::map<std::string, ParamRule> rules_;
  std::vector<ParamsCheck> checks_;
};

}  // namespace dpgpu
