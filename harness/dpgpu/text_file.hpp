// text_file.hpp — what every instance reader starts with: a file's whole text, and its lines.
#pragma once
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace dpgpu {

// The whole file; InputError naming the path when it is missing, a folder or unreadable.
std::string read_whole_file(const std::filesystem::path& path);

// Lines without their terminator ("\n", or "\r\n": a trailing '\r' is line ending, not data).
std::vector<std::string_view> split_lines(std::string_view text);

}  // namespace dpgpu
