// time_left.hpp — the progress line's "~3m05s left": every case still to run is predicted
// from the measured wall time of the cases already finished, scaled by the instance's work
// (P::work: cell updates for DP, nodes for search), so a sweep's expensive second half is
// not priced like its cheap first half (a count-based estimate would).
//
// The model, per solver point (solver and parameters, within a problem): wall = a + b·work,
// a least-squares line through its finished cases with a, b >= 0 (a: per-case overhead such
// as the worker child; b: seconds per unit of work); with a single work size seen, a line
// through the origin (time proportional to work). A solver point with nothing finished
// borrows the fit of its solver's other points, else (below) every finished point's. What a solver
// point's cases are predicted to take is capped at their timeouts (timeout_s plus the 5 s a
// worker child is granted, each). A solver point whose solver has nothing finished is priced by
// the geometric mean of what every finished point's line predicts for its cases: solvers differ
// by orders of magnitude, and the plain pool of all finished cases lets the one slow solver seen
// so far price every unseen one (issue 36: ~1 min became ~23 min after the second case, against
// a real 4m20s). Skipped and refused cases cost nothing. With lanes
// (`--gpus`: GPU cases on the GPU lanes, the others on the CPU lanes, at once), each pool's
// share is divided by its lanes and the longer pool is the time left.
#pragma once
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "records/case_spec.hpp"

namespace dpgpu {

class TimeLeft {
 public:
  // The cases this run will run, in order (--resume: those not yet recorded).
  explicit TimeLeft(const std::vector<const CaseSpec*>& cases);
  // Cases run on lanes at once (worker_pool.hpp): GPU cases on gpu_lanes, the rest on cpu_lanes.
  void set_lanes(int gpu_lanes, int cpu_lanes);

  void finished(const CaseSpec& c, double wall_s);  // ran: its wall time teaches the model

  // Predicted seconds for the cases not yet finished; 0 before any finished.
  double seconds() const;

 private:
  // Sums for a least-squares line wall = a + b·work.
  struct Fit {
    double n = 0, sw = 0, st = 0, sww = 0, swt = 0;
    double min_w = 0, max_w = 0;
    void add(double w, double t);
    bool empty() const { return n == 0; }
    void line(double& a, double& b) const;
  };
  // Cases of one solver point still to run.
  struct Pending {
    double n = 0, work = 0, cap_s = 0;  // cap_s: the sum of the cases' caps
    std::string solver;                 // its Fit key one level up
    bool gpu = false;                   // runs on a GPU lane
  };
  double unseen_cost(const Pending& p) const;  // by every finished point's line
  static std::string point_key(const CaseSpec& c);
  static std::string solver_key(const CaseSpec& c);

  std::map<std::string, Pending> pending_;  // by point_key
  std::map<std::string, Fit> by_point_, by_solver_;
  bool any_finished_ = false;
  int gpu_lanes_ = 0, cpu_lanes_ = 0;  // 0, 0: one case at a time
};

// The time left as the progress line shows it: the model's estimate, but moving by at most a
// factor of 2 per update from what the last one implied (the last estimate less the time since
// it), so one surprising case does not make the line jump by 20x; it still reaches a lasting
// change within a few cases. 0 when the model says nothing is left.
class SteadyTimeLeft {
 public:
  double update(double model_left_s, double elapsed_s);

 private:
  bool started_ = false;
  double left_s_ = 0, at_s_ = 0;  // the last shown estimate and when
};

}  // namespace dpgpu
