#include "plan/plan.hpp"

#include <fmt/format.h>

#include <limits>
#include <map>
#include <regex>
#include <set>

#include "dpgpu/error.hpp"
#include "dpgpu/saturating.hpp"
#include "dpgpu/text_file.hpp"
#include "experiment/all_gpus.hpp"
#include "device/host_info.hpp"
#include "plan/instances.hpp"
#include "measure/measure.hpp"
#include "measure/summary.hpp"
#include "profile/profiler.hpp"

namespace dpgpu {

namespace {

std::uint64_t points(const std::vector<Axis>& axes) {
  std::uint64_t n = 1;
  for (auto& a : axes) n = saturating_mul(n, a.values.size());
  return n;
}

std::string cap_violation(const SolverSpec& spec, const AnyInstance& x, const InstancePoint& p) {
  for (auto& [key, cap] : spec.max) {
    double v;
    if (auto it = x.dims.find(key); it != x.dims.end())
      v = to_number(it->second);
    else if (auto jt = p.params.values().find(key); jt != p.params.values().end())
      v = to_number(jt->second);
    else
      continue;
    if (v > cap) return fmt::format("{}={} is above this solver's max {}={}", key, v, key, cap);
  }
  return {};
}

bool isolated(const Experiment& e, const SolverEntry& s) {
  if (e.isolate == "always") return true;
  if (e.isolate == "never") return false;
  return s.backend == Backend::Gpu;
}

// The settings of a case that --resume must find unchanged, once for every case.
MeasureSettings measuring(const Experiment& shared, const PlanOptions& opt) {
  const int reps = opt.repetitions.value_or(int(shared.repetitions));
  if (reps < 1) throw InputError("--repetitions must be at least 1");
  if (reps > kMaxRepetitions)
    throw InputError(
        fmt::format("--repetitions {} is above the limit of {}", reps, kMaxRepetitions));
  return {reps,
          int(shared.warmup),
          std::max(reps, int(shared.max_repetitions)),
          shared.max_noise,
          shared.cold,
          shared.series,
          shared.timeout_s,
          shared.energy_window_s};
}

struct Origin {
  Where instance, solver;
  std::vector<std::string> files;  // the instance's files (absolute), if any
};

// "line 4" or "lines 7 and 9".
std::string lines(const Where& a, const Where& b) {
  return a.line == b.line ? fmt::format("line {}", a.line)
                          : fmt::format("lines {} and {}", a.line, b.line);
}

// Each file's content hash (missing or unreadable files: the loader says why, later).
std::vector<std::string> file_hashes(const std::vector<std::filesystem::path>& paths) {
  std::vector<std::string> out;
  for (auto& p : paths) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(p, ec)) {  // a FIFO would block: read_files refuses it
      out.push_back("");
      continue;
    }
    try {
      out.push_back(hash_text(read_whole_file(p)));
    } catch (const std::exception&) {
      out.push_back("");
    }
  }
  return out;
}

// One instance × solver point.
CaseSpec make_case(const Experiment& e, const InstancePoint& ip, const AnyInstance* x,
                   const std::string& key, const SolverPoint& sp, const MeasureSettings& m,
                   const PlanOptions& opt) {
  CaseSpec c;
  const InstanceSource& src = e.instances[ip.source];
  c.instance_key = key;
  c.id = key + "/" + sp.label;
  c.experiment = e.name;
  c.problem = e.problem;
  c.part = e.part;
  c.recipe.generator = src.generator;
  c.recipe.params = ip.params.values();
  c.recipe.seed = ip.seed;
  for (auto& p : src.file.paths) c.recipe.files.push_back(std::filesystem::absolute(p).string());
  c.recipe.select = src.file.select;
  c.has_seed = ip.seed || !src.generator.empty();
  c.instance_params = ip.params.values();
  c.instance_name = ip.label;
  if (x) {
    c.instance_name = x->name.empty() ? ip.label : x->name;
    c.dims = x->dims;
    c.work = x->work;
    c.known_optimum = x->known_optimum;
  }
  c.solver = sp.solver->name;
  c.work_counter = sp.solver->work_counter;
  c.backend = sp.solver->backend;
  c.solver_params = sp.params.values();
  c.measure = m;
  c.isolate = isolated(e, *sp.solver);
  c.verbose = opt.verbose;
  return c;
}

