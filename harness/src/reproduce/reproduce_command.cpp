// reproduce_command.cpp — `dpgpu reproduce` (reproduce_command.hpp).
#include "reproduce/reproduce_command.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <chrono>
#include <iostream>
#include <memory>
#include <optional>
#include <nlohmann/json.hpp>

#include "cli/runner.hpp"
#include "dpgpu/error.hpp"
#include "dpgpu/text_file.hpp"
#include "process/interrupt.hpp"
#include "records/csv_table.hpp"
#include "reproduce/reproduce_report.hpp"
#include "verify/results_rows.hpp"

namespace fs = std::filesystem;

namespace dpgpu {

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// DIR/seeds.json: the offset and every experiment's overrides, so the run can be repeated;
// written again at the end with the run's time (`elapsed_s`), which --rejudge reports.
void write_seeds(const fs::path& dir, const ReproducePlan& plan,
                 std::optional<double> elapsed_s = std::nullopt) {
  nlohmann::json j{{"tier", plan.tier}, {"seeds", plan.seeds}, {"papers", plan.papers}};
  if (elapsed_s) j["elapsed_s"] = *elapsed_s;
  j["seed_offset"] = plan.seed_offset ? nlohmann::json(*plan.seed_offset) : nlohmann::json();
  for (const auto& e : plan.experiments)
    j["experiments"][e.exp.name] = {
        {"file", e.exp.file.string()}, {"set", e.sets}, {"filter", e.tier.filter}};
  write_file_atomically(dir / "seeds.json", j.dump(2) + "\n");
}

// The progress line before an experiment: which, its estimate, and the time left, the
// estimates of what remains scaled by how the finished ones compared with theirs.
void progress_line(const ReproducePlan& plan, std::size_t i, double elapsed_s, double done_est_s) {
  double left = 0;
  for (std::size_t k = i; k < plan.experiments.size(); ++k)
    if (plan.experiments[k].skip.empty()) left += plan.experiments[k].estimate.seconds;
  const double pace = done_est_s > 1 ? elapsed_s / done_est_s : 1.0;
  const auto& e = plan.experiments[i];
  std::cerr << fmt::format("[reproduce {}/{}] {} (estimated {}); elapsed {}, about {} left\n",
                           i + 1, plan.experiments.size(), e.exp.name,
                           duration_text(e.estimate.seconds), duration_text(elapsed_s),
                           duration_text(left * pace));
}

// Runs one experiment into DIR/<name> (`resume`: continues what a cut-short run left there);
// returns why it gave no results ("" when it did).
std::string run_one(const PlannedExperiment& e, const fs::path& dir, bool resume = false) {
  if (!e.plan_error.empty()) return e.plan_error;
  RunOptions o;
  o.out = dir / e.exp.name;
  o.resume = resume && fs::exists(o.out);
  o.filter = e.tier.filter;
  o.sets = e.sets;
  try {
    const int code = run_experiment(e.exp.file, o);
    if (code == 0 || code == 1) return "";  // 1: some case failed; its claims say what it costs
    return fmt::format("dpgpu run exited {}", code);
  } catch (const InputError& e2) {
    return e2.what();
  }
}

int exit_code(const std::vector<ClaimVerdict>& verdicts) {
  const ReproduceTotals t = count_verdicts(verdicts);
  if (t.failed > 0) return 1;
  return t.held == 0 ? 3 : 0;
}

}  // namespace

// The reproduction recorded in DIR/seeds.json: its papers, tier and seed offset, planned
// again with the experiments' claims as they are now; `seeds` gets the file's contents.
ReproducePlan recorded_plan(const ReproduceOptions& opt, const fs::path& dir, const char* flag,
                            nlohmann::json& seeds) {
  const fs::path file = dir / "seeds.json";
  if (!fs::exists(file))
    throw InputError(fmt::format("reproduce {}: {} not found: {} is not a reproduction", flag,
                                 file.string(), dir.string()));
  if (!opt.papers.empty())
    throw InputError(
        fmt::format("reproduce {}: the papers are {}'s; name none", flag, file.string()));
  try {
    seeds = nlohmann::json::parse(read_whole_file(file));
  } catch (const nlohmann::json::exception& e) {
    throw InputError(fmt::format("reproduce {}: {}: {}", flag, file.string(), e.what()));
  }
  ReproduceOptions o = opt;
  o.papers = seeds.value("papers", std::vector<std::string>{});
  o.tier = seeds.value("tier", std::string("quick"));
  o.seeds = seeds.value("seeds", std::string("fresh"));
  if (seeds.contains("seed_offset") && seeds["seed_offset"].is_number_unsigned())
    o.seed_offset = seeds["seed_offset"].get<std::uint64_t>();
  ReproducePlan plan = make_reproduce_plan(o);
  // Each experiment as it was run (its overrides and filter), though the tiers have changed
  // since: a cut-short run is continued only with the plan it began.
  const auto& recorded = seeds.value("experiments", nlohmann::json::object());
  for (PlannedExperiment& e : plan.experiments) {
    if (!recorded.is_object() || !recorded.contains(e.exp.name)) continue;
    const auto& r = recorded[e.exp.name];
    if (r.contains("set") && r["set"].is_array()) e.sets = r["set"].get<std::vector<std::string>>();
    if (r.contains("filter") && r["filter"].is_string()) e.tier.filter = r["filter"];
  }
  return plan;
}

double recorded_elapsed(const nlohmann::json& seeds) {
  const auto elapsed = seeds.value("elapsed_s", nlohmann::json());
  return elapsed.is_number() ? elapsed.get<double>() : -1;
}

