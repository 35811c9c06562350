// script.hpp — an edit script: the operations that turn a into b, one per alignment column.
//
// ops holds one letter per operation, read left to right over a and b:
//   '=' copy the next symbol of a (cost 0)        'X' replace it by the next of `symbols` (1)
//   'D' delete the next symbol of a (1)           'I' insert the next of `symbols` (1)
// `symbols` holds, in order, the new symbol of every 'X' and 'I', so the script alone, applied
// to a, rebuilds b: the verifier needs nothing from the solver but the script.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace edit {

struct Script {
  std::string ops;      // '=', 'X', 'D', 'I'
  std::string symbols;  // one per 'X' and 'I', in order
};

// The string the script makes from a, or why it cannot be applied (an unknown letter, a
// copy, replacement or deletion past the end of a, too few or too many symbols, a left-over
// part of a), in `why`.
std::optional<std::string> apply(const Script& s, std::string_view a, std::string* why);

// Operations that cost 1 ('X', 'D', 'I').
std::int64_t cost(const Script& s);

// The script of an alignment given as a column string over '=', 'X', 'D', 'I' against a and
// b: the symbols of 'X' and 'I' are taken from b. Throws std::invalid_argument when the
// columns do not fit the strings ('=' on different symbols, running past either end, or
// not using both strings whole).
Script script_from_columns(std::string ops, std::string_view a, std::string_view b);

}  // namespace edit
