// fuzz_experiment.cpp — libFuzzer target for the experiment parser: the input is saved as a
// YAML file, parsed and checked against the registry (the problems are linked in), and
// every part is expanded into its plan, as `dpgpu check` does.
#include "dpgpu/error.hpp"
#include "experiment/experiment.hpp"
#include "fuzz_files.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = dpgpu::fuzz::write_file("experiment.yaml", dpgpu::fuzz::as_text(data, size));
  try {
    for (const auto& part : dpgpu::parse_experiment_parts(path)) (void)dpgpu::expand(part);
  } catch (const dpgpu::InputError&) {
  } catch (const dpgpu::OutOfMemory&) {
  }
  return 0;
}
