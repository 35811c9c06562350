#include "source_text.hpp"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "dpgpu/error.hpp"

namespace knapsack {

namespace fs = std::filesystem;
using dpgpu::InputError;

std::vector<SourceLine> numbered_lines(std::string_view text) {
  std::vector<SourceLine> out;
  std::size_t number = 1;
  for (auto line : dpgpu::split_lines(text)) out.push_back({number++, line});
  return out;
}

namespace {
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r'; }

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}
}  // namespace

bool is_blank(std::string_view line) { return trimmed(line).empty(); }

const SourceLine* NonBlankLines::next() {
  while (at_ < lines_.size()) {
    const SourceLine& line = lines_[at_++];
    if (!is_blank(line.text)) return &line;
  }
  return nullptr;
}

std::vector<std::string_view> split_fields(std::string_view line, char separator) {
  std::vector<std::string_view> out;
  if (separator != 0) {
    while (true) {
      const auto end = line.find(separator);
      out.push_back(trimmed(line.substr(0, end)));
      if (end == std::string_view::npos) return out;
      line.remove_prefix(end + 1);
    }
  }
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && is_space(line[i])) ++i;
    const std::size_t start = i;
    while (i < line.size() && !is_space(line[i])) ++i;
    if (i > start) out.push_back(line.substr(start, i - start));
  }
  return out;
}

std::string located(const fs::path& path, std::size_t line) {
  return fmt::format("{}:{}", path.string(), line);
}

std::int64_t parse_integer(std::string_view field, const std::string& where) {
  std::int64_t v = 0;
  const char* end = field.data() + field.size();
  const auto [ptr, ec] = std::from_chars(field.data(), end, v);
  if (ec == std::errc::result_out_of_range)
    throw InputError(fmt::format("{}: {} does not fit a 64-bit integer", where, field));
  if (ec != std::errc{} || ptr != end || field.empty())
    throw InputError(fmt::format("{}: '{}' is not an integer", where, field));
  return v;
}

}  // namespace knapsack
