// The dimension-list reader and Problem::load.
#include <fmt/format.h>

#include <charconv>
#include <fstream>
#include <sstream>

#include "dpgpu/error.hpp"
#include "mcm/generators.hpp"

namespace mcm {

Instance parse_dimensions(std::string_view text, const std::filesystem::path& path) {
  Instance x;
  std::size_t line = 1, i = 0;
  while (i < text.size()) {
    const char ch = text[i];
    if (ch == '\n') {
      ++line;
      ++i;
    } else if (ch == ' ' || ch == '\t' || ch == '\r') {
      ++i;
    } else if (ch == '#') {
      while (i < text.size() && text[i] != '\n') ++i;
    } else {
      std::size_t j = i;
      while (j < text.size() && text[j] != ' ' && text[j] != '\t' && text[j] != '\r' &&
             text[j] != '\n' && text[j] != '#')
        ++j;
      const std::string_view f = text.substr(i, j - i);
      std::int64_t v = 0;
      auto [end, ec] = std::from_chars(f.data(), f.data() + f.size(), v);
      if (ec != std::errc() || end != f.data() + f.size() || v < 1 || v > kMaxDim)
        throw dpgpu::InputError(fmt::format("{}:{}: dimension '{}' is not an integer in [1, {}]",
                                            path.string(), line, f, kMaxDim));
      x.p.push_back(v);
      if (std::int64_t(x.p.size()) > kMaxN + 1)
        throw dpgpu::InputError(
            fmt::format("{}:{}: more than {} matrices", path.string(), line, kMaxN));
      i = j;
    }
  }
  if (x.p.size() < 2)
    throw dpgpu::InputError(
        fmt::format("{}:{}: at least two dimensions (one matrix) are needed, found {}",
                    path.string(), line, x.p.size()));
  return x;
}

std::vector<dpgpu::Loaded<Instance>> Problem::load(const dpgpu::FileSource& src) {
  if (src.paths.size() != 1)
    throw dpgpu::InputError("mcm: one file per instance (the dimensions p0 … pn)");
  if (!src.select.empty())
    throw dpgpu::InputError("mcm: a dimension file holds one instance; 'select' is not used");
  const auto& path = src.paths[0];
  std::ifstream in(path, std::ios::binary);
  if (!in) throw dpgpu::InputError(fmt::format("{}: cannot be read", path.string()));
  std::stringstream ss;
  ss << in.rdbuf();
  Instance x = parse_dimensions(ss.str(), path);
  std::vector<dpgpu::Loaded<Instance>> out;
  out.push_back({path.stem().string(), std::move(x), std::nullopt});
  return out;
}

}  // namespace mcm
