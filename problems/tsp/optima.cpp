#include "optima.hpp"

#include <fmt/format.h>

#include <charconv>
#include <vector>

#include "dpgpu/error.hpp"
#include "text_lines.hpp"

namespace tsp {

namespace {

std::vector<std::string_view> split_tabs(std::string_view line) {
  std::vector<std::string_view> fields;
  while (true) {
    const auto tab = line.find('\t');
    fields.push_back(trim(line.substr(0, tab)));
    if (tab == std::string_view::npos) return fields;
    line.remove_prefix(tab + 1);
  }
}

std::optional<std::int64_t> integer(std::string_view s) {
  std::int64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace

std::map<std::string, KnownOptimum> read_optima(const std::filesystem::path& path) {
  const std::string text = read_whole_file(path);
  const auto lines = split_lines(text);
  auto fail = [&](std::size_t index, const std::string& what) {
    throw dpgpu::InputError(fmt::format("{}:{}: {}", path.string(), index + 1, what));
  };
  if (lines.empty()) fail(0, "empty; expected a header row with columns name and optimum");

  // Column positions, by header name.
  std::optional<std::size_t> name_col, optimum_col, type_col, dimension_col;
  const auto header = split_tabs(lines[0]);
  for (std::size_t c = 0; c < header.size(); ++c) {
    if (header[c] == "name") name_col = c;
    if (header[c] == "optimum") optimum_col = c;
    if (header[c] == "type") type_col = c;
    if (header[c] == "dimension") dimension_col = c;
  }
  if (!name_col || !optimum_col)
    fail(0, "the header row must name the columns 'name' and 'optimum' (tab-separated)");

  std::map<std::string, KnownOptimum> table;
  for (std::size_t k = 1; k < lines.size(); ++k) {
    if (trim(lines[k]).empty()) continue;
    const auto fields = split_tabs(lines[k]);
    if (fields.size() != header.size())
      fail(k, fmt::format("{} fields, the header has {}", fields.size(), header.size()));
    KnownOptimum row;
    row.line = static_cast<int>(k) + 1;
    auto optimum = integer(fields[*optimum_col]);
    if (!optimum) fail(k, fmt::format("optimum '{}' is not an integer", fields[*optimum_col]));
    row.optimum = *optimum;
    if (type_col) row.type = upper(fields[*type_col]);
    if (dimension_col) {
      auto d = integer(fields[*dimension_col]);
      if (!d) fail(k, fmt::format("dimension '{}' is not an integer", fields[*dimension_col]));
      row.dimension = static_cast<int>(*d);
    }
    const std::string name(fields[*name_col]);
    if (name.empty()) fail(k, "empty name");
    auto [at, fresh] = table.emplace(name, row);
    if (!fresh)
      fail(k, fmt::format("'{}' is listed twice (first on line {})", name, at->second.line));
  }
  return table;
}

}  // namespace tsp
