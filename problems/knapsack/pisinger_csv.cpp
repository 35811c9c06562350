#include "pisinger_csv.hpp"

#include <algorithm>
#include <cctype>
#include <limits>

#include <fmt/format.h>

#include "dpgpu/error.hpp"
#include "knapsack/well_formed.hpp"
#include "source_text.hpp"

namespace knapsack {

namespace {

namespace fs = std::filesystem;
using dpgpu::InputError;

// Reads the next non-blank line, which must be "KEY NUMBER", and returns the number.
std::int64_t keyed_number(NonBlankLines& lines, const fs::path& path, std::string_view key,
                          const char* meaning, std::size_t* line_number = nullptr) {
  const SourceLine* line = lines.next();
  if (!line)
    throw InputError(fmt::format("{}: the file ends where '{} <{}>' was expected",
                                 located(path, lines.last_number()), key, meaning));
  const auto where = located(path, line->number);
  const auto fields = split_fields(line->text);
  if (fields.size() != 2 || fields[0] != key)
    throw InputError(
        fmt::format("{}: expected '{} <{}>', found '{}'", where, key, meaning, line->text));
  if (line_number) *line_number = line->number;
  return parse_integer(fields[1], where);
}

bool is_separator(std::string_view line) {
  const auto fields = split_fields(line);
  return fields.size() == 1 && fields[0].size() >= 3 &&
         std::all_of(fields[0].begin(), fields[0].end(), [](char c) { return c == '-'; });
}

dpgpu::Loaded<Instance> read_one(NonBlankLines& lines, const SourceLine& name_line,
                                 const fs::path& path) {
  const auto fields = split_fields(name_line.text);
  if (fields.size() != 1)
    throw InputError(fmt::format("{}: expected an instance name (one word), found '{}'",
                                 located(path, name_line.number), name_line.text));
  dpgpu::Loaded<Instance> out{std::string(fields[0]), {}, std::nullopt};
  std::size_t n_line = 0, c_line = 0, z_line = 0;
  const auto n = keyed_number(lines, path, "n", "items", &n_line);
  if (n < 0 || n > std::numeric_limits<std::int32_t>::max())
    throw InputError(
        fmt::format("{}: number of items {} is outside 0..2^31-1", located(path, n_line), n));
  Instance& x = out.instance;
  x.capacity = keyed_number(lines, path, "c", "capacity", &c_line);
  if (x.capacity < 0)
    throw InputError(fmt::format("{}: negative capacity {}", located(path, c_line), x.capacity));
  const auto z = keyed_number(lines, path, "z", "optimum", &z_line);

  const SourceLine* line = lines.next();
  if (line && line->text.substr(0, 5) == "time ") line = lines.next();  // solve time: not needed
  std::vector<std::int64_t> chosen;
  for (std::int64_t j = 1; j <= n; ++j, line = lines.next()) {
    if (!line)
      throw InputError(fmt::format("{}: instance {} ends after {} of its {} items",
                                   located(path, lines.last_number()), out.name, j - 1, n));
    const auto where = located(path, line->number);
    const auto cells = split_fields(line->text, ',');
    if (cells.size() != 4)
      throw InputError(fmt::format("{}: expected 4 fields 'i,p,w,x' for item {} of {}, found {}",
                                   where, j, out.name, cells.size()));
    const auto index = parse_integer(cells[0], where), value = parse_integer(cells[1], where),
               weight = parse_integer(cells[2], where), x_j = parse_integer(cells[3], where);
    if (index != j)
      throw InputError(fmt::format("{}: expected item {}, found item {}", where, j, index));
    if (value < 0)
      throw InputError(fmt::format("{}: item {} has negative value {}", where, j, value));
    if (weight < 0)
      throw InputError(fmt::format("{}: item {} has negative weight {}", where, j, weight));
    if (x_j != 0 && x_j != 1)
      throw InputError(fmt::format("{}: item {} has x = {}, not 0 or 1", where, j, x_j));
    x.value.push_back(value);
    x.weight.push_back(weight);
    chosen.push_back(x_j);
  }
  if (!line || !is_separator(line->text))
    throw InputError(
        fmt::format("{}: expected '-----' after the {} items of {}, found {}",
                    located(path, line ? line->number : lines.last_number()), n, out.name,
                    line ? fmt::format("'{}'", line->text) : std::string("the end of the file")));
  if (auto why = why_malformed(x); !why.empty())
    throw InputError(
        fmt::format("{}: instance {}: {}", located(path, name_line.number), out.name, why));

  std::int64_t value = 0, weight = 0;  // no overflow: the instance's totals fit
  for (std::size_t j = 0; j < chosen.size(); ++j) {
    value += chosen[j] * x.value[j];
    weight += chosen[j] * x.weight[j];
  }
  if (weight > x.capacity)
    throw InputError(
        fmt::format("{}: instance {}: its x column weighs {}, more than the capacity {}",
                    located(path, z_line), out.name, weight, x.capacity));
  if (value != z)
    throw InputError(fmt::format("{}: instance {}: z is {}, but its x column is worth {}",
                                 located(path, z_line), out.name, z, value));
  out.known_optimum = z;
  return out;
}

}  // namespace

std::vector<dpgpu::Loaded<Instance>> parse_pisinger_csv(std::string_view text,
                                                        const fs::path& path) {
  NonBlankLines lines(text);
  std::vector<dpgpu::Loaded<Instance>> out;
  while (const SourceLine* name_line = lines.next())
    out.push_back(read_one(lines, *name_line, path));
  if (out.empty()) throw InputError(fmt::format("{}: no instance in the file", path.string()));
  return out;
}

bool looks_like_pisinger_csv(const fs::path& path, std::string_view text) {
  auto ext = path.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  if (ext == ".csv") return true;
  NonBlankLines lines(text);
  const SourceLine* first = lines.next();
  const SourceLine* second = lines.next();
  if (!first || !second) return false;
  const auto head = split_fields(first->text), next = split_fields(second->text);
  const bool first_is_number =
      !head.empty() && (std::isdigit(static_cast<unsigned char>(head[0][0])) || head[0][0] == '-');
  return !first_is_number && !next.empty() && next[0] == "n";
}

}  // namespace knapsack
