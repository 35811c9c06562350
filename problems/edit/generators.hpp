// generators.hpp — the instance generators as plain functions (the registered `random`,
// `planted` and `mutated` generators call these; tests and other tools may call them).
#pragma once
#include <cstdint>

#include "edit/edit.hpp"

namespace edit {

// a: n symbols, b: m symbols, uniform over lcs::symbols(alphabet) (lcs::random_pair).
Instance random_pair(std::int64_t n, std::int64_t m, int alphabet, std::uint64_t seed);

// A pair whose edit distance is known by construction (planted.cpp, README.md): a is n
// symbols over the first alphabet - 1 symbols; b is a with `distance` edits, each an
// insertion (with probability insert_fraction) or a substitution of a distinct position, the
// new symbol always the last symbol of the alphabet, which a lacks. alphabet >= 2;
// substitutions at most n.
struct Planted {
  Instance instance;
  std::int64_t distance = 0;
};
Planted planted_pair(std::int64_t n, int alphabet, std::int64_t distance, double insert_fraction,
                     std::uint64_t seed);

// a: n uniform symbols (the seed string); b: a copy of a with round(divergence · n) random
// edits, each a substitution (by a different symbol), an insertion or a deletion with equal
// probability, at uniform positions of the string as it is being edited. The distance is at
// most the number of edits (not known exactly).
Instance mutated_pair(std::int64_t n, int alphabet, double divergence, std::uint64_t seed);

}  // namespace edit