// A solver's rule on this instance refused it: bad input, found before anything runs, like
// a parameter out of its range. `run` stops on it; `check` lists every one (RunPlan::broken).
BrokenRule broken_rule(const SolverSpec& spec, const SolverEntry& s, const AnyInstance& x,
                       const std::string& why, const char* kind) {
  return {0, kind, why,
          fmt::format("{}: solver '{}' cannot run instance '{}' ({}): {}",
                      spec.where_named(why).str(), s.name, x.name, kind, why)};
}

// Skip and refuse decisions, in the order a researcher would want them explained. The rules
// between parameters and instance come first, so a machine without a GPU (or a build without
// CUDA) still checks every GPU case it will skip. Returns the rule the case breaks, if any.
// A multi-GPU case (solver parameter `gpus`) asks for at most the host's cards, unless
// --share-gpus lets its logical GPUs share them.
std::optional<std::string> cards_rule(const CaseSpec& c, int host_cards, bool share) {
  const int want = cards_wanted(c);
  if (want <= host_cards || share) return std::nullopt;
  return fmt::format(
      "'gpus' is {} but this host has {} GPU{} visible; lower 'gpus', run it on a host with {} "
      "GPUs, "
      "or pass --share-gpus to run {} logical GPUs on the {} card{} (answers exact, times no "
      "scaling figure)",
      want, host_cards, host_cards == 1 ? "" : "s", want, want, host_cards,
      host_cards == 1 ? "" : "s");
}

std::optional<BrokenRule> decide(CaseSpec& c, const Experiment& e, const SolverPoint& sp,
                                 const InstancePoint& ip, const AnyInstance& x,
                                 const std::string& no_gpu, const ProblemEntry& problem,
                                 int host_cards, bool share_gpus) {
  const SolverEntry& s = *sp.solver;
  const SolverSpec& spec = e.solvers[sp.spec];
  const auto cap = cap_violation(spec, x, ip);
  if (cap.empty())
    if (auto why = s.check_instance(sp.params, x)) return broken_rule(spec, s, x, *why, "rule");
  if (!s.unavailable.empty()) {
    c.decision = Decision::Skip, c.reason = s.unavailable;
  } else if (s.backend == Backend::Gpu && !no_gpu.empty()) {
    c.decision = Decision::Skip, c.reason = no_gpu;
    if (!s.device_checks.empty())
      c.reason += "; its GPU rules (e.g. co-resident blocks) are checked where a GPU is present";
  } else if (!cap.empty()) {
    c.decision = Decision::Skip, c.reason = cap;
  } else {
    if (auto why = s.check_device(sp.params, x)) return broken_rule(spec, s, x, *why, "GPU rule");
    if (auto why = cards_rule(c, host_cards, share_gpus))
      return broken_rule(spec, s, x, *why, "GPU rule");
    CaseJob probe;
    probe.problem = &problem;
    probe.solver = &s;
    probe.instance = &x;
    probe.params = sp.params;
    if (auto why = memory_refusal(probe, /*check_device=*/false); !why.empty())
      c.decision = Decision::Refuse, c.reason = why;
  }
  return std::nullopt;
}

// An optimum for an instance whose source knows none, found by the problem's reference
// solver (tsp: Held-Karp, at planning, never inside a timed solve), when a solver point of
// this part needs one (initial_ub: optimal). nullopt where none is needed or none can be had.
std::optional<Objective> reference_optimum_if_needed(const ProblemEntry& problem,
                                                     const std::vector<SolverPoint>& solvers,
                                                     const AnyInstance& x) {
  if (x.known_optimum || !problem.reference_optimum) return std::nullopt;
  for (const SolverPoint& sp : solvers)
    if (sp.solver->needs_optimum && sp.solver->needs_optimum(sp.params))
      return problem.reference_optimum(x);
  return std::nullopt;
}