// An experiment's folder that holds every case its run was asked for, whole and fresh.
bool finished(const PlannedExperiment& e, const fs::path& folder) {
  if (!fs::exists(folder / "summary.csv")) return false;
  try {
    return read_folder_claims(folder, e.exp.file).problems.empty();
  } catch (const InputError&) {
    return false;
  }
}

// Runs the plan's experiments into `dir` one after another (`resume`: only those not finished
// there, a cut-short one continued), judges every claim, writes the report and the run's
// time (`earlier_s`: of the runs before a resume).
int run_reproduction(const ReproducePlan& plan, const fs::path& dir, bool resume,
                     double earlier_s) {
  const auto started = Clock::now();
  std::vector<ClaimVerdict> verdicts;
  double done_est = 0;
  int stopped = 0;
  for (std::size_t i = 0; i < plan.experiments.size(); ++i) {
    const PlannedExperiment& e = plan.experiments[i];
    std::string run_error;
    const bool done = resume && finished(e, dir / e.exp.name);
    if (e.skip.empty() && !stopped && !done) {
      progress_line(plan, i, since(started), done_est);
      run_error = run_one(e, dir, resume);
      done_est += e.estimate.seconds;
      stopped = stop_requested();
    } else if (stopped && !done) {
      run_error = fmt::format("not run: stopped by signal {}", stopped);
    }
    auto v = judge_experiment(e, dir / e.exp.name, plan.seed_offset, run_error);
    verdicts.insert(verdicts.end(), v.begin(), v.end());
  }
  const double elapsed_s = std::max(0.0, earlier_s) + since(started);
  write_seeds(dir, plan, elapsed_s);
  write_reproduce_report(dir, plan, verdicts, elapsed_s, std::cout);
  return stopped ? 128 + stopped : exit_code(verdicts);
}

// --rejudge DIR: every claim of the reproduction in DIR judged again on the results there; an
// experiment without results there stopped before it ran.
int rejudge(const ReproduceOptions& opt) {
  const fs::path dir = opt.rejudge;
  nlohmann::json seeds;
  ReproducePlan plan = recorded_plan(opt, dir, "--rejudge", seeds);
  plan.rejudged = true;
  std::vector<ClaimVerdict> verdicts;
  for (const PlannedExperiment& e : plan.experiments) {
    const bool ran = fs::exists(dir / e.exp.name / "summary.csv");
    const std::string run_error =
        e.skip.empty() && !ran ? "not run: no results in this reproduction (it stopped before)"
                               : "";
    auto v = judge_experiment(e, dir / e.exp.name, plan.seed_offset, run_error);
    verdicts.insert(verdicts.end(), v.begin(), v.end());
  }
  write_reproduce_report(dir, plan, verdicts, recorded_elapsed(seeds), std::cout);
  return exit_code(verdicts);
}

int reproduce(const ReproduceOptions& opt) {
  if (!opt.rejudge.empty()) return rejudge(opt);
  if (opt.resume) {
    if (opt.out.empty()) throw InputError("reproduce --resume: --out DIR is required");
    nlohmann::json seeds;
    const ReproducePlan plan = recorded_plan(opt, opt.out, "--resume", seeds);
    print_reproduce_plan(std::cout, plan);
    if (opt.dry_run) return 0;
    return run_reproduction(plan, opt.out, true, recorded_elapsed(seeds));
  }
  const ReproducePlan plan = make_reproduce_plan(opt);
  print_reproduce_plan(std::cout, plan);
  if (opt.dry_run) return 0;
  if (opt.out.empty()) throw InputError("reproduce: --out DIR is required (or --dry-run)");
  if (fs::exists(opt.out) && !fs::is_empty(opt.out))
    throw InputError(
        fmt::format("reproduce: {} is not empty; name a new folder (results are "
                    "never overwritten), or continue it with --resume",
                    opt.out.string()));
  fs::create_directories(opt.out);
  write_seeds(opt.out, plan);
  return run_reproduction(plan, opt.out, false, 0);
}

namespace cli {

Command add_reproduce_command(CLI::App& app) {
  auto opt = std::make_shared<ReproduceOptions>();
  auto* cmd = app.add_subcommand(
      "reproduce",
      "run the experiments behind papers' claims on this machine and verify every claim on the "
      "fresh results (DIR/reproduce.md): exit 0 all evaluated hold, 1 one fails, 3 none evaluated");
  cmd->add_option("papers", opt->papers, "papers by number, 000 to 004 (default: all five)");
  cmd->add_option("--tier", opt->tier,
                  "quick (each experiment's tiers.quick: smaller sizes) or full (as written)")
      ->check(CLI::IsMember({"quick", "full"}));
  cmd->add_option("--seeds", opt->seeds,
                  "fresh (default: every generated seed shifted by an offset from the clock) or "
                  "reference (the files' seeds)")
      ->check(CLI::IsMember({"fresh", "reference"}));
  cmd->add_option("--out", opt->out, "folder for the results (one subfolder per experiment)");
  cmd->add_flag("--resume", opt->resume,
                "continue the reproduction in --out DIR (a call's limit or a signal stopped it): "
                "its papers, tier and seeds from DIR/seeds.json; finished experiments are kept, "
                "a cut-short one continued, the rest run");
  cmd->add_option("--rejudge", opt->rejudge,
                  "a finished reproduction's folder: judge every claim again on its results (after "
                  "a verifier fix or a claim's revision) and rewrite its reports; runs nothing");
  cmd->add_flag("--dry-run", opt->dry_run,
                "print the plan (experiments, cases, estimated time, claims evaluated or not)");
  cmd->add_option("--experiments", opt->experiments,
                  "folder of experiment files (default experiments/)");
  cmd->add_option("--reference", opt->reference,
                  "folder of reference results by GPU (default results/reference beside it)");
  return {cmd, [opt] { return reproduce(*opt); }};
}

}  // namespace cli

}  // namespace dpgpu
