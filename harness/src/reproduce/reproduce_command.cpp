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

// Runs one experiment into DIR/<name>; returns why it gave no results ("" when it did).
std::string run_one(const PlannedExperiment& e, const fs::path& dir) {
  if (!e.plan_error.empty()) return e.plan_error;
  RunOptions o;
  o.out = dir / e.exp.name;
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

// --rejudge DIR: the plan of the reproduction in DIR (its papers, tier and seed offset from
// DIR/seeds.json, the experiments' claims as they are now), every claim judged again on the
// results there; an experiment without results there stopped before it ran.
int rejudge(const ReproduceOptions& opt) {
  const fs::path dir = opt.rejudge;
  const fs::path seeds = dir / "seeds.json";
  if (!fs::exists(seeds))
    throw InputError(fmt::format("reproduce --rejudge: {} not found: {} is not a reproduction",
                                 seeds.string(), dir.string()));
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(read_whole_file(seeds));
  } catch (const nlohmann::json::exception& e) {
    throw InputError(fmt::format("reproduce --rejudge: {}: {}", seeds.string(), e.what()));
  }
  ReproduceOptions o = opt;
  o.papers = j.value("papers", std::vector<std::string>{});
  o.tier = j.value("tier", std::string("quick"));
  o.seeds = j.value("seeds", std::string("fresh"));
  if (j.contains("seed_offset") && j["seed_offset"].is_number_unsigned())
    o.seed_offset = j["seed_offset"].get<std::uint64_t>();
  ReproducePlan plan = make_reproduce_plan(o);
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
  const auto elapsed = j.value("elapsed_s", nlohmann::json());
  write_reproduce_report(dir, plan, verdicts, elapsed.is_number() ? elapsed.get<double>() : -1,
                         std::cout);
  return exit_code(verdicts);
}

int reproduce(const ReproduceOptions& opt) {
  if (!opt.rejudge.empty()) return rejudge(opt);
  const ReproducePlan plan = make_reproduce_plan(opt);
  print_reproduce_plan(std::cout, plan);
  if (opt.dry_run) return 0;
  if (opt.out.empty()) throw InputError("reproduce: --out DIR is required (or --dry-run)");
  if (fs::exists(opt.out) && !fs::is_empty(opt.out))
    throw InputError(
        fmt::format("reproduce: {} is not empty; name a new folder (results are "
                    "never overwritten)",
                    opt.out.string()));
  fs::create_directories(opt.out);
  write_seeds(opt.out, plan);
  const auto started = Clock::now();
  std::vector<ClaimVerdict> verdicts;
  double done_est = 0;
  int stopped = 0;
  for (std::size_t i = 0; i < plan.experiments.size(); ++i) {
    const PlannedExperiment& e = plan.experiments[i];
    std::string run_error;
    if (e.skip.empty() && !stopped) {
      progress_line(plan, i, since(started), done_est);
      run_error = run_one(e, opt.out);
      done_est += e.estimate.seconds;
      stopped = stop_requested();
    } else if (stopped) {
      run_error = fmt::format("not run: stopped by signal {}", stopped);
    }
    auto v = judge_experiment(e, opt.out / e.exp.name, plan.seed_offset, run_error);
    verdicts.insert(verdicts.end(), v.begin(), v.end());
  }
  const double elapsed_s = since(started);
  write_seeds(opt.out, plan, elapsed_s);
  write_reproduce_report(opt.out, plan, verdicts, elapsed_s, std::cout);
  return stopped ? 128 + stopped : exit_code(verdicts);
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
