// The console: one line per finished case with its status, median time, a noise flag when
// the repetitions are noisy (noise.hpp: rsd above max_noise, else 5 %), and the time left
// (time_left.hpp's model, steadied by SteadyTimeLeft so it does not jump by 20x). While no
// case finishes for a while, a heartbeat line says the run is alive: how long the running case
// (with --gpus: the run since the last case) has gone, and the time left as last estimated.
#include <fmt/format.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <ostream>
#include <thread>

#include "records/human_format.hpp"
#include "device/gpu_monitor.hpp"
#include "measure/case_stats.hpp"
#include "report/reporter.hpp"
#include "report/case_summary.hpp"
#include "run/time_left.hpp"

namespace dpgpu {

namespace {

std::string duration_text(double s) {
  if (s < 60) return fmt::format("{:.0f}s", s);
  if (s < 3600) return fmt::format("{}m{:02}s", int(s) / 60, int(s) % 60);
  return fmt::format("{}h{:02}m", int(s) / 3600, int(s) % 3600 / 60);
}

std::string field(const CsvRow& r, const char* key) {
  auto it = r.find(key);
  return it == r.end() ? std::string() : it->second;
}

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// A thread that prints a line when no case has finished for first_s, then every every_s,
// until the next case finishes (reset) or the run ends.
class Heartbeat {
 public:
  Heartbeat(std::ostream& out, std::mutex& lock, double first_s, double every_s)
      : out_(out), lock_(lock), first_s_(first_s), every_s_(every_s), thread_([this] { loop(); }) {}
  ~Heartbeat() {
    {
      std::lock_guard<std::mutex> g(lock_);
      stop_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }
  // Under lock_: a case finished; `p` is the run's progress after it, `left_s` as shown.
  void reset(const Progress& p, double left_s) {
    last_ = Clock::now(), next_s_ = first_s_, done_ = p.done, total_ = p.total, left_s_ = left_s;
    wake_.notify_all();
  }

 private:
  // Sleeps until the next beat is due (no polling beside the cases being timed).
  void loop() {
    std::unique_lock<std::mutex> g(lock_);
    while (!stop_) {
      const auto due = last_ + std::chrono::duration_cast<Clock::duration>(
                                   std::chrono::duration<double>(next_s_));
      wake_.wait_until(g, due);
      if (stop_ || since(last_) < next_s_) continue;  // woken early, or a case finished
      beat(since(last_));
      next_s_ += every_s_;
    }
  }
  void beat(double quiet_s) {
    const std::string which =
        total_ == 0 ? "the first case" : fmt::format("case {} of {}", done_ + 1, total_);
    const double left = left_s_ - quiet_s;
    out_ << fmt::format("  ... still running: {} for {}{}\n", which, duration_text(quiet_s),
                        total_ == 0 ? ""
                        : left > 0  ? fmt::format(" (~{} left in all)", duration_text(left))
                                    : " (longer than estimated)")
         << std::flush;
  }

  std::ostream& out_;
  std::mutex& lock_;
  const double first_s_, every_s_;
  std::condition_variable wake_;
  bool stop_ = false;
  Clock::time_point last_ = Clock::now();
  double next_s_ = first_s_, left_s_ = 0;
  std::size_t done_ = 0, total_ = 0;
  std::thread thread_;  // last: starts once the members above exist
};

class ProgressLine : public Reporter {
 public:
  ProgressLine(std::ostream& out, double first_beat_s, double beat_every_s)
      : out_(out), heartbeat_(out, lock_, first_beat_s, beat_every_s) {}
  void case_finished(const CaseRecord& rec, const Progress& p) override {
    std::lock_guard<std::mutex> g(lock_);
    const double left_s = steady_.update(p.left_s, p.elapsed_s);
    heartbeat_.reset(p, left_s);
    if (!rec.result.series_message.empty()) out_ << "  " << rec.result.series_message << "\n";
    if (rec.profile)
      out_ << (rec.profile->ok
                   ? fmt::format("  profiled by {} ({}) in {}{}\n", rec.profile->backend,
                                 rec.profile->sampling, format_seconds(rec.profile->wall_s),
                                 rec.profile->message.empty() ? "" : ": " + rec.profile->message)
                   : "  profiling failed: " + rec.profile->message + "\n");
    // Alone, as the case committed: its status and message as its summary.csv row has them
    // before the other solvers of its instance are compared.
    const Records one{&rec};
    const auto rows = run_rows_by_case(one).front();
    const CsvRow row = rows.empty() ? CsvRow{} : case_summary(rec, rows);
    const std::string st = field(row, "status");
    // The same statistics and noise verdict as summary.csv, the figures and `dpgpu report`.
    const double threshold = rec.spec.measure.max_noise.value_or(0);
    const CaseStats t = recorded_time_stats(rec);
    std::string timing, noise;
    if (t.n > 0) {
      timing = fmt::format(" {} (median of {})", format_seconds(t.median), t.n);
      if (const std::string note = noise_note(t.noise, t.min, t.max, threshold); !note.empty())
        noise = " NOISY (" + note + ")";
    }
    // Energy per solve beside the time; a throttled case is flagged like a noisy one.
    std::string energy;
    if (const auto& e = rec.result.energy; e && e->measured() && !timing.empty()) {
      energy = fmt::format(", {:.3g} J/solve at {:.0f} W", e->joules_per_solve(), e->power_w());
      if (throttled(e->reasons)) energy += " THROTTLED (" + throttle_flags(e->reasons) + ")";
    }
    out_ << fmt::format("[{}/{}] {} {}{}{}{}{}  ~{} left\n", p.done, p.total, rec.spec.id, st,
                        timing, energy, noise, st == "ok" ? "" : ": " + field(row, "message"),
                        duration_text(left_s))
         << std::flush;
  }

 private:
  std::ostream& out_;
  std::mutex lock_;
  SteadyTimeLeft steady_;
  Heartbeat heartbeat_;  // last: its thread uses out_ and lock_
};

}  // namespace

std::unique_ptr<Reporter> progress_reporter(std::ostream& out, double first_beat_s,
                                            double beat_every_s) {
  return std::make_unique<ProgressLine>(out, first_beat_s, beat_every_s);
}

}  // namespace dpgpu
