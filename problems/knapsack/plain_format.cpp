#include "plain_format.hpp"

#include <limits>

#include <fmt/format.h>

#include "dpgpu/error.hpp"
#include "knapsack/well_formed.hpp"
#include "source_text.hpp"

namespace knapsack {

namespace {

using dpgpu::InputError;

struct Header {
  std::int64_t n = 0, capacity = 0;
  std::size_t line = 0;
};

Header read_header(NonBlankLines& lines, const std::filesystem::path& path) {
  std::vector<std::int64_t> numbers;
  Header h;
  while (numbers.size() < 2) {
    const SourceLine* line = lines.next();
    if (!line)
      throw InputError(fmt::format(
          "{}: {}", located(path, lines.last_number()),
          numbers.empty() ? "no data: expected the number of items and the capacity"
                          : "the file ends after the number of items: expected the capacity"));
    const auto fields = split_fields(line->text);
    if (numbers.size() + fields.size() > 2)
      throw InputError(
          fmt::format("{}: expected the number of items and the capacity first, found {} numbers",
                      located(path, line->number), numbers.size() + fields.size()));
    for (auto f : fields) numbers.push_back(parse_integer(f, located(path, line->number)));
    h.line = line->number;
  }
  h.n = numbers[0];
  h.capacity = numbers[1];
  const auto where = located(path, h.line);
  if (h.n < 0) throw InputError(fmt::format("{}: negative number of items {}", where, h.n));
  if (h.n > std::numeric_limits<std::int32_t>::max())
    throw InputError(fmt::format("{}: {} items; at most 2^31 - 1 are allowed", where, h.n));
  if (h.capacity < 0) throw InputError(fmt::format("{}: negative capacity {}", where, h.capacity));
  return h;
}

struct Token {
  std::string_view text;
  std::size_t line;
};

}  // namespace

dpgpu::Loaded<Instance> parse_plain_instance(std::string_view text,
                                             const std::filesystem::path& path) {
  NonBlankLines lines(text);
  const Header h = read_header(lines, path);
  Instance x;
  x.capacity = h.capacity;
  for (std::int64_t j = 0; j < h.n; ++j) {
    const SourceLine* line = lines.next();
    if (!line)
      throw InputError(fmt::format("{}: the file ends after {} of its {} items",
                                   located(path, lines.last_number()), j, h.n));
    const auto where = located(path, line->number);
    const auto fields = split_fields(line->text);
    if (fields.size() != 2)
      throw InputError(fmt::format("{}: expected 2 numbers (value weight) for item {}, found {}",
                                   where, j + 1, fields.size()));
    const auto value = parse_integer(fields[0], where), weight = parse_integer(fields[1], where);
    if (value < 0)
      throw InputError(fmt::format("{}: item {} has negative value {}", where, j + 1, value));
    if (weight < 0)
      throw InputError(fmt::format("{}: item {} has negative weight {}", where, j + 1, weight));
    x.value.push_back(value);
    x.weight.push_back(weight);
  }
  if (auto why = why_malformed(x); !why.empty())
    throw InputError(fmt::format("{}: {}", path.string(), why));

  std::vector<Token> rest;  // what follows the items: nothing, or the solution vector
  while (const SourceLine* line = lines.next())
    for (auto f : split_fields(line->text)) rest.push_back({f, line->number});
  dpgpu::Loaded<Instance> out{path.stem().string(), std::move(x), std::nullopt};
  if (rest.empty()) return out;

  const Instance& inst = out.instance;
  if (rest.size() != inst.size())
    throw InputError(
        fmt::format("{}: after the items, expected nothing or a 0/1 solution vector of {} entries, "
                    "found {} fields",
                    located(path, rest.front().line), inst.size(), rest.size()));
  std::int64_t value = 0, weight = 0;  // no overflow: the instance's totals fit
  for (std::size_t j = 0; j < rest.size(); ++j) {
    const auto where = located(path, rest[j].line);
    const auto x_j = parse_integer(rest[j].text, where);
    if (x_j != 0 && x_j != 1)
      throw InputError(
          fmt::format("{}: solution vector entry {} is {}, not 0 or 1", where, j + 1, x_j));
    value += x_j * inst.value[j];
    weight += x_j * inst.weight[j];
  }
  if (weight > inst.capacity)
    throw InputError(fmt::format("{}: the solution vector weighs {}, more than the capacity {}",
                                 located(path, rest.front().line), weight, inst.capacity));
  out.known_optimum = value;
  return out;
}

}  // namespace knapsack
