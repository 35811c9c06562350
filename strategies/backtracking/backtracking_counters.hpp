// backtracking_counters.hpp — the counters gpu.ivm and gpu.bpdfs set (ctx.set), declared in
// their registrations (backtracking_params.cpp) with kind and unit. Host C++ only.
#pragma once
#include <vector>

#include "dpgpu/counter.hpp"

namespace dpgpu::backtracking {

// Both searches: the nodes visited (their `work`) and the search kernel's own time.
inline std::vector<CounterSpec> search_counters() {
  using namespace dpgpu::counters;
  return {
      count("nodes", "nodes", "search nodes visited (the solver's work)"),
      rate("nodes_per_s", "nodes", "nodes per second of the whole solve"),
      rate("kernel_nodes_per_s", "nodes", "nodes per second of the exploring kernels alone"),
      seconds("explore_s", "time in the exploring kernels"),
      bytes("cost_bytes", "one path cost (4: int32, 8: int64)"),
  };
}

// gpu.ivm's own, beside search_counters(), one GPU or several (gpus > 1: the per-GPU gpu#.*
// and the peer counters).
inline std::vector<CounterSpec> ivm_counters() {
  using namespace dpgpu::counters;
  return {
      seconds("steal_s", "time in the work-stealing kernels"),
      ratio("steal_share", "work-stealing (and peer) time over all kernel time"),
      count("explore_launches", "launches", "TreeExplore launches"),
      count("ws_phases", "phases", "work-stealing phases"),
      count("steals", "steals", "intervals stolen between explorers"),
      count("idle_per_phase", "explorers", "empty explorers per work-stealing phase, mean"),
      count("explorers", "explorers", "explorers T (one thread each)"),
      count("trigger", "explorers", "empty explorers that stop TreeExplore"),
      count("dims", "dimensions", "dimensions of the virtual hypercube"),
      count("ws_kernels_per_phase", "launches", "kernels of one work-stealing phase"),
      bytes("state_bytes", "one explorer's state"),
      count("interval_checks", "checks", "interval checks (check_intervals only)"),
      count("registers", "registers", "registers per TreeExplore thread"),
      bytes("local_bytes", "local memory per TreeExplore thread"),
      count("blocks_per_sm", "blocks", "TreeExplore blocks resident per SM"),
      ratio("occupancy", "resident threads over the SM's most"),
      count("resident_explorers", "explorers", "explorers resident at once"),
      seconds("peer_s", "time in peer copies between GPUs (gpus > 1)"),
      count("inter_gpu_steals", "steals", "intervals stolen between GPUs (gpus > 1)"),
      count("gpus", "GPUs", "logical GPUs sharing the search"),
      count("gpus.physical", "GPUs", "physical GPUs under the logical ones"),
      seconds("gpu#.compute_s", "one logical GPU's exploring time"),
      seconds("gpu#.steal_s", "one logical GPU's work-stealing time"),
      seconds("gpu#.peer_s", "one logical GPU's peer-copy time"),
      seconds("gpu#.wait_s", "one logical GPU's time waiting for work"),
      count("gpu#.nodes", "nodes", "nodes one logical GPU visited"),
      count("gpu#.gives", "steals", "intervals one logical GPU gave to another"),
      count("gpu#.takes", "steals", "intervals one logical GPU took from another"),
  };
}

// gpu.bpdfs's own, beside search_counters().
inline std::vector<CounterSpec> bpdfs_counters() {
  using namespace dpgpu::counters;
  return {
      count("active_set", "paths", "paths of the CPU-built active set"),
      count("cpu_nodes", "nodes", "nodes the CPU search visited"),
      count("gpu_nodes", "nodes", "nodes the GPU threads visited"),
      count("depth", "cities", "cities per path of the active set"),
  };
}

}  // namespace dpgpu::backtracking
