// reader_fixture.hpp — the fixture of the problems' file-reader tests: a fresh folder per test
// (named after the problem, the test and the process, so parallel ctest runs never share one),
// removed afterwards, write() to put a small file in it, and the message a load refuses with.
// Test-only; header-only.
//   class LcsReaders : public dpgpu_test::ReaderFixture {
//    protected:
//     LcsReaders() : ReaderFixture("lcs") {}
//   };
#pragma once
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <utility>

#include "dpgpu/error.hpp"
#include "dpgpu/problem.hpp"

namespace dpgpu_test {

class ReaderFixture : public testing::Test {
 protected:
  explicit ReaderFixture(std::string problem) : problem_(std::move(problem)) {}

  void SetUp() override {
    const auto* info = testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() /
           ("dpgpu_" + problem_ + "_" + info->name() + "_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // Writes `text` byte for byte to `name` in the test's folder (sub-folders made as needed).
  std::filesystem::path write(const std::string& name, const std::string& text) {
    auto path = dir_ / name;
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }

  // The message of the InputError that Problem::load(src) throws ("" if none).
  template <class Problem>
  static std::string load_error_of(const dpgpu::FileSource& src) {
    try {
      Problem::load(src);
    } catch (const dpgpu::InputError& e) {
      return e.what();
    }
    return "";
  }

  std::filesystem::path dir_;

 private:
  std::string problem_;
};

}  // namespace dpgpu_test
