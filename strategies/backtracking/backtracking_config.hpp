// backtracking_config.hpp — the parameters of gpu.ivm and gpu.bpdfs (defaults: paper 004,
// Sect. 4.2) and their checks. Host C++ only: the registration builds without CUDA.
#pragma once
#include <cstdint>
#include <string>

namespace dpgpu::backtracking {

// How an explorer keeps its state during TreeExplore: `packed` (ivm_packed.hpp: path and free
// mask in registers, n <= 21) or `matrix` (ivm_explorer.hpp: the paper's IVM in local memory).
enum class IvmState { Packed, Matrix };

struct IvmConfig {
  std::int64_t explorers = 262144;  // T = arity^dims IVM structures, one thread each (8^6)
  std::int64_t trigger = 0;         // TreeExplore stops once this many explorers are empty; 0: T/10
  std::int64_t arity = 8;           // p of the virtual hypercube
  int block = 128;                  // threads per block of every kernel
  std::int64_t poll = 64;           // node evaluations between two reads of the trigger count
  std::int64_t slice = 1 << 16;     // polls per TreeExplore launch (deadline checks in between)
  bool check_intervals = false;     // debug: verify the intervals on the host after every phase
  bool ws_graph = true;             // launch each work-stealing phase's kernels as one CUDA graph
  IvmState state = IvmState::Packed;
  std::string initial_ub = "optimal";
  std::int64_t gpus =
      1;  // logical GPUs (ivm_multi.cu); logical i runs on device i % cudaGetDeviceCount()
};

struct BpdfsConfig {
  int dcpu = 7;            // cities per path of the active set (CPU search depth)
  int block = 128;         // threads per block
  std::int64_t poll = 64;  // node evaluations between two reads of the shared bound
  std::string initial_ub = "optimal";
};

// "packed" / "matrix" -> IvmState; throws dpgpu::InputError naming parameter 'state'.
IvmState parse_ivm_state(const std::string& s);
const char* ivm_state_name(IvmState s);

// The trigger in force: `trigger`, or T/10 (at least 1) when 0.
std::int64_t effective_trigger(const IvmConfig& c);
// dims with explorers == arity^dims; throws dpgpu::InputError naming `explorers` and `arity`.
int ivm_dims(const IvmConfig& c);
// Throw dpgpu::InputError naming the parameter and its allowed values.
void validate(const IvmConfig& c);
void validate(const BpdfsConfig& c);

}  // namespace dpgpu::backtracking
