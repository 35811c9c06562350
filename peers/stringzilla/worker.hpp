// worker.hpp — StringZilla's batched Levenshtein in a Python worker process (sz_worker.py):
// started once per dpgpu process (a case runs in a process of its own), sent a batch once,
// then asked to run the library call as often as the harness repeats the solve.
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "edit/batch.hpp"

namespace peers::stringzilla {

// What one run of the library gave: every pair's distance in pair order, and the seconds of
// the engine calls alone (the worker's perf_counter around them, summed).
struct RunResult {
  std::vector<std::int32_t> distances;
  double library_s = 0;
  std::int64_t calls = 0;  // engine calls (1 for a cross batch; one per block of pairs)
  double cells = 0;        // cells the calls computed (a block's whole cross product)
  double load_s = 0;       // building the strings in the worker, when this run sent the batch
  bool sent = false;       // whether this run sent the batch (the first run on an instance)
};

struct RunRequest {
  bool gpu = false;
  int where = 0;  // GPU: the device; CPU: the cores (0: all)
  int block = 1;  // independent pairs per call (block x block cross products)
};

class Worker {
 public:
  // python: the interpreter; script: sz_worker.py. Throws std::runtime_error naming both, with
  // the worker's own reason, when it cannot start or cannot import StringZilla.
  Worker(const std::string& python, const std::string& script);
  ~Worker();
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  const std::string& ready_line() const { return ready_; }  // "<version> <capabilities>"

  // Sends the batch unless it is the one sent last (same object, sizes and content samples),
  // then runs the library on it.
  RunResult run(const edit::BatchInstance& x, const RunRequest& r);

 private:
  std::string read_line();
  void write(const void* data, std::size_t bytes);
  void send(const edit::BatchInstance& x, RunResult& out);
  std::string fail(const std::string& what) const;

  std::string python_, script_, ready_;
  int pid_ = -1;
  std::FILE* to_ = nullptr;    // its stdin
  std::FILE* from_ = nullptr;  // its stdout
  std::uint64_t loaded_key_ = 0;
};

// The process's worker, started on first use with the configured interpreter and script
// (DPGPU_PEER_PYTHON and DPGPU_SZ_WORKER in the environment override CMake's choice).
Worker& shared_worker();
// Ends it (after an error its pipes may be mid-message); the next shared_worker() starts one.
void reset_shared_worker();

// A fingerprint of a batch: its address, shape, sizes and samples of its bytes.
std::uint64_t batch_key(const edit::BatchInstance& x);

}  // namespace peers::stringzilla
