// engine_counters.hpp — the counters the wavefront engine (wavefront_engine.cuh) and its
// decision-bit offload (host_offload.cuh, decision_store.cuh) set for every solver built on
// them, declared in those solvers' registrations with kind and unit. Host C++ only.
#pragma once
#include <vector>

#include "dpgpu/counter.hpp"

namespace dpgpu::wavefront {

// What HostOffload::report sets (gpu.rowwise too).
inline std::vector<CounterSpec> offload_counters() {
  using namespace dpgpu::counters;
  return {
      bytes("bytes_offloaded", "decision bits copied to the host"),
      count("offload_chunks", "chunks", "chunks of decision bits copied to the host"),
      count("offload_host_waits", "waits", "times the host waited for a chunk's copy"),
      seconds("offload_wait_s", "time the host waited for chunks' copies"),
  };
}

// What the engine itself sets: its steps and launches, the offload stream's waits (a solver on
// the engine declares offload_counters() beside these).
inline std::vector<CounterSpec> engine_counters() {
  using namespace dpgpu::counters;
  return {
      count("diagonals", "diagonals", "steps of the wavefront (anti-diagonals or layers)"),
      count("kernel_launches", "launches", "kernel launches"),
      seconds("offload_stream_wait_s", "time the compute stream waited for the offload stream"),
      count("offload_stream_waits", "waits", "times the compute stream waited for the offload"),
  };
}

}  // namespace dpgpu::wavefront
