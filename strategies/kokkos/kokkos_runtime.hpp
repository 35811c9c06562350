// kokkos_runtime.hpp — Kokkos once per process, and the execution-space instances the
// solvers run on. Kokkos is initialised on first use (in the dpgpu process, or in the worker
// child for GPU cases) and finalised at exit.
#pragma once
#include <Kokkos_Core.hpp>

#include <cstddef>
#include <utility>

#include "dpgpu/context.hpp"

namespace dpgpu::kokkos {

// Initialises Kokkos unless it already is (thread count: OpenMP's default, as the hand-written
// cpu.omp_* solvers with threads 0); registers Kokkos::finalize to run at exit.
void ensure_initialized();

// The host backend every Kokkos build has.
using HostSpace = Kokkos::OpenMP;
HostSpace host_space();

#if defined(KOKKOS_ENABLE_CUDA)
// A Kokkos::Cuda instance on ctx.stream(), so that the harness's CUDA events time exactly the
// solver's work. Kept while the stream stays the same (an instance allocates its own buffers).
Kokkos::Cuda device_space(const dpgpu::Context& ctx);
#endif

// Device memory counted in the context's accountant (counter "peak_device_bytes") while the
// views it stands for are alive.
class CountedBytes {
 public:
  CountedBytes(dpgpu::Context& ctx, std::size_t bytes, bool device)
      : ctx_(ctx), bytes_(device ? bytes : 0) {
    if (bytes_) ctx_.device_alloc(bytes_);
  }
  ~CountedBytes() {
    if (bytes_) ctx_.device_free(bytes_);
  }
  CountedBytes(const CountedBytes&) = delete;
  CountedBytes& operator=(const CountedBytes&) = delete;

 private:
  dpgpu::Context& ctx_;
  std::size_t bytes_;
};

// True for an execution space whose memory is the GPU's.
template <class Exec>
inline constexpr bool on_device =
    !Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Exec::memory_space>::accessible;

}  // namespace dpgpu::kokkos
