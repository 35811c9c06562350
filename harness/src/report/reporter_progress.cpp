// The console: one line per finished case with its status, median time, a noise flag when
// the repetitions are noisy (noise.hpp: rsd above max_noise, else 5 %), and the time left.
#include <fmt/format.h>

#include <ostream>

#include "records/human_format.hpp"
#include "device/gpu_monitor.hpp"
#include "measure/case_stats.hpp"
#include "report/reporter.hpp"
#include "report/case_summary.hpp"

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

class ProgressLine : public Reporter {
 public:
  explicit ProgressLine(std::ostream& out) : out_(out) {}
  void case_finished(const CaseRecord& rec, const Progress& p) override {
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
                        duration_text(p.left_s))
         << std::flush;
  }

 private:
  std::ostream& out_;
};

}  // namespace

std::unique_ptr<Reporter> progress_reporter(std::ostream& out) {
  return std::make_unique<ProgressLine>(out);
}

}  // namespace dpgpu
