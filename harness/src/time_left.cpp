#include "time_left.hpp"

#include <algorithm>

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
    p.cap_s += c->timeout_s + kChildGraceS;
    p.solver = solver_key(*c);
  }
}

void TimeLeft::remove(const CaseSpec& c) {
  auto it = pending_.find(point_key(c));
  if (it == pending_.end()) return;
  Pending& p = it->second;
  p.n -= 1;
  p.work -= c.work;
  p.cap_s -= c.timeout_s + kChildGraceS;
  if (p.n <= 0) pending_.erase(it);
}

void TimeLeft::finished(const CaseSpec& c, double wall_s) {
  if (!runs(c)) return;
  remove(c);
  by_point_[point_key(c)].add(c.work, wall_s);
  by_solver_[solver_key(c)].add(c.work, wall_s);
  all_.add(c.work, wall_s);
}

void TimeLeft::dropped(const CaseSpec& c) {
  if (runs(c)) remove(c);
}

double TimeLeft::seconds() const {
  if (all_.empty()) return 0;
  double total = 0;
  for (auto& [key, p] : pending_) {
    const Fit* fit = &all_;
    if (auto it = by_point_.find(key); it != by_point_.end())
      fit = &it->second;
    else if (auto jt = by_solver_.find(p.solver); jt != by_solver_.end())
      fit = &jt->second;
    double a, b;
    fit->line(a, b);
    total += std::min(a * p.n + b * std::max(p.work, 0.0), p.cap_s);
  }
  return total;
}

}  // namespace dpgpu
