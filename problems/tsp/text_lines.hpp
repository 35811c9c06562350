// text_lines.hpp — small text helpers for the line-oriented readers (TSPLIB, OPTIMA.tsv).
#pragma once
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace tsp {

// Lines without their terminator ("\n" or "\r\n").
std::vector<std::string_view> split_lines(std::string_view text);
// Whitespace-separated words.
std::vector<std::string_view> split_words(std::string_view line);
std::string_view trim(std::string_view s);
std::string upper(std::string_view s);

// The whole file; InputError naming the path when it is missing or unreadable.
std::string read_text_file(const std::filesystem::path& path);

}  // namespace tsp
