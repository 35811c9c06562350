// text_lines.hpp — small text helpers for the line-oriented readers (TSPLIB, OPTIMA.tsv).
#pragma once
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "dpgpu/text_file.hpp"

namespace tsp {

using dpgpu::split_lines;  // lines without their terminator ("\n" or "\r\n")
// Whitespace-separated words.
std::vector<std::string_view> split_words(std::string_view line);
std::string_view trim(std::string_view s);
std::string upper(std::string_view s);

using dpgpu::read_whole_file;  // InputError naming the path when it is missing or unreadable

}  // namespace tsp