// A `max:` key that names no size or parameter of any instance would never cap anything.
void check_cap_keys(const Experiment& e, const std::set<std::string>& instance_keys) {
  if (instance_keys.empty()) return;  // no instance could be read or built: nothing to judge by
  for (const SolverSpec& spec : e.solvers)
    for (auto& [key, cap] : spec.max)
      if (!instance_keys.count(key))
        throw InputError(
            fmt::format("{}: solver '{}': max: '{}' is no size or parameter of this experiment's "
                        "instances, so the cap would never apply (they have: {})",
                        spec.max_where.count(key) ? spec.max_where.at(key).str() : spec.where.str(),
                        spec.name, key, fmt::join(instance_keys, ", ")));
}

void plan_part(const Experiment& e, const MeasureSettings& m, const PlanOptions& opt,
               const std::string& no_gpu, int host_cards, std::vector<CaseSpec>& cases,
               std::map<std::string, Origin>& origins, std::vector<BrokenRule>& broken) {
  const Plan plan = expand(e, host_cards);  // gpus: all -> the host's cards
  const ProblemEntry* problem = Registry::get().problem(e.problem);
  std::set<std::string> instance_keys;  // every size and parameter the instances have
  for (const InstancePoint& ip : plan.instances) {
    for (auto& [key, value] : ip.params.values()) instance_keys.insert(key);
    const Where& source_where = e.instances[ip.source].where;
    std::vector<AnyInstance> loaded;
    std::string too_large;
    // The files' content as read: hashed before and after, so a file changing under the
    // planner is bad input and each case can check it builds from the same bytes.
    const std::vector<std::string> before = file_hashes(e.instances[ip.source].file.paths);
    try {
      loaded =
          materialize(e, *problem, ip);  // bad input throws InputError: exit 2, nothing written
    } catch (const InstanceTooLarge& err) {
      too_large = err.what();
    }
    const std::vector<std::string> hashes = file_hashes(e.instances[ip.source].file.paths);
    if (hashes != before)
      throw InputError(
          fmt::format("{}: an instance file changed while it was read; run again once "
                      "it is no longer written",
                      source_where.str()));
    for (const AnyInstance& x : loaded)
      for (auto& [key, value] : x.dims) instance_keys.insert(key);
    std::vector<std::optional<Objective>> found(loaded.size());
    for (std::size_t li = 0; li < loaded.size(); ++li)
      if (auto optimum = reference_optimum_if_needed(*problem, plan.solvers, loaded[li])) {
        loaded[li] = problem->with_optimum(loaded[li], *optimum);
        found[li] = optimum;
      }
    const std::size_t n = loaded.empty() ? 1 : loaded.size();
    for (std::size_t li = 0; li < n; ++li) {
      const AnyInstance* x = loaded.empty() ? nullptr : &loaded[li];
      const std::string key = ip.label + (loaded.size() > 1 ? "/" + x->name : "");
      for (const SolverPoint& sp : plan.solvers) {
        CaseSpec c = make_case(e, ip, x, key, sp, m, opt);
        c.recipe.loaded_index = li;
        c.recipe.file_hashes = hashes;
        if (!loaded.empty()) c.recipe.optimum = found[li];
        if (!x)
          c.decision = Decision::Refuse, c.reason = too_large, c.instance_built = false;
        else if (auto rule =
                     decide(c, e, sp, ip, *x, no_gpu, *problem, host_cards, opt.share_gpus)) {
          rule->case_index = cases.size();
          broken.push_back(std::move(*rule));
        }
        const Where& solver_where = e.solvers[sp.spec].where;
        auto [it, fresh] =
            origins.emplace(c.id, Origin{source_where, solver_where, c.recipe.files});
        if (!fresh && it->second.files != c.recipe.files)
          throw InputError(fmt::format(
              "{}: instance files {} ({}) and {} ({}) share a name, so their cases would share "
              "the id '{}'; rename one of them",
              e.path.string(), fmt::join(it->second.files, ","), it->second.instance.str(),
              fmt::join(c.recipe.files, ","), source_where.str(), c.id));
        if (!fresh)
          throw InputError(fmt::format(
              "{}: case '{}' appears twice (instance source: {}; solver: {}); remove one of "
              "them, every case id must be unique",
              e.path.string(), c.id, lines(it->second.instance, source_where),
              lines(it->second.solver, solver_where)));
        cases.push_back(std::move(c));
      }
    }
  }
  check_cap_keys(e, instance_keys);
}

