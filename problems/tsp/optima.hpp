// optima.hpp — the table of known optima that sits next to TSPLIB files (OPTIMA.tsv):
// tab-separated, a header row naming the columns. `name` and `optimum` are required;
// `type` and `dimension`, where present, must agree with the file they are applied to.
#pragma once
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>

namespace tsp {

struct KnownOptimum {
  std::int64_t optimum = 0;
  std::string type;              // "" when the table has no type column
  std::optional<int> dimension;  // nullopt when the table has no dimension column
  int line = 0;                  // where the row is, for messages
};

// name → row. InputError naming file and line on a malformed table.
std::map<std::string, KnownOptimum> read_optima(const std::filesystem::path& path);

}  // namespace tsp
