// out_of_memory.hpp — a solver's table that cannot be allocated is OutOfMemory, not a crash.
#pragma once
#include <cstdint>
#include <new>
#include <string>

#include "dpgpu/error.hpp"

namespace dpgpu {

// Runs `fn`, whose tables take `bytes`; std::bad_alloc becomes OutOfMemory naming the solver
// and the bytes.
template <class Fn>
decltype(auto) out_of_memory_as_error(const char* solver, std::uint64_t bytes, Fn&& fn) {
  try {
    return fn();
  } catch (const std::bad_alloc&) {
    throw OutOfMemory(std::string(solver) + ": could not allocate " + std::to_string(bytes) +
                      " bytes");
  }
}

}  // namespace dpgpu
