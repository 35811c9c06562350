// lines.hpp — splitting file text into lines, for the FASTA and plain-text readers.
#pragma once
#include <string_view>
#include <vector>

namespace lcs {

// Lines without their terminator ("\n", or "\r\n": a trailing '\r' is line ending, not data).
std::vector<std::string_view> split_lines(std::string_view text);

// True for a line of spaces, tabs and similar only.
bool is_blank(std::string_view line);

}  // namespace lcs
