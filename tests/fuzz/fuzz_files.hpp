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

// A folder of this process's own, created once and removed at exit. It lies in /dev/shm
// where that exists: the input is rewritten at every execution, and on a disk-backed /tmp
// those writes made the targets wait on I/O (10-20x fewer executions per second).
inline const std::filesystem::path& scratch_dir() {
  struct Dir {
    std::filesystem::path path;
    Dir() {
      std::error_code ec;
      const std::filesystem::path shm = "/dev/shm";
      const auto base = std::filesystem::is_directory(shm, ec) && ::access(shm.c_str(), W_OK) == 0
                            ? shm
                            : std::filesystem::temp_directory_path();
      path = base / ("dpgpu-fuzz-" + std::to_string(::getpid()));
      std::filesystem::create_directories(path);
    }
    ~Dir() {
      std::error_code ec;
      std::filesystem::remove_all(path, ec);
    }
  };
  static const Dir dir;
  return dir.path;
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
