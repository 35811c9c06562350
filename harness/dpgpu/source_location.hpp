// source_location.hpp — where a registration is written ("file:line"), for its errors.
#pragma once
#include <version>
#ifdef __cpp_lib_source_location
#include <source_location>
#endif

namespace dpgpu {

// Where a registration is written, for its errors. clang 14 with libstdc++ 12 (the fuzz
// build) has no std::source_location; there the same two members come from the builtins.
#ifdef __cpp_lib_source_location
using SourceLocation = std::source_location;
#else
struct SourceLocation {
  static constexpr SourceLocation current(const char* file = __builtin_FILE(),
                                          unsigned line = __builtin_LINE()) {
    return {file, line};
  }
  constexpr const char* file_name() const { return file_; }
  constexpr unsigned line() const { return line_; }
  const char* file_;
  unsigned line_;
};
#endif

}  // namespace dpgpu
