#include "optima_table.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "dpgpu/error.hpp"
#include "source_text.hpp"

namespace knapsack {

namespace fs = std::filesystem;
using dpgpu::InputError;

std::vector<OptimumRow> read_optima_table(const fs::path& table) {
  const std::string text = read_whole_file(table);
  NonBlankLines lines(text);
  const SourceLine* header = lines.next();
  if (!header) throw InputError(fmt::format("{}: empty table", table.string()));
  std::map<std::string, std::size_t, std::less<>> column;
  const auto names = split_fields(header->text, '\t');
  for (std::size_t k = 0; k < names.size(); ++k) column.emplace(std::string(names[k]), k);
  for (const char* required : {"file", "instance", "n", "capacity", "optimum"})
    if (!column.count(required))
      throw InputError(fmt::format("{}: the header has no column '{}'",
                                   located(table, header->number), required));

  std::vector<OptimumRow> rows;
  while (const SourceLine* line = lines.next()) {
    const auto where = located(table, line->number);
    const auto cells = split_fields(line->text, '\t');
    if (cells.size() != names.size())
      throw InputError(fmt::format("{}: expected {} tab-separated fields, found {}", where,
                                   names.size(), cells.size()));
    auto cell = [&](const char* name) { return cells[column.find(name)->second]; };
    rows.push_back({fs::path(std::string(cell("file"))), std::string(cell("instance")),
                    parse_integer(cell("n"), where), parse_integer(cell("capacity"), where),
                    parse_integer(cell("optimum"), where), line->number});
  }
  return rows;
}

std::optional<fs::path> optima_table_for(const fs::path& data_file) {
  const fs::path folder = data_file.parent_path();
  for (const fs::path& dir : {folder, folder.parent_path()}) {
    std::error_code ec;
    const fs::path candidate = (dir.empty() ? fs::path(".") : dir) / "OPTIMA.tsv";
    if (fs::is_regular_file(candidate, ec)) return candidate;
  }
  return std::nullopt;
}

namespace {

bool same_file(const fs::path& a, const fs::path& b) {
  std::error_code ec;
  const bool same = fs::equivalent(a, b, ec);
  return !ec && same;
}

void apply_row(const OptimumRow& row, const fs::path& table, const fs::path& data_file,
               dpgpu::Loaded<Instance>& l) {
  const auto where = located(table, row.line);
  const auto n = static_cast<std::int64_t>(l.instance.size());
  if (row.n != n || row.capacity != l.instance.capacity)
    throw InputError(fmt::format(
        "{}: says {} has n {} and capacity {}, but {} holds n {} and capacity {}", where,
        row.instance, row.n, row.capacity, data_file.string(), n, l.instance.capacity));
  if (l.known_optimum && *l.known_optimum != row.optimum)
    throw InputError(fmt::format("{}: instance {}: the file's optimum {} disagrees with {} ({})",
                                 data_file.string(), l.name, *l.known_optimum, where, row.optimum));
  l.known_optimum = row.optimum;
}

}  // namespace

void apply_optima_table(const fs::path& table, const fs::path& data_file,
                        std::vector<dpgpu::Loaded<Instance>>& loaded) {
  std::vector<OptimumRow> rows = read_optima_table(table);
  std::erase_if(rows, [&](const OptimumRow& r) {
    return !same_file(table.parent_path() / r.file, data_file);
  });
  if (rows.empty()) return;
  if (loaded.size() == 1 && rows.size() == 1) {
    apply_row(rows.front(), table, data_file, loaded.front());
    return;
  }
  std::map<std::string, const OptimumRow*, std::less<>> by_name;
  for (auto& r : rows) by_name.emplace(r.instance, &r);
  for (auto& l : loaded)
    if (auto it = by_name.find(l.name); it != by_name.end())
      apply_row(*it->second, table, data_file, l);
}

}  // namespace knapsack
