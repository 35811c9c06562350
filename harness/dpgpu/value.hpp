// value.hpp — the scalar values an experiment file can hold (parameters, instance sizes).
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <variant>

namespace dpgpu {

using Value = std::variant<bool, std::int64_t, double, std::string>;
using ValueMap = std::map<std::string, Value>;  // ordered: stable column order

std::string to_string(const Value& v);  // 42, 0.5, true, text (no quotes)
double to_number(const Value& v);       // bool→0/1, int, real; text → NaN
const char* type_name(const Value& v);  // "bool", "int", "real", "string"

}  // namespace dpgpu