// Every column a `plot:` figure names must be one the results will have: a fixed column of
// runs.csv, summary.csv, metrics.csv or series.csv, a parameter or size of some case (i.,
// s., or bare: n for i.n, block for s.block), or a counter, phase or GPU sample (c., phase.,
// gpu.: known only once a run sets them).
void check_plot_columns(const std::vector<PlotFigure>& figures,
                        const std::vector<CaseSpec>& cases) {
  if (figures.empty()) return;
  std::set<std::string> known(summary_columns().begin(), summary_columns().end());
  known.insert(run_columns().begin(), run_columns().end());
  for (const char* c : {"kernel", "metric", "unit", "series", "index", "value"}) known.insert(c);
  std::set<std::string> params;
  for (const CaseSpec& c : cases) {
    for (auto& [k, v] : c.instance_params) params.insert("i." + k);
    for (auto& [k, v] : c.dims) params.insert("i." + k);
    for (auto& [k, v] : c.solver_params) params.insert("s." + k);
  }
  for (const PlotFigure& fig : figures)
    for (const PlotColumn& col : fig.columns) {
      const std::string& n = col.name;
      if (known.count(n) || params.count(n) || params.count("i." + n) || params.count("s." + n))
        continue;
      if (n.rfind("c.", 0) == 0 || n.rfind("phase.", 0) == 0 || n.rfind("gpu.", 0) == 0) continue;
      throw InputError(fmt::format(
          "{}: plot[{}]: key '{}': no column '{}' in this experiment's results (parameter "
          "columns: {}; or a fixed column such as solver, time_median_s)",
          col.where.str(), fig.index, col.key, n,
          params.empty() ? std::string("none") : fmt::format("{}", fmt::join(params, ", "))));
    }
}

// The claims' columns and selections against the planned cases: a row of each case with what
// the plan knows (solver, instance, parameters and sizes; results only once a run sets them).
void check_claim_cases(const Experiment& shared, const std::vector<CaseSpec>& cases) {
  if (shared.claims.empty()) return;
  std::set<std::string> known(summary_columns().begin(), summary_columns().end());
  std::vector<ClaimRow> rows;
  for (const CaseSpec& c : cases) {
    ClaimRow r{{"experiment", c.experiment},
               {"problem", c.problem},
               {"instance", c.instance_name},
               {"solver", c.solver},
               {"case_id", c.id}};
    for (auto& [k, v] : c.instance_params) r["i." + k] = to_string(v);
    for (auto& [k, v] : c.dims) r["i." + k] = to_string(v);
    for (auto& [k, v] : c.solver_params) r["s." + k] = to_string(v);
    for (auto& [k, v] : r) known.insert(k);
    rows.push_back(std::move(r));
  }
  std::vector<std::string> metrics;
  if (shared.profile) metrics = shared.profile->metrics;
  check_claims(shared.claims, rows, known, metrics);
}

