// reproduce_command.cpp — `dpgpu reproduce [PAPER...] [--tier quick|full] [--seeds
// fresh|reference] --out DIR`: runs the experiments behind each paper's claims on this machine
// (verify/reproduce_plan.hpp: a copy per experiment under DIR/copies, changed for the
// tier and the seeds; results under DIR/results/<name>), then checks every claim on the fresh
// results beside the committed reference (verify/reproduce_report.hpp): DIR/reproduce.md and
// a summary. Exit 0 only when every evaluated claim holds; 3 when none could be evaluated.
#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <random>

#include "cli/command.hpp"
#include "dpgpu/error.hpp"
#include "records/csv_table.hpp"
#include "verify/reproduce_plan.hpp"
#include "verify/reproduce_report.hpp"

namespace dpgpu {

namespace {

namespace fs = std::filesystem;

struct ReproduceOptions {
  std::vector<std::string> papers;
  std::string tier = "quick", seeds = "fresh";
  fs::path out, experiments, reference;
  unsigned seed_base = 0;
  bool dry_run = false;
};

// experiments/ (and results/reference/) in the nearest folder above the working directory.
fs::path nearest(const fs::path& rel) {
  for (fs::path p = fs::current_path(); !p.empty(); p = p.parent_path()) {
    if (fs::is_directory(p / rel)) return p / rel;
    if (p == p.parent_path()) break;
  }
  return {};
}

std::string clock_text(double s) { return fmt::format("{}:{:02}", int(s) / 60, int(s) % 60); }

// Runs one experiment's copy; the run's own exit code (cases that failed are in its results).
int run_copy(const fs::path& copy, const fs::path& results) {
  // This binary by its path (/proc/self/exe inside the shell would be the shell).
  static const fs::path self = fs::read_symlink("/proc/self/exe");
  const std::string cmd = fmt::format("'{}' run '{}' --out '{}'{}", self.string(), copy.string(),
                                      results.string(), fs::exists(results) ? " --resume" : "");
  const int status = std::system(cmd.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

void run_all(const std::vector<ReproduceExperiment>& todo, const ReproduceOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  for (std::size_t i = 0; i < todo.size(); ++i) {
    const ReproduceExperiment& e = todo[i];
    const fs::path copy = write_reproduce_copy(e, o.tier == "quick", o.seed_base, o.out);
    const double took =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const double left = i ? took / double(i) * double(todo.size() - i) : 0;
    std::cout << fmt::format("[{}/{}] {} (papers {}; {} elapsed{})\n", i + 1, todo.size(), e.name,
                             fmt::join(e.papers, ", "), clock_text(took),
                             i ? ", about " + clock_text(left) + " left" : "")
              << std::flush;
    if (o.dry_run) continue;
    const int rc = run_copy(copy, o.out / "results" / e.name);
    if (rc == 130 || rc == 143) throw InputError("reproduce: interrupted");
  }
}

int reproduce_command(ReproduceOptions o) {
  if (o.tier != "quick" && o.tier != "full") throw InputError("reproduce: --tier quick|full");
  if (o.seeds != "fresh" && o.seeds != "reference")
    throw InputError("reproduce: --seeds fresh|reference");
  if (o.experiments.empty()) o.experiments = nearest("experiments");
  if (o.reference.empty()) o.reference = nearest("results/reference");
  if (o.experiments.empty())
    throw InputError("reproduce: no experiments/ folder here or above; give --experiments DIR");
  if (o.seeds == "fresh" && o.seed_base == 0) o.seed_base = 1000 + std::random_device{}() % 900000;
  if (o.seeds == "reference") o.seed_base = 0;
  const auto todo = reproduce_experiments(o.experiments, o.papers, o.reference);
  if (todo.empty()) throw InputError("reproduce: no experiment has a claim citing those papers");
  fs::create_directories(o.out);
  run_all(todo, o);
  if (o.dry_run) return 0;
  std::vector<ReproducedClaim> all;
  std::vector<std::string> problems;
  for (const auto& e : todo) {
    const auto verdicts = reproduce_verdicts(e, o.out / "results" / e.name, &problems);
    pin_fresh_claims(e, o.out / "results" / e.name, verdicts);
    all.insert(all.end(), verdicts.begin(), verdicts.end());
  }
  const std::string how = fmt::format(
      "Tier {}, seeds {}{} (`dpgpu reproduce --tier {} --seeds {}{}`), {} experiments.", o.tier,
      o.seeds, o.seed_base ? fmt::format(" from {}", o.seed_base) : "", o.tier, o.seeds,
      o.seed_base ? fmt::format(" --seed-base {}", o.seed_base) : "", todo.size());
  std::string page = reproduce_markdown(all, how);
  if (!problems.empty())
    page +=
        fmt::format("\nProblems of the results folders:\n\n- {}\n", fmt::join(problems, "\n- "));
  write_file_atomically(o.out / "reproduce.md", page);
  for (const std::string& p : problems) std::cout << "  PROBLEM " << p << "\n";
  std::size_t held = 0, failed = 0;
  for (auto& c : all) {
    held += c.verdict == "held", failed += c.verdict == "FAILED";
    std::cout << fmt::format("  {:<13} {}/{} [{}; {}]: {}\n", c.verdict, c.experiment, c.id,
                             c.paper, c.kind, c.detail);
  }
  std::cout << fmt::format("{} of {} claims evaluated, {} held, {} failed; report: {}\n",
                           held + failed, all.size(), held, failed,
                           (o.out / "reproduce.md").string());
  if (failed) return 1;
  return held ? 0 : 3;
}

}  // namespace

namespace cli {

Command add_reproduce_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "reproduce",
      "run the experiments behind each paper's claims here and check every claim on the fresh "
      "results: DIR/reproduce.md; exit 0 when every evaluated claim holds");
  auto o = std::make_shared<ReproduceOptions>();
  cmd->add_option("papers", o->papers, "papers by number (000 ... 004; default all)");
  cmd->add_option("--tier", o->tier,
                  "quick: the smaller half of each size sweep; full: as committed")
      ->check(CLI::IsMember({"quick", "full"}));
  cmd->add_option("--seeds", o->seeds, "fresh (default): new seeds; reference: the committed ones")
      ->check(CLI::IsMember({"fresh", "reference"}));
  cmd->add_option("--seed-base", o->seed_base, "the first fresh seed (to repeat a reproduction)");
  cmd->add_option("--out", o->out, "folder for the copies, the results and reproduce.md")
      ->required();
  cmd->add_option("--experiments", o->experiments, "experiment folder (default ./experiments)");
  cmd->add_option("--reference", o->reference, "committed results (default ./results/reference)");
  cmd->add_flag("--dry-run", o->dry_run, "write the copies and list the runs; run nothing");
  return {cmd, [o] { return reproduce_command(*o); }};
}

}  // namespace cli

}  // namespace dpgpu
