// reference.hpp — the tiny reference solver that tests hold every other solver to.
// Deliberately plain (the textbook recurrence over two rows), so it is easy to trust.
#pragma once
#include <cstdint>
#include <string_view>

namespace lcs {

std::int64_t reference_length(std::string_view a, std::string_view b);

}  // namespace lcs
