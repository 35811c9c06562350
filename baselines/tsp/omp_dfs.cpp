// cpu.omp_dfs: dfs() over OpenMP threads. The top of the tree (paths of up to 1 +
// split_depth cities) is expanded serially; every counted node at that depth becomes one
// dynamically scheduled task that explores its subtree with its own stack. The bound in
// force is one atomic (relaxed loads: a stale bound only prunes less, and with the optimal
// bound it never changes); the held tour sits behind a mutex, touched only when a tour
// beats it.
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>

#include "dfs.hpp"
#include "dfs_core.hpp"

namespace tsp::cpu {

namespace {

using detail::Frame;

struct Shared {
  std::atomic<std::int64_t> in_force;
  std::mutex mutex;
  SearchResult* result;  // cost and tour only, under mutex
};

struct SharedBound {
  Shared* s;
  std::int64_t bound() const { return s->in_force.load(std::memory_order_relaxed); }
  void offer(std::int64_t tour, const Frame* frames, int last_index, int last_city) {
    std::lock_guard lock(s->mutex);
    if (tour >= s->result->cost) return;
    s->result->cost = tour;
    s->result->tour = detail::tour_of(frames, last_index, last_city);
    if (tour < s->in_force.load(std::memory_order_relaxed))
      s->in_force.store(tour, std::memory_order_relaxed);
  }
};

}  // namespace

SearchResult omp_dfs(const Instance& x, std::int64_t bound, int threads, int split_depth,
                     const Poll& poll) {
  const detail::Arcs arcs = detail::arcs_of(x);
  const int n = x.n;
  std::vector<Frame> frames(static_cast<std::size_t>(n));
  SearchResult r;
  if (!detail::root(x, bound, frames.data(), r)) return r;
  Shared shared{{bound}, {}, &r};
  SharedBound policy{&shared};

  // The top of the tree, serially: each counted node at frame index `cut` is kept (its path
  // is frames[0..cut]) and explored later.
  const int cut = std::max(1, split_depth);
  std::vector<Frame> tasks;  // (cut + 1) frames per task
  auto keep = [&](const Frame* path, int index) {
    tasks.insert(tasks.end(), path, path + index + 1);
  };
  auto tick = [&] {
    if (poll) poll();
  };
  r.nodes += detail::explore(arcs, frames.data(), 0, cut, policy, keep, tick);

  const std::size_t stride = std::size_t(cut) + 1;
  const auto count = static_cast<std::int64_t>(tasks.size() / stride);
  std::uint64_t nodes = 0;
  std::exception_ptr failure;
  std::atomic<bool> stop{false};
  const int team = threads > 0 ? threads : omp_get_max_threads();
#pragma omp parallel num_threads(team) reduction(+ : nodes)
  {
    std::vector<Frame> stack(static_cast<std::size_t>(n));
    // A failure (the deadline, from poll) in one thread stops the others at their next tick.
    struct Stopped {};
    auto local_tick = [&] {
      if (stop.load(std::memory_order_relaxed)) throw Stopped{};
      tick();
    };
#pragma omp for schedule(dynamic, 1)
    for (std::int64_t t = 0; t < count; ++t) {
      if (stop.load(std::memory_order_relaxed)) continue;
      std::copy_n(tasks.begin() + std::ptrdiff_t(std::size_t(t) * stride), stride, stack.begin());
      try {
        nodes += detail::explore(
            arcs, stack.data(), cut, n, policy, [](const Frame*, int) {}, local_tick);
      } catch (const Stopped&) {
      } catch (...) {
#pragma omp critical(omp_dfs_failure)
        if (!failure) failure = std::current_exception();
        stop.store(true);
      }
    }
  }
  if (failure) std::rethrow_exception(failure);
  r.nodes += nodes;
  return r;
}

}  // namespace tsp::cpu
