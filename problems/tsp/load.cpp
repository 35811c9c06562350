// Problem::load: one instance per TSPLIB file, with its known optimum when an OPTIMA.tsv
// next to the file lists the instance's NAME (or, failing that, the file's stem).
#include <fmt/format.h>

#include "dpgpu/error.hpp"
#include "optima.hpp"
#include "tsp/tsp.hpp"
#include "tsp/tsplib.hpp"

namespace tsp {

namespace {

namespace fs = std::filesystem;

std::optional<dpgpu::Objective> known_optimum(const fs::path& file, const TsplibFile& parsed) {
  const auto table_path = file.parent_path() / "OPTIMA.tsv";
  std::error_code ec;
  if (!fs::is_regular_file(table_path, ec)) return std::nullopt;
  const auto table = read_optima(table_path);
  auto row = table.find(parsed.instance.name);
  if (row == table.end()) row = table.find(file.stem().string());
  if (row == table.end()) return std::nullopt;
  const auto& [name, known] = *row;
  // A row for another instance of the same name would make every run look wrong: refuse it.
  if (known.dimension && *known.dimension != parsed.instance.n)
    throw dpgpu::InputError(fmt::format(
        "{}:{}: '{}' has dimension {} there, but {} has DIMENSION {}", table_path.string(),
        known.line, name, *known.dimension, file.string(), parsed.instance.n));
  if (!known.type.empty() && known.type != parsed.type)
    throw dpgpu::InputError(fmt::format("{}:{}: '{}' has type {} there, but {} has TYPE {}",
                                        table_path.string(), known.line, name, known.type,
                                        file.string(), parsed.type));
  return known.optimum;
}

}  // namespace

std::vector<dpgpu::Loaded<Instance>> Problem::load(const dpgpu::FileSource& src) {
  if (src.paths.empty())
    throw dpgpu::InputError("tsp: a file source needs at least one TSPLIB file, got none");
  if (!src.select.empty())
    throw dpgpu::InputError(
        fmt::format("{}: select is not used by TSPLIB files (one instance per file)",
                    src.paths.front().string()));
  std::vector<dpgpu::Loaded<Instance>> out;
  for (const auto& path : src.paths) {
    TsplibFile parsed = read_tsplib(path);
    if (parsed.instance.name.empty()) parsed.instance.name = path.stem().string();
    auto optimum = known_optimum(path, parsed);
    parsed.instance.optimum = optimum;  // for search solvers' initial_ub: optimal
    auto name = parsed.instance.name;
    out.push_back({std::move(name), std::move(parsed.instance), optimum});
  }
  return out;
}

}  // namespace tsp
