// lines.hpp — splitting file text into lines, for the FASTA and plain-text readers.
#pragma once
#include <string_view>
#include <vector>

#include "dpgpu/text_file.hpp"

namespace lcs {

using dpgpu::read_whole_file;
using dpgpu::split_lines;  // lines without their terminator ("\n" or "\r\n")

// The text without a leading UTF-8 byte-order mark (EF BB BF), which editors on Windows
// write and which is never sequence data.
std::string_view without_bom(std::string_view text);

// True for a line of spaces, tabs and similar only.
bool is_blank(std::string_view line);

}  // namespace lcs
