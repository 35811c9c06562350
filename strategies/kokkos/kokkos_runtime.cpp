// kokkos_runtime.cpp — see kokkos_runtime.hpp.
#include "kokkos_runtime.hpp"

#include <cstdlib>
#include <memory>
#include <mutex>

namespace dpgpu::kokkos {

namespace {

#if defined(KOKKOS_ENABLE_CUDA)
// The last instance made, and the stream it wraps. Never destroyed as a static (its
// destructor would run before finalize_at_exit, registered earlier): finalize_at_exit
// releases the instance while Kokkos is still initialised. By then the harness has usually
// destroyed the stream; an instance that does not manage its stream only frees its own
// buffers then (cudaFree), which needs no stream.
struct CachedCuda {
  void* stream = nullptr;
  std::unique_ptr<Kokkos::Cuda> space;
};
CachedCuda& cached_cuda() {
  static CachedCuda* c = new CachedCuda;
  return *c;
}
#endif

void finalize_at_exit() {
#if defined(KOKKOS_ENABLE_CUDA)
  cached_cuda().space.reset();
#endif
  if (Kokkos::is_initialized() && !Kokkos::is_finalized()) Kokkos::finalize();
}

}  // namespace

void ensure_initialized() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (Kokkos::is_initialized()) return;
    Kokkos::initialize(Kokkos::InitializationSettings().set_disable_warnings(true));
    // After Kokkos::initialize, so that it runs before the CUDA runtime's own exit handler.
    std::atexit(finalize_at_exit);
  });
}

HostSpace host_space() {
  ensure_initialized();
  return HostSpace();
}

#if defined(KOKKOS_ENABLE_CUDA)
Kokkos::Cuda device_space(const dpgpu::Context& ctx) {
  ensure_initialized();
  CachedCuda& c = cached_cuda();
  if (!c.space || c.stream != ctx.stream()) {
    c.space.reset();
    c.space = std::make_unique<Kokkos::Cuda>(static_cast<cudaStream_t>(ctx.stream()),
                                             Kokkos::Impl::ManageStream::no);
    c.stream = ctx.stream();
  }
  return *c.space;
}
#endif

}  // namespace dpgpu::kokkos
