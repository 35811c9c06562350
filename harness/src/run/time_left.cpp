#include "run/time_left.hpp"

#include <algorithm>
#include <cmath>

namespace dpgpu {

namespace {

constexpr double kChildGraceS = 5;  // isolate.cpp kills a worker child at timeout_s + 5 s

bool runs(const CaseSpec& c) { return c.decision == Decision::Run; }

}  // namespace

void TimeLeft::Fit::add(double w, double t) {
  min_w = n == 0 ? w : std::min(min_w, w);
  max_w = n == 0 ? w : std::max(max_w, w);
  n += 1, sw += w, st += t, sww += w * w, swt += w * t;
}

void TimeLeft::Fit::line(double& a, double& b) const {
  a = 0, b = 0;
  if (max_w > min_w) {
    const double mw = sw / n, mt = st / n;
    const double var = sww / n - mw * mw, cov = swt / n - mw * mt;
    if (var > 1e-12 * mw * mw) {
      b = cov / var, a = mt - b * mw;
      if (b < 0) {
        a = mt, b = 0;  // bigger was not slower: the mean
      } else if (a < 0) {
        a = 0, b = swt / sww;  // through the origin
      }
      return;
    }
  }
  if (sw > 0)
    b = st / sw;  // one size seen: time in proportion to work
  else
    a = st / n;  // no work recorded: the mean case
}

std::string TimeLeft::point_key(const CaseSpec& c) {
  return c.problem + "\n" + c.id.substr(c.instance_key.size() + 1);  // the solver label
}

std::string TimeLeft::solver_key(const CaseSpec& c) { return c.problem + "\n" + c.solver; }

TimeLeft::TimeLeft(const std::vector<const CaseSpec*>& cases) {
  for (const CaseSpec* c : cases) {
    if (!runs(*c)) continue;
    Pending& p = pending_[point_key(*c)];
    p.n += 1;
    p.work += c->work;
    p.cap_s += c->measure.timeout_s + kChildGraceS;
    p.solver = solver_key(*c);
    p.gpu = c->backend == Backend::Gpu;
  }
}

void TimeLeft::set_lanes(int gpu_lanes, int cpu_lanes) {
  gpu_lanes_ = gpu_lanes, cpu_lanes_ = cpu_lanes;
}

void TimeLeft::finished(const CaseSpec& c, double wall_s) {
  if (!runs(c)) return;
  const std::string point = point_key(c);
  if (auto it = pending_.find(point); it != pending_.end()) {
    Pending& p = it->second;
    p.n -= 1;
    p.work -= c.work;
    p.cap_s -= c.measure.timeout_s + kChildGraceS;
    if (p.n <= 0) pending_.erase(it);
  }
  by_point_[point].add(c.work, wall_s);
  by_solver_[solver_key(c)].add(c.work, wall_s);
  any_finished_ = true;
}

double TimeLeft::unseen_cost(const Pending& p) const {
  double log_sum = 0;
  int n = 0;
  for (auto& [key, fit] : by_point_) {
    double a, b;
    fit.line(a, b);
    const double cost = a * p.n + b * std::max(p.work, 0.0);
    if (cost > 0) log_sum += std::log(cost), ++n;
  }
  return n == 0 ? 0 : std::exp(log_sum / n);
}

double TimeLeft::seconds() const {
  if (!any_finished_) return 0;
  double gpu = 0, cpu = 0;
  for (auto& [key, p] : pending_) {
    const Fit* fit = nullptr;
    if (auto it = by_point_.find(key); it != by_point_.end())
      fit = &it->second;
    else if (auto jt = by_solver_.find(p.solver); jt != by_solver_.end())
      fit = &jt->second;
    double cost = 0;
    if (fit) {
      double a, b;
      fit->line(a, b);
      cost = a * p.n + b * std::max(p.work, 0.0);
    } else {
      cost = unseen_cost(p);
    }
    (p.gpu ? gpu : cpu) += std::min(cost, p.cap_s);
  }
  if (gpu_lanes_ + cpu_lanes_ == 0) return gpu + cpu;
  // A pool without lanes has no cases (the planner skips GPU cases where there is no GPU).
  return std::max(gpu_lanes_ > 0 ? gpu / gpu_lanes_ : gpu, cpu_lanes_ > 0 ? cpu / cpu_lanes_ : cpu);
}

double SteadyTimeLeft::update(double model_left_s, double elapsed_s) {
  if (model_left_s <= 0) {
    started_ = false;  // nothing left (or nothing measured yet)
    return 0;
  }
  if (!started_) {
    started_ = true;
  } else {
    // What the last estimate implies now; at least a second, so a tiny one can still grow.
    const double expected = std::max(left_s_ - (elapsed_s - at_s_), 1.0);
    model_left_s = std::clamp(model_left_s, expected / 2, expected * 2);
  }
  left_s_ = model_left_s, at_s_ = elapsed_s;
  return left_s_;
}

}  // namespace dpgpu
