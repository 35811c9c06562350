// benchmark.json in Google Benchmark's schema, written from dpgpu's own records: one
// "iteration" entry per counted repetition (extra ones of the noise rule included), then
// the mean, median, stddev and cv aggregates, so it always agrees with summary.csv and
// Google Benchmark's tools/compare.py reads it.
#include "measure/case_stats.hpp"
#include "records/csv_table.hpp"
#include "report/reporter.hpp"

namespace dpgpu {

namespace {

nlohmann::json entry(const std::string& name, std::size_t family, std::size_t reps, double ms) {
  return {{"name", name},     {"family_index", family}, {"per_family_instance_index", 0},
          {"run_name", name}, {"repetitions", reps},    {"threads", 1},
          {"iterations", 1},  {"real_time", ms},        {"cpu_time", ms},
          {"time_unit", "ms"}};
}

class BenchmarkJson : public Reporter {
 public:
  BenchmarkJson(const std::filesystem::path& dir, nlohmann::json context)
      : dir_(dir), context_(std::move(context)) {}
  void rebuild(const Records& records) override {
    nlohmann::json doc{{"context", context_}, {"benchmarks", benchmark_entries(records)}};
    write_file_atomically(dir_ / "benchmark.json", doc.dump(2) + "\n");
  }

 private:
  std::filesystem::path dir_;
  nlohmann::json context_;
};

}  // namespace

nlohmann::json benchmark_entries(const Records& records) {
  nlohmann::json out = nlohmann::json::array();
  std::size_t family = 0;
  for (const CaseRecord* rec : records) {
    const CaseResult& res = rec->result;
    if (res.reps.empty()) continue;
    const std::string name = rec->spec.id + "/manual_time";
    // In milliseconds, as Google Benchmark's manual-time entries have them.
    const CaseStats ms = case_stats(res.reps, 0, 1e3);
    for (auto& rep : res.reps) {
      nlohmann::json e = entry(name, family, std::size_t(ms.n), rep.time_s * 1e3);
      e["run_type"] = "iteration";
      e["repetition_index"] = rep.rep;
      if (counted(rep)) {
        if (auto work = work_of(rec->spec, rep)) {
          e["work"] = *work;
          if (rep.time_s > 0) e["throughput"] = *work / rep.time_s;
        }
        if (res.energy && res.energy->measured()) {
          e["energy_j"] = res.energy->joules_per_solve();
          e["power_w"] = res.energy->power_w();
          if (e.contains("work"))
            e["work_per_joule"] = e["work"].get<double>() / res.energy->joules_per_solve();
        }
        for (auto& [k, v] : rep.phases) e["phase." + k + "_s"] = v;
        for (auto& [k, v] : rep.counters) e["c." + k] = v;
      } else {
        e["error_occurred"] = true;
        e["error_message"] = rep.message;
      }
      out.push_back(std::move(e));
    }
    if (ms.n > 0) {
      const std::pair<const char*, double> aggregates[] = {
          {"mean", ms.mean}, {"median", ms.median}, {"stddev", ms.sd}, {"cv", ms.rsd}};
      for (auto& [agg, value] : aggregates) {
        nlohmann::json e = entry(name + "_" + agg, family, std::size_t(ms.n), value);
        e["run_name"] = name;
        e["run_type"] = "aggregate";
        e["aggregate_name"] = agg;
        e["aggregate_unit"] = std::string(agg) == "cv" ? "percentage" : "time";
        out.push_back(std::move(e));
      }
    }
    ++family;
  }
  return out;
}

std::unique_ptr<Reporter> benchmark_json_reporter(const std::filesystem::path& dir,
                                                  nlohmann::json context) {
  return std::make_unique<BenchmarkJson>(dir, std::move(context));
}

}  // namespace dpgpu
