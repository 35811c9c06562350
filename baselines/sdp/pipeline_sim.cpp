// cpu.pipeline_sim: the paper's pipeline schedules executed in lock-step on the CPU, with the
// checks that make its correctness argument observable.
#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "dpgpu/error.hpp"
#include "sdp/pipeline_bounds.hpp"
#include "sdp_cpu.hpp"

namespace sdp::cpu {

using namespace dpgpu::pipeline;  // the pipelines' formulas (problems/sdp/pipeline_bounds.hpp)

namespace {

struct Op1 {
  std::int64_t thread, element, stage, read;
};

class LockStep {
 public:
  LockStep(const Instance& x, SimReport& r)
      : x_(x),
        r_(r),
        st_(std::size_t(x.n)),
        done_(std::size_t(x.n), 0),
        written_(std::size_t(x.n), -1) {
    for (std::int64_t i = 0; i < std::min(x.a0(), x.n); ++i) {
      st_[std::size_t(i)] = x.init[std::size_t(i)];
      done_[std::size_t(i)] = std::int32_t(x.k());  // initial values are final
    }
  }

  // One lock-step (sub-)step: every read against the state before it, then every write.
  void execute(std::int64_t step, std::vector<Op1>& ops) {
    const auto k = std::int32_t(x_.k());
    values_.resize(ops.size());
    for (std::size_t q = 0; q < ops.size(); ++q) {
      const Op1& o = ops[q];
      if (done_[std::size_t(o.read)] != k)
        throw std::logic_error(
            fmt::format("step {}: thread {} (stage {}) of ST[{}] reads ST[{}], which is not final "
                        "({} of {} stages applied)",
                        step, o.thread, o.stage, o.element, o.read, done_[std::size_t(o.read)], k));
      if (done_[std::size_t(o.element)] != o.stage)
        throw std::logic_error(fmt::format(
            "step {}: thread {} applies stage {} to ST[{}], which has {} stages applied", step,
            o.thread, o.stage, o.element, done_[std::size_t(o.element)]));
      if (written_[std::size_t(o.element)] == serial_)
        throw std::logic_error(
            fmt::format("step {}: ST[{}] is written by two threads", step, o.element));
      written_[std::size_t(o.element)] = serial_;
      const std::uint64_t v = st_[std::size_t(o.read)];
      values_[q] = o.stage == 0 ? v : combine(x_.op, x_.modulus, st_[std::size_t(o.element)], v);
    }
    for (std::size_t q = 0; q < ops.size(); ++q) {
      st_[std::size_t(ops[q].element)] = values_[q];
      ++done_[std::size_t(ops[q].element)];
    }
    ++serial_;
    count_conflicts(ops);
  }

  TableAnswer answer() const {
    for (std::int64_t e = 0; e < x_.n; ++e)
      if (done_[std::size_t(e)] != x_.k())
        throw std::logic_error(
            fmt::format("the schedule ended with ST[{}] unfinished ({} of {} stages)", e,
                        done_[std::size_t(e)], x_.k()));
    return {st_.back(), table_checksum(st_)};
  }

 private:
  void count_conflicts(const std::vector<Op1>& ops) {
    reads_.clear();
    for (auto& o : ops) reads_.push_back(o.read);
    std::sort(reads_.begin(), reads_.end());
    std::int64_t distinct = 0, most = 0;
    for (std::size_t a = 0; a < reads_.size();) {
      std::size_t b = a;
      while (b < reads_.size() && reads_[b] == reads_[a]) ++b;
      ++distinct;
      most = std::max<std::int64_t>(most, std::int64_t(b - a));
      a = b;
    }
    const auto n = std::int64_t(reads_.size());
    r_.reads += n;
    r_.operations += n;
    r_.read_conflicts += n - distinct;
    r_.conflict_steps += n > distinct;
    r_.max_readers = std::max(r_.max_readers, most);
    r_.model_time += most;
  }

  const Instance& x_;
  SimReport& r_;
  std::vector<std::uint64_t> st_, values_;
  std::vector<std::int32_t> done_;     // stages applied to each element
  std::vector<std::int64_t> written_;  // last (sub-)step that wrote each element
  std::vector<std::int64_t> reads_;
  std::int64_t serial_ = 0;
};

}  // namespace

SimReport simulate(const Instance& x, std::int64_t p, const std::string& variant,
                   bool enforce_bound, const Poll& poll) {
  if (auto why = why_malformed(x); !why.empty())
    throw dpgpu::InputError("cpu.pipeline_sim: " + why);
  if (variant != "pfold" && variant != "2x2")
    throw dpgpu::InputError("cpu.pipeline_sim: parameter 'variant' must be pfold or 2x2, got '" +
                            variant + "'");
  if (p < 1)
    throw dpgpu::InputError(fmt::format("cpu.pipeline_sim: parameter 'p' must be >= 1, got {}", p));
  const std::int64_t n = x.n, a0 = x.a0(), k = x.k();
  SimReport r;
  LockStep sim(x, r);
  std::vector<Op1> ops;
  if (variant == "pfold") {
    if (enforce_bound && p > max_fold(x.offsets))
      throw dpgpu::InputError(
          fmt::format("cpu.pipeline_sim: parameter 'p' = {} exceeds the largest valid fold {} for "
                      "these offsets "
                      "(a_t >= (k - t)·p for every stage t)",
                      p, max_fold(x.offsets)));
    r.threads = p * k;
    r.steps = pipeline_steps(n, a0, k, p);
    for (std::int64_t s = 0; s < r.steps; ++s) {
      const std::int64_t i = a0 + (p - 1) + s * p;  // Figure 6's head
      ops.clear();
      for (std::int64_t j = 0; j < p * k; ++j) {
        const std::int64_t e = i - j, t = j / p;
        if (e >= a0 && e < n) ops.push_back({j, e, t, e - x.offsets[std::size_t(t)]});
      }
      sim.execute(s, ops);
      if (poll && s % 4096 == 0) poll();
    }
  } else {
    if (p != 1)
      throw dpgpu::InputError(fmt::format("cpu.pipeline_sim: variant 2x2 needs p = 1, got {}", p));
    if (enforce_bound)
      if (auto why = why_not_2x2(x.offsets); !why.empty())
        throw dpgpu::InputError("cpu.pipeline_sim: " + why);
    const std::int64_t half = (k + 1) / 2;
    r.threads = half;
    r.steps = pipeline2x2_steps(n, a0, k);
    for (std::int64_t s = 0; s < r.steps; ++s) {
      const std::int64_t i = a0 + s;
      for (int sub = 0; sub < 2; ++sub) {  // sub-step A: stage 2q; B: stage 2q + 1
        ops.clear();
        for (std::int64_t q = 0; q < half; ++q) {
          const std::int64_t e = i - q, t = 2 * q + sub;
          if (e >= a0 && e < n && t < k) ops.push_back({q, e, t, e - x.offsets[std::size_t(t)]});
        }
        sim.execute(s, ops);
      }
      if (poll && s % 4096 == 0) poll();
    }
  }
  r.answer = sim.answer();
  return r;
}

}  // namespace sdp::cpu
