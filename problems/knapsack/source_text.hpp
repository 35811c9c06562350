// source_text.hpp — a file's text as numbered lines and fields, for readers whose errors
// name the file and line ("x.kp:7: expected 2 numbers, found 1").
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "dpgpu/text_file.hpp"

namespace knapsack {

using dpgpu::read_whole_file;  // dpgpu::InputError naming it when missing, a folder or unreadable

struct SourceLine {
  std::size_t number;     // 1-based
  std::string_view text;  // without its terminator ("\n" or "\r\n")
};

// Every line, blank ones included, so that numbers match an editor's.
std::vector<SourceLine> numbered_lines(std::string_view text);

bool is_blank(std::string_view line);

// Walks the non-blank lines of a text, and knows the number of its last line for messages
// about a file that ends too soon.
class NonBlankLines {
 public:
  explicit NonBlankLines(std::string_view text) : lines_(numbered_lines(text)) {}
  const SourceLine* next();  // nullptr at the end
  std::size_t last_number() const { return lines_.empty() ? 1 : lines_.back().number; }

 private:
  std::vector<SourceLine> lines_;
  std::size_t at_ = 0;
};

// Fields separated by runs of spaces and tabs (`separator` 0), or by one `separator` each
// (fields then trimmed of spaces and tabs).
std::vector<std::string_view> split_fields(std::string_view line, char separator = 0);

// "path:line", the prefix of every located message.
std::string located(const std::filesystem::path& path, std::size_t line);

// A decimal integer filling the whole field (optional leading '-'); dpgpu::InputError
// "WHERE: 'x' is not an integer" or "... does not fit a 64-bit integer" otherwise.
std::int64_t parse_integer(std::string_view field, const std::string& where);

}  // namespace knapsack
