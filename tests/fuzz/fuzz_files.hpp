// fuzz_files.hpp — what every fuzz target shares: the input written to a file in a private
// temporary folder (the readers take paths, as the runner gives them), and the one rule:
// bad input may only ever raise dpgpu::InputError (or OutOfMemory for a refused size).
// Any other exception escapes to std::terminate, which libFuzzer reports as a crash.
#pragma once
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <unistd.h>

namespace dpgpu::fuzz {

// A folder of this process's own under the system temp dir, created once.
inline const std::filesystem::path& scratch_dir() {
  static const std::filesystem::path dir = [] {
    auto d = std::filesystem::temp_directory_path() / ("dpgpu-fuzz-" + std::to_string(::getpid()));
    std::filesystem::create_directories(d);
    return d;
  }();
  return dir;
}

// Writes `bytes` to scratch_dir()/name, replacing what was there, and returns the path.
inline std::filesystem::path write_file(const std::string& name, std::string_view bytes) {
  auto path = scratch_dir() / name;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  return path;
}

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

}  // namespace dpgpu::fuzz
