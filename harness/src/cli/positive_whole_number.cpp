#include <string>

#include "cli/command.hpp"

namespace dpgpu::cli {

const CLI::Validator& positive_whole_number() {
  static const CLI::Validator validator(
      [](std::string& text) {
        std::size_t used = 0;
        try {
          if (text.find('-') == std::string::npos && std::stoull(text, &used) >= 1 &&
              used == text.size())
            return std::string();
        } catch (const std::exception&) {
        }
        return "expected a whole number of at least 1, got '" + text + "'";
      },
      "POSITIVE");
  return validator;
}

}  // namespace dpgpu::cli
