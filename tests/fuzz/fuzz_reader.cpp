// fuzz_reader.cpp — libFuzzer target for one problem's file reader, compiled once per
// (problem, file name) by CMakeLists.txt: FUZZ_PROBLEM names the registered problem and
// FUZZ_FILE the name the input is saved under (its extension picks the format). With
// FUZZ_COMPANION set, the input becomes that side file instead (OPTIMA.tsv) and FUZZ_FILE
// holds FUZZ_FILE_TEXT, a small valid instance, so the side-file parser is what is fuzzed.
#include <cstdlib>

#include "dpgpu/error.hpp"
#include "dpgpu/registry.hpp"
#include "fuzz_files.hpp"

namespace {

const dpgpu::ProblemEntry& problem() {
  static const dpgpu::ProblemEntry* p = dpgpu::Registry::get().problem(FUZZ_PROBLEM);
  if (!p) std::abort();  // the target was built without its problem: a build error, not input
  return *p;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto bytes = dpgpu::fuzz::as_text(data, size);
#ifdef FUZZ_COMPANION
  dpgpu::fuzz::write_file(FUZZ_COMPANION, bytes);
  const auto path = dpgpu::fuzz::write_file(FUZZ_FILE, FUZZ_FILE_TEXT);
#else
  const auto path = dpgpu::fuzz::write_file(FUZZ_FILE, bytes);
#endif
  try {
    const auto instances = problem().load(dpgpu::FileSource{{path}, ""});
    for (const auto& instance : instances)
      if (instance.work < 0) std::abort();  // a loaded instance must describe itself sanely
  } catch (const dpgpu::InputError&) {
  } catch (const dpgpu::OutOfMemory&) {
  }
  return 0;
}
