// Problem::load: every instance of every path (a Pisinger CSV file holds many, other files
// one), with optima from the file and from OPTIMA.tsv beside it; `select` keeps one by name.
#include <fmt/format.h>

#include "dpgpu/error.hpp"
#include "knapsack/knapsack.hpp"
#include "optima_table.hpp"
#include "pisinger_csv.hpp"
#include "plain_format.hpp"
#include "source_text.hpp"

namespace knapsack {

namespace {

namespace fs = std::filesystem;
using dpgpu::InputError;
using Loaded = dpgpu::Loaded<Instance>;

std::vector<Loaded> load_file(const fs::path& path) {
  const std::string text = read_whole_file(path);
  std::vector<Loaded> out;
  if (looks_like_pisinger_csv(path, text))
    out = parse_pisinger_csv(text, path);
  else
    out.push_back(parse_plain_instance(text, path));
  if (auto table = optima_table_for(path)) apply_optima_table(*table, path, out);
  return out;
}

std::string paths_of(const dpgpu::FileSource& src) {
  std::vector<std::string> names;
  for (auto& p : src.paths) names.push_back(p.string());
  return fmt::format("{}", fmt::join(names, ", "));
}

Loaded select_one(std::vector<Loaded> all, const dpgpu::FileSource& src) {
  for (auto& l : all)
    if (l.name == src.select) return std::move(l);
  constexpr std::size_t kShown = 5;
  std::vector<std::string> some;
  for (std::size_t k = 0; k < all.size() && k < kShown; ++k) some.push_back(all[k].name);
  throw InputError(fmt::format("{}: select: no instance named '{}'; there {} {}: {}{}",
                               paths_of(src), src.select, all.size() == 1 ? "is" : "are",
                               all.size(), fmt::join(some, ", "),
                               all.size() > kShown ? ", ..." : ""));
}

}  // namespace

std::vector<dpgpu::Loaded<Instance>> Problem::load(const dpgpu::FileSource& src) {
  if (src.paths.empty()) throw InputError("knapsack: a file source needs at least one path");
  std::vector<Loaded> all;
  for (const auto& path : src.paths)
    for (auto& l : load_file(path)) all.push_back(std::move(l));
  if (src.select.empty()) return all;
  std::vector<Loaded> one;
  one.push_back(select_one(std::move(all), src));
  return one;
}

}  // namespace knapsack
