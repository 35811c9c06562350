// node_reader.hpp — the file:line:column of a YAML node, and an error that names it: what the
// readers of an experiment's sections (claims:, plot:) share.
#pragma once
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <yaml-cpp/yaml.h>

#include <string>
#include <utility>
#include <vector>

#include "dpgpu/error.hpp"
#include "experiment/where.hpp"

namespace dpgpu {

class NodeReader {
 public:
  explicit NodeReader(std::string file) : file_(std::move(file)) {}
  Where at(const YAML::Node& n) const {
    if (n.Mark().is_null()) return {file_, 1, 1};
    return {file_, n.Mark().line + 1, n.Mark().column + 1};
  }
  [[noreturn]] void fail(const YAML::Node& n, const std::string& what) const {
    throw InputError(at(n).str() + ": " + what);
  }

 private:
  std::string file_;
};

// "a, b, c", for the lists of allowed keys an error prints.
inline std::string joined(const std::vector<std::string>& v) {
  return fmt::format("{}", fmt::join(v, ", "));
}

}  // namespace dpgpu
