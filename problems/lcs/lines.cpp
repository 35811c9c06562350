#include "lines.hpp"

namespace lcs {

bool is_blank(std::string_view line) {
  return line.find_first_not_of(" \t\r\v\f") == std::string_view::npos;
}

}  // namespace lcs