// A profile metric is one of the paper's names or an ncu metric (unit__counter.rollup: every
// ncu name has a "__"); anything else is a typo, said at its line before anything runs.
void check_profile_metrics(const Experiment& shared) {
  if (!shared.profile) return;
  const ProfileSpec& p = *shared.profile;
  for (std::size_t i = 0; i < p.metrics.size(); ++i) {
    const std::string& m = p.metrics[i];
    if (paper_metrics().count(m) || m.find("__") != std::string::npos) continue;
    std::vector<std::string> names;
    for (auto& [name, ncu] : paper_metrics()) names.push_back(name);
    throw InputError(fmt::format(
        "{}: profile.metrics: '{}' is neither one of the paper's metrics ({}) nor an ncu "
        "metric name (unit__counter.rollup, e.g. sm__inst_executed.avg.per_cycle_active)",
        i < p.metric_where.size() ? p.metric_where[i].str() : shared.path.string(), m,
        fmt::join(names, ", ")));
  }
}

nlohmann::json fingerprint_of(const std::string& name, const MeasureSettings& m,
                              const std::vector<CaseSpec>& cases) {
  nlohmann::json ids = nlohmann::json::array();
  for (auto& c : cases) ids.push_back(c.id);
  nlohmann::json j{{"experiment", name},       {"repetitions", m.repetitions},
                   {"warmup", m.warmup},       {"max_repetitions", m.max_repetitions},
                   {"cold", m.cold},           {"series", m.series},
                   {"timeout_s", m.timeout_s}, {"cases", ids}};
  j["max_noise"] = m.max_noise ? nlohmann::json(*m.max_noise) : nlohmann::json(nullptr);
  // Each instance file's content: --resume refuses to mix measurements of a file that changed.
  nlohmann::json files = nlohmann::json::object();
  for (auto& c : cases)
    for (std::size_t i = 0; i < c.recipe.files.size() && i < c.recipe.file_hashes.size(); ++i)
      files[c.recipe.files[i]] = c.recipe.file_hashes[i];
  if (!files.empty()) j["files"] = files;
  return j;
}

// `filter` with every repetition count above `longest` lowered to longest + 1: no match in a
// string of at most `longest` characters uses more, so the matches are the same, and
// '.{0,30000}zz' no longer builds (and walks) 30000 states for ids of 60 characters.
std::string clamp_counts(const std::string& filter, std::size_t longest) {
  std::string out;
  bool in_class = false;
  for (std::size_t i = 0; i < filter.size(); ++i) {
    const char c = filter[i];
    if (c == '\\' && i + 1 < filter.size()) {
      out += filter.substr(i++, 2);
      continue;
    }
    if (in_class || c != '{') {
      in_class = c == '[' ? true : c == ']' ? false : in_class;
      out += c;
      continue;
    }
    static const std::regex count(R"(\{(\d+)(,(\d*))?\})");
    std::smatch m;
    const std::string rest = filter.substr(i);
    if (!std::regex_search(rest, m, count, std::regex_constants::match_continuous)) {
      out += c;
      continue;
    }
    auto lowered = [&](const std::string& digits) {
      return digits.size() > 9 || std::stoull(digits) > longest ? std::to_string(longest + 1)
                                                                : digits;
    };
    out += "{" + lowered(m[1]) + (m[2].matched ? "," : "") +
           (m[3].matched && m[3].length() > 0 ? lowered(m[3]) : "") + "}";
    i += std::size_t(m.length(0)) - 1;
  }
  return out;
}

