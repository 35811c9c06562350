// symbols.hpp — which bytes an alphabet of size k uses, the same on every machine.
#pragma once
#include <string>

namespace lcs {

// The first k symbols of one fixed order of all 256 byte values:
//   "ACGT", the other upper-case letters, lower-case letters, digits, the other
//   printable ASCII characters in code order ('!' .. '~'), then the remaining raw bytes
//   (0x00..0x20, 0x7f..0xff) in code order.
// So alphabet 4 is "ACGT" and every alphabet is a prefix of the next larger one.
// Throws std::invalid_argument unless 1 <= k <= 256.
std::string symbols(int k);

}  // namespace lcs
