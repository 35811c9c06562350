#include "lcs/symbols.hpp"

#include <array>
#include <stdexcept>

namespace lcs {

namespace {

std::string all_symbols_in_order() {
  std::string order = "ACGT";
  std::array<bool, 256> used{};
  for (unsigned char c : order) used[c] = true;
  auto append_range = [&](int lo, int hi) {
    for (int c = lo; c <= hi; ++c)
      if (!used[c]) {
        used[c] = true;
        order.push_back(static_cast<char>(c));
      }
  };
  append_range('A', 'Z');
  append_range('a', 'z');
  append_range('0', '9');
  append_range('!', '~');  // remaining printable characters, no space
  append_range(0, 255);    // remaining raw bytes
  return order;
}

}  // namespace

std::string symbols(int k) {
  if (k < 1 || k > 256) throw std::invalid_argument("alphabet size must be in [1, 256]");
  static const std::string order = all_symbols_in_order();
  return order.substr(0, static_cast<std::size_t>(k));
}

}  // namespace lcs
