// sdp_cpu.hpp — CPU solvers of the S-DP problem as plain functions (each <algorithm>_params.cpp
// makes one a solver): the paper's sequential algorithm, and a lock-step simulator of its pipelines.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "sdp/sdp.hpp"

namespace sdp::cpu {

using Poll = std::function<void()>;  // called now and then; throws to stop

// The table: objective ST[n-1] and the checksum.
struct TableAnswer {
  std::uint64_t objective = 0, checksum = 0;
};

// Figure 1: for i = a0..n-1, ST[i] = ST[i-a0] ⊗ ST[i-a1] ⊗ ... . 32-bit cells when every value
// fits (min/max: init below 2^32; add: modulus <= 2^31), as the GPU solvers do.
TableAnswer serial(const Instance& x, const Poll& poll = {});
bool fits_32_bits(const Instance& x);

// What the simulator measured.
struct SimReport {
  TableAnswer answer;
  std::int64_t steps = 0;           // lock-step steps executed
  std::int64_t threads = 0;         // threads of one step (p·k, or ceil(k/2) for 2x2)
  std::int64_t operations = 0;      // element-stage operations (= (n - a0)·k when complete)
  std::int64_t reads = 0;           // shared reads ST[e - a_t]
  std::int64_t read_conflicts = 0;  // Σ over (sub-)steps of reads − distinct elements read
  std::int64_t max_readers = 0;     // most threads reading one element in one (sub-)step
  std::int64_t conflict_steps = 0;  // (sub-)steps with at least one element read twice
  std::int64_t model_time = 0;      // Σ over (sub-)steps of the largest reader count: time when
                                    // readers of one element are served one after another
};

// Executes the p-fold pipeline of Figure 6 (variant "pfold"; p = 1 is Figure 2) or the 2-by-2
// pipeline (variant "2x2", p must be 1) in lock-step: all reads of a step, then all writes.
// On every operation it checks that the element read is final and that the element written
// has had exactly the earlier stages applied, and on every step that no element is written
// twice; a violation throws std::logic_error naming the step, thread and element. With
// `enforce_bound` a p above the correctness bound (or 2x2 on offsets it does not fit) is
// refused first with dpgpu::InputError; without it the schedule runs and the checks catch it.
SimReport simulate(const Instance& x, std::int64_t p, const std::string& variant,
                   bool enforce_bound, const Poll& poll = {});

}  // namespace sdp::cpu