std::vector<std::size_t> select(const std::vector<CaseSpec>& cases, const std::string& filter) {
  std::vector<std::size_t> out;
  if (filter.empty()) {
    for (std::size_t i = 0; i < cases.size(); ++i) out.push_back(i);
    return out;
  }
  std::size_t longest = 0;
  for (auto& c : cases) longest = std::max(longest, c.id.size());
  std::regex re;
  try {
    // libstdc++'s polynomial mode matches by breadth-first search: '(.*)*(.*)*zzz' takes
    // microseconds instead of minutes of backtracking (back-references are refused).
    re = std::regex(clamp_counts(filter, longest),
                    std::regex::ECMAScript | std::regex_constants::__polynomial);
  } catch (const std::regex_error& err) {
    throw InputError(
        fmt::format("--filter '{}' is not a valid regular expression (back-references are not "
                    "supported): {}",
                    filter, err.what()));
  }
  for (std::size_t i = 0; i < cases.size(); ++i)
    if (std::regex_search(cases[i].id, re)) out.push_back(i);
  if (out.empty())
    throw InputError(
        fmt::format("--filter '{}' matches none of the {} cases (ids look like '{}'); nothing was "
                    "run or written",
                    filter, cases.size(), cases.empty() ? "" : cases.front().id));
  return out;
}

}  // namespace

std::uint64_t count_cases(const Experiment& e) {
  std::uint64_t instances = 0, solvers = 0;
  for (auto& s : e.instances)
    instances = saturating_add(
        instances, s.generator.empty() ? 1 : saturating_mul(points(s.params), s.seeds.size()));
  for (auto& s : e.solvers) solvers = saturating_add(solvers, points(s.params));
  return saturating_mul(instances, solvers);
}

void select_cases(RunPlan& plan, const std::string& filter) {
  plan.selected = select(plan.cases, filter);
  plan.shard_cases.clear();
  if (!plan.shard) return;
  // The fingerprint stays the whole plan's, so merge can check shards come from one plan.
  const Shard shard = *plan.shard;
  const std::vector<int> shard_of = shard_of_cases(plan.cases, shard.count);
  for (std::size_t i = 0; i < plan.cases.size(); ++i)
    if (shard_of[i] == shard.index) plan.shard_cases.push_back(i);
  const std::size_t matched = plan.selected.size();
  std::erase_if(plan.selected, [&](std::size_t i) { return shard_of[i] != shard.index; });
  if (!filter.empty() && plan.selected.empty())
    throw InputError(fmt::format(
        "--filter '{}' matches {} cases, none of them in shard {}; nothing was run or written",
        filter, matched, shard.str()));
}

RunPlan make_plan(const std::filesystem::path& file, const PlanOptions& opt) {
  RunPlan plan;
  plan.file = file;
  plan.sets = opt.sets;
  plan.parts = parse_experiment_parts(file, parse_overrides(opt.sets));
  std::uint64_t total = 0;
  for (auto& part : plan.parts) total = saturating_add(total, count_cases(part));
  if (total > opt.max_cases)
    throw InputError(fmt::format(
        "{}: the sweeps expand to {} cases, more than the limit of {}; narrow the sweep or "
        "raise the limit with --max-cases",
        file.string(),
        total == std::numeric_limits<std::uint64_t>::max() ? std::string("more than 10^19")
                                                           : std::to_string(total),
        opt.max_cases));
  check_profile_metrics(plan.shared());
  const MeasureSettings m = measuring(plan.shared(), opt);
  const std::string no_gpu = gpu_unavailable_reason();
  const int host_cards = no_gpu.empty() ? int(visible_gpus().size()) : 0;
  std::map<std::string, Origin> origins;
  for (const Experiment& part : plan.parts)
    plan_part(part, m, opt, no_gpu, host_cards, plan.cases, origins, plan.broken);
  if (!plan.broken.empty() && !opt.keep_broken)
    throw InputError(
        plan.broken.size() == 1
            ? plan.broken.front().message
            : fmt::format(
                  "{}; and {} more cases break a rule of their solver against their instance's "
                  "sizes (dpgpu check lists every one)",
                  plan.broken.front().message, plan.broken.size() - 1));
  check_plot_columns(plan.shared().plot, plan.cases);
  check_claim_cases(plan.shared(), plan.cases);
  plan.shard = opt.shard;
  select_cases(plan, opt.filter);
  plan.fingerprint = fingerprint_of(plan.name(), m, plan.cases);
  plan.fingerprint_hash = hash_text(plan.fingerprint.dump());
  return plan;
}

}  // namespace dpgpu
