#include "results/record_rows.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <set>

#include "dpgpu/registry.hpp"
#include "device/gpu_monitor.hpp"

namespace dpgpu {

namespace {

bool ran(const RepRecord& r) { return r.status == Status::Ok || r.status == Status::Invalid; }

// The fields every row of a case shares.
CsvRow case_row(const CaseSpec& c) {
  CsvRow r;
  r["experiment"] = c.experiment;
  r["case_id"] = c.id;
  r["problem"] = c.problem;
  r["instance"] = c.instance_name;
  if (c.has_seed) r["seed"] = std::to_string(c.recipe.seed);
  r["solver"] = c.solver;
  // A solver named after a library names its backend (kokkos.wavefront: "kokkos-cuda").
  const SolverEntry* entry = Registry::get().solver(c.problem, c.solver);
  r["backend"] = entry && !entry->backend_name.empty() ? entry->backend_name
                 : c.backend == Backend::Gpu           ? "gpu"
                                                       : "cpu";
  if (c.work_counter.empty())
    r["work"] = fmt::format("{:.17g}", c.work);  // else per run, from its counter
  if (c.known_optimum) r["known_optimum"] = std::to_string(*c.known_optimum);
  for (auto& [k, v] : c.instance_params) r["i." + k] = to_string(v);
  for (auto& [k, v] : c.dims) r["i." + k] = to_string(v);
  for (auto& [k, v] : c.solver_params) r["s." + k] = to_string(v);
  return r;
}

// GPU clocks and temperature at the case's start and end, and a warning when it throttled.
void add_gpu_samples(CsvRow& r, const CaseResult& res) {
  if (res.gpu_start.is_null() || res.gpu_end.is_null()) return;
  auto sample = [](const nlohmann::json& j) {
    GpuSample s;
    s.sm_clock_mhz = j.value("sm_clock_mhz", 0u);
    s.memory_clock_mhz = j.value("memory_clock_mhz", 0u);
    s.temperature_c = j.value("temperature_c", 0u);
    s.reasons = j.value("reasons", 0ull);
    return s;
  };
  GpuSample a = sample(res.gpu_start), b = sample(res.gpu_end);
  // Which card ran the case (with `--gpus`, one of several).
  r["gpu.name"] = res.gpu_start.value("name", "");
  r["gpu.uuid"] = res.gpu_start.value("uuid", "");
  r["gpu.sm_clock_start_mhz"] = std::to_string(a.sm_clock_mhz);
  r["gpu.sm_clock_end_mhz"] = std::to_string(b.sm_clock_mhz);
  r["gpu.temperature_start_c"] = std::to_string(a.temperature_c);
  r["gpu.temperature_end_c"] = std::to_string(b.temperature_c);
  r["gpu.throttle"] = throttle_warning(a, b);
}

// A multi-GPU case (solver parameter `gpus`): every card it ran on, by UUID, ';' between.
void add_cards_used(CsvRow& r, const nlohmann::json& worker) {
  if (!worker.is_object() || !worker.contains("gpus")) return;
  std::string uuids;
  for (auto& g : worker["gpus"])
    uuids += (uuids.empty() ? "" : ";") + g.value("uuid", std::to_string(g.value("index", -1)));
  r["gpu.uuids"] = uuids;
}

std::string num(double x) { return fmt::format("{:.6g}", x); }

// `agreed`: the instance's other solvers gave the same answer, the only check it had.
void append_rows(const CaseRecord& rec, const std::string& disagree, bool agreed,
                 std::vector<CsvRow>& rows) {
  CsvRow base = case_row(rec.spec);
  add_cards_used(base, rec.worker);
  const CaseResult& res = rec.result;
  // Per repetition: harness work around the solve; once per case: set-up and reporting.
  const double fixed_per_rep = res.reps.empty() ? 0 : res.fixed_s / double(res.reps.size());
  for (auto& rep : res.reps) {
    CsvRow r = base;
    r["rep"] = std::to_string(rep.rep);
    Status st = rep.status;
    std::string message = rep.message;
    bool valid = rep.valid.value_or(true);
    if (ran(rep) && !disagree.empty()) {
      st = Status::Invalid, valid = false;
      message = message.empty() ? disagree : message + "; " + disagree;
    }
    r["status"] = to_string(st);
    r["message"] = message;
    if (ran(rep)) {
      // true/false: a certificate or a known optimum checked it; agreed: only the other
      // solvers of the instance did (a disagreement makes it false); n/a: nothing did.
      r["valid"] = rep.valid || !disagree.empty() ? (valid ? "true" : "false")
                   : agreed                       ? "agreed"
                                                  : "n/a";
      r["objective"] = std::to_string(rep.objective);
      r["time_s"] = recorded_text(rep.time_s, kTimeDigits);
      if (auto work = work_of(rec.spec, rep)) {
        r["work"] = fmt::format("{:.17g}", *work);
        if (rep.time_s > 0) r["throughput"] = fmt::format("{:.6g}", *work / rep.time_s);
      }
      r["harness_s"] = recorded_text(rep.harness_s, kHarnessDigits);
      r["harness_case_s"] = recorded_text(fixed_per_rep, kHarnessDigits);
      if (rep.checksum) r["checksum"] = std::to_string(*rep.checksum);
      add_gpu_samples(r, res);
      if (res.energy) add_energy_columns(r, *res.energy, work_of(rec.spec, rep));
      for (auto& [k, v] : rep.phases) r["phase." + k + "_s"] = recorded_text(v, kTimeDigits);
      for (auto& [k, v] : rep.counters) r["c." + k] = fmt::format("{:.17g}", v);
    }
    rows.push_back(std::move(r));
  }
  // A case that broke, timed out, or was never run says so in one more row.
  if (res.status != Status::Ok && (res.reps.empty() || ran(res.reps.back()))) {
    CsvRow r = base;
    r["rep"] = std::to_string(res.reps.size());
    r["status"] = to_string(res.status);
    r["message"] = res.message;
    rows.push_back(std::move(r));
  }
}

}  // namespace

std::string recorded_text(double x, int digits) { return fmt::format("{:.{}g}", x, digits); }

double as_recorded(double x, int digits) {
  return std::strtod(recorded_text(x, digits).c_str(), nullptr);
}

void add_energy_columns(CsvRow& r, const EnergyRecord& e, std::optional<double> work) {
  r["energy_method"] = e.method;
  if (e.measured()) {
    r["energy_j"] = num(e.joules_per_solve());
    r["power_w"] = num(e.power_w());
    r["energy_solves"] = std::to_string(e.solves);
    r["energy_window_s"] = num(e.window_s);
    if (e.cards > 1) r["energy_cards"] = std::to_string(e.cards);
    if (work && e.joules > 0) r["work_per_joule"] = num(*work / e.joules_per_solve());
  }
  if (e.idle_power_w) r["idle_power_w"] = num(*e.idle_power_w);
  if (e.samples == 0) return;
  r["gpu.sm_clock_min_mhz"] = std::to_string(e.sm_min_mhz);
  r["gpu.sm_clock_max_mhz"] = std::to_string(e.sm_max_mhz);
  r["gpu.mem_clock_min_mhz"] = std::to_string(e.memory_min_mhz);
  r["gpu.mem_clock_max_mhz"] = std::to_string(e.memory_max_mhz);
  r["gpu.throttle_flags"] = throttle_flags(e.reasons);
  r["gpu.throttled"] = throttled(e.reasons) ? "true" : "false";
}

std::string instance_group(const CaseSpec& c) { return c.problem + "\n" + c.instance_key; }

std::map<std::string, std::string> disagreements(const Records& records) {
  struct Said {
    std::set<std::int64_t> objectives;
    std::set<std::uint64_t> checksums;
    std::vector<std::string> parts;
    int cases = 0;
  };
  std::map<std::string, Said> by_instance;
  for (const CaseRecord* r : records) {
    Said& s = by_instance[instance_group(r->spec)];
    std::optional<std::int64_t> last;
    for (auto& rep : r->result.reps) {
      if (!ran(rep)) continue;
      s.objectives.insert(rep.objective);
      if (rep.checksum) s.checksums.insert(*rep.checksum);
      last = rep.objective;
    }
    if (last) {
      ++s.cases;
      s.parts.push_back(fmt::format("{}={}", r->spec.id.substr(r->spec.id.rfind('/') + 1), *last));
    }
  }
  std::map<std::string, std::string> out;
  for (auto& [key, s] : by_instance)
    if (s.cases > 1 && (s.objectives.size() > 1 || s.checksums.size() > 1))
      out[key] = fmt::format("solvers disagree on this instance: {}", fmt::join(s.parts, ", "));
  return out;
}

static const std::string& disagreement_of(const CaseRecord& r,
                                          const std::map<std::string, std::string>& d) {
  static const std::string none;
  auto it = d.find(instance_group(r.spec));
  return it == d.end() ? none : it->second;
}

// Instances on which more than one case gave an answer (compared by disagreements()).
static std::set<std::string> compared_instances(const Records& records) {
  std::map<std::string, int> answered;
  for (const CaseRecord* r : records)
    for (auto& rep : r->result.reps)
      if (ran(rep)) {
        ++answered[instance_group(r->spec)];
        break;
      }
  std::set<std::string> out;
  for (auto& [key, n] : answered)
    if (n > 1) out.insert(key);
  return out;
}

std::vector<std::vector<CsvRow>> run_rows_by_case(const Records& records) {
  const auto disagree = disagreements(records);
  const auto compared = compared_instances(records);
  std::vector<std::vector<CsvRow>> out;
  for (const CaseRecord* r : records)
    append_rows(*r, disagreement_of(*r, disagree), compared.count(instance_group(r->spec)) > 0,
                out.emplace_back());
  return out;
}

std::vector<CsvRow> run_rows(const Records& records) {
  std::vector<CsvRow> rows;
  for (auto& of_case : run_rows_by_case(records))
    for (auto& r : of_case) rows.push_back(std::move(r));
  return rows;
}

Status effective_status(const CaseRecord& r, const std::map<std::string, std::string>& disagree) {
  Status s = r.result.status;
  if (s == Status::Ok && !disagreement_of(r, disagree).empty()) return Status::Invalid;
  if (s == Status::Ok)
    for (auto& rep : r.result.reps)
      if (rep.status == Status::Invalid) return Status::Invalid;
  return s;
}

}  // namespace dpgpu
