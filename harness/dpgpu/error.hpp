// error.hpp — errors a user can act on. The runner adds file:line:key where it knows them.
#pragma once
#include <stdexcept>
#include <string>

namespace dpgpu {

// Bad input: an experiment file, an instance file, a parameter. Message says what and where.
struct InputError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A solver ran past its deadline (thrown by Context::check_deadline()).
struct Timeout : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// An instance too large for the memory at hand: says the bytes needed and available.
struct OutOfMemory : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A GPU solve was called where no GPU is usable: the message says why and what to do
// ("skipped: no usable GPU (...)"); the case is skipped, not failed.
struct GpuUnavailable : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace dpgpu
