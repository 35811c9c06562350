// cache_flush.hpp — empties the GPU's caches. Before a range the CUPTI backend profiles, as
// ncu's `--cache-control all` does before every replay pass (run()): the L2 (a kernel
// reading a buffer twice its size) and the SMs' instruction caches (a kernel whose code is
// larger than them, one block on every SM). Without the second, a short kernel finds its
// code cached by the solve's previous launch of it: on the H100 its stalls for want of an
// instruction were a tenth of ncu's; with it they match (issue 16). Before a cold timed run
// (overwrite_l2()): the same buffer overwritten, as the cold timings were measured.
#pragma once
#include <cstddef>

namespace dpgpu {

class CacheFlush {
 public:
  // Allocates the L2 buffer on the current device; throws std::runtime_error naming the
  // CUDA call that failed.
  CacheFlush();
  ~CacheFlush();
  CacheFlush(const CacheFlush&) = delete;
  CacheFlush& operator=(const CacheFlush&) = delete;

  // Queues the flush on the legacy default stream; the caller waits for the device.
  void run();
  // Overwrites the buffer on `stream` (a cudaStream_t) and waits for it.
  void overwrite_l2(void* stream);

 private:
  void* buffer_ = nullptr;
  std::size_t bytes_ = 0;
  int sms_ = 0;
  int overwrites_ = 0;  // each overwrite writes another byte value
};

}  // namespace dpgpu
