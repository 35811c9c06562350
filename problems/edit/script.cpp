// Applying an edit script, its cost, and building one from alignment columns.
#include "edit/script.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace edit {

namespace {

bool consumes_a(char op) { return op == '=' || op == 'X' || op == 'D'; }
bool consumes_b(char op) { return op == '=' || op == 'X' || op == 'I'; }

}  // namespace

std::optional<std::string> apply(const Script& s, std::string_view a, std::string* why) {
  std::string out;
  out.reserve(a.size());
  std::size_t i = 0, k = 0;  // next symbol of a, of s.symbols
  for (std::size_t t = 0; t < s.ops.size(); ++t) {
    const char op = s.ops[t];
    if (op != '=' && op != 'X' && op != 'D' && op != 'I') {
      *why = fmt::format("operation #{} is '{}'; an edit script holds only '=', 'X', 'D', 'I'",
                         t + 1, op);
      return std::nullopt;
    }
    if (consumes_a(op) && i == a.size()) {
      *why = fmt::format("operation #{} ('{}') reads past the end of a (length {})", t + 1, op,
                         a.size());
      return std::nullopt;
    }
    if ((op == 'X' || op == 'I') && k == s.symbols.size()) {
      *why = fmt::format("operation #{} ('{}') needs symbol #{}, but the script has {}", t + 1, op,
                         k + 1, s.symbols.size());
      return std::nullopt;
    }
    if (op == '=') out.push_back(a[i]);
    if (op == 'X' || op == 'I') out.push_back(s.symbols[k++]);
    if (consumes_a(op)) ++i;
  }
  if (i != a.size()) {
    *why = fmt::format("the script uses {} of a's {} symbols", i, a.size());
    return std::nullopt;
  }
  if (k != s.symbols.size()) {
    *why = fmt::format("the script has {} symbols but its 'X' and 'I' use {}", s.symbols.size(), k);
    return std::nullopt;
  }
  return out;
}

std::int64_t cost(const Script& s) {
  std::int64_t c = 0;
  for (const char op : s.ops) c += op != '=';
  return c;
}

Script script_from_columns(std::string ops, std::string_view a, std::string_view b) {
  Script s;
  std::size_t i = 0, j = 0;
  for (std::size_t t = 0; t < ops.size(); ++t) {
    const char op = ops[t];
    if ((consumes_a(op) && i == a.size()) || (consumes_b(op) && j == b.size()) ||
        !(consumes_a(op) || consumes_b(op)))
      throw std::invalid_argument(
          fmt::format("script_from_columns: column #{} ('{}') does not fit a (at {} of {}) and "
                      "b (at {} of {})",
                      t + 1, op, i, a.size(), j, b.size()));
    if (op == '=' && a[i] != b[j])
      throw std::invalid_argument(
          fmt::format("script_from_columns: column #{} is '=' on different symbols (a[{}], b[{}])",
                      t + 1, i, j));
    if (op == 'X' || op == 'I') s.symbols.push_back(b[j]);
    i += consumes_a(op);
    j += consumes_b(op);
  }
  if (i != a.size() || j != b.size())
    throw std::invalid_argument(
        fmt::format("script_from_columns: the columns use {} of a's {} and {} of b's {} symbols", i,
                    a.size(), j, b.size()));
  s.ops = std::move(ops);
  return s;
}

}  // namespace edit
