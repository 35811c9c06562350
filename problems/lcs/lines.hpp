// lines.hpp — splitting file text into lines, for the FASTA and plain-text readers.
#pragma once
#include <string_view>
#include <vector>

#include "dpgpu/text_file.hpp"

namespace lcs {

using dpgpu::read_whole_file;
using dpgpu::split_lines;  // lines without their terminator ("\n" or "\r\n")

// True for a line of spaces, tabs and similar only.
bool is_blank(std::string_view line);

}  // namespace lcs
