// generators.hpp — instance makers as plain functions (tests call them; the registered
// generators in generators.cpp wrap them) and the file reader.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string_view>

#include "mcm/mcm.hpp"

namespace mcm {

// n + 1 dimensions uniform in [lo, hi], drawn from std::mt19937_64(seed). Throws InputError.
Instance random_instance(std::int64_t n, std::int64_t lo, std::int64_t hi, std::uint64_t seed);

// The text format: p0 … pn as whitespace-separated positive integers, any line breaks,
// '#' starts a comment (to the end of its line). Errors name the file and line.
Instance parse_dimensions(std::string_view text, const std::filesystem::path& path);

}  // namespace mcm
