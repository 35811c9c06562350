// `dpgpu reproduce` end to end on toy experiments (the dpgpu_toy binary, CPU solvers only):
// papers select experiments, the quick tier's overrides apply, fresh seeds differ from the
// file's, the report lists every claim with its verdict, and the exit code says 0 / 1 / 3.
#include <gtest/gtest.h>

#include <string>

#include "e2e_support.hpp"

namespace {

namespace fs = std::filesystem;

const std::string kBin = DPGPU_TOY_BIN;

std::string toy(const std::string& name, const std::string& claims, const std::string& tiers,
                const std::string& solvers = "  - name: cpu.right\n") {
  return "name: " + name + R"(
problem: toy
instances:
  - generator: count
    params: {n: [10, 20]}
    seeds: [1]
solvers:
)" + solvers +
         R"(repetitions: 1
warmup: 0
timeout_s: 30
claims:
)" + claims +
         tiers;
}

std::string claim(const std::string& id, const std::string& paper, const std::string& body) {
  return "  - id: " + id + "\n    says: " + id + ".\n    paper: " + paper + "\n" + body;
}

// A toy experiment with one claim on cpu.right's rows: `check` is its column and bound.
std::string one_claim(const std::string& name, const std::string& id, const std::string& paper,
                      const std::string& check, const std::string& tiers = "") {
  return toy(name, claim(id, paper, "    rows: {solver: cpu.right}\n" + check), tiers);
}

// experiments/: toy_a (paper 000: holds; one claim full only), toy_b (001: fails),
// toy_c (002: every claim full only), toy_d (README only: behind no paper); and a reference
// folder for toy_a under results/reference/h100/.
struct Papers {
  e2e::TempDir dir;
  fs::path experiments = dir.path / "experiments";
  Papers() {
    fs::create_directories(experiments);
    const std::string quick_n10 = "tiers:\n  quick:\n    set: [\"instances.0.params.n=[10]\"]\n";
    write("toy_a",
          toy("toy_a",
              claim("answers_n", "000 Fig. 1",
                    "    rows: {solver: cpu.right}\n    column: "
                    "objective\n    equals: optimum\n") +
                  claim("n20_runs", "000 Fig. 2",
                        "    rows: {solver: cpu.right, i.n: 20}\n    column: objective\n    "
                        "equals: 20\n"),
              quick_n10 + "    full_only: {n20_runs: n = 20 runs in the full tier only}\n"));
    write("toy_b", toy("toy_b",
                       claim("too_small", "001 Table 1",
                             "    rows: {solver: cpu.right}\n    column: objective\n    "
                             "at_most: 5\n"),
                       quick_n10));
    write("toy_c", toy("toy_c",
                       claim("only_full", "002 Fig. 7",
                             "    rows: {solver: cpu.right}\n    column: objective\n    "
                             "at_least: 1\n"),
                       quick_n10 + "    full_only: {only_full: needs the full sizes}\n"));
    write("toy_d", toy("toy_d",
                       claim("readme", "README headline",
                             "    rows: {solver: cpu.right}\n    column: objective\n    "
                             "at_least: 1\n"),
                       ""));
    const auto ref = e2e::run(kBin + " run " + (experiments / "toy_a.yaml").string() + " --out " +
                              (dir.path / "results/reference/h100/toy_a").string());
    EXPECT_EQ(ref.code, 0) << ref.output;
  }
  void write(const std::string& name, const std::string& text) const {
    std::ofstream(experiments / (name + ".yaml")) << text;
  }
  e2e::Ran reproduce(const std::string& args) const {
    return e2e::run(kBin + " reproduce " + args + " --experiments " + experiments.string());
  }
  fs::path out(const std::string& name) const { return dir.path / name; }
};

std::vector<std::string> column(const fs::path& csv, const std::string& key) {
  std::vector<std::string> out;
  for (const auto& row : e2e::read_csv(csv)) out.push_back(row.at(key));
  return out;
}

}  // namespace

TEST(Reproduce, DryRunListsTheExperimentsBehindEachPaperAndTheClaimsNotEvaluated) {
  Papers p;
  const auto one = p.reproduce("0 --dry-run");
  ASSERT_EQ(one.code, 0) << one.output;
  EXPECT_NE(one.output.find("toy_a"), std::string::npos) << one.output;
  EXPECT_EQ(one.output.find("toy_b"), std::string::npos) << one.output;
  EXPECT_NE(one.output.find("not evaluated: n20_runs [000 Fig. 2]: full tier only: n = 20 runs"),
            std::string::npos)
      << one.output;
  EXPECT_NE(one.output.find("claims evaluated: 1 of 2 (50 %)"), std::string::npos) << one.output;

  const auto all = p.reproduce("--dry-run");
  ASSERT_EQ(all.code, 0) << all.output;
  for (const char* name : {"toy_a", "toy_b", "toy_c"})
    EXPECT_NE(all.output.find(name), std::string::npos) << name << "\n" << all.output;
  EXPECT_EQ(all.output.find("toy_d"), std::string::npos) << all.output;  // cites no paper

  const auto full = p.reproduce("000 --tier full --dry-run");
  EXPECT_EQ(full.output.find("not evaluated"), std::string::npos) << full.output;
  EXPECT_NE(full.output.find("claims evaluated: 2 of 2"), std::string::npos) << full.output;

  EXPECT_EQ(p.reproduce("7 --dry-run").code, 2);
  EXPECT_EQ(p.reproduce("000 --tier huge --dry-run").code, 2);
  EXPECT_FALSE(fs::exists(p.out("nothing")));
}

TEST(Reproduce, QuickTierRunsTheOverridesOnFreshSeedsAndReportsEveryClaim) {
  Papers p;
  const auto r = p.reproduce("000 --out " + p.out("quick").string());
  ASSERT_EQ(r.code, 0) << r.output;
  const fs::path summary = p.out("quick") / "toy_a" / "summary.csv";
  EXPECT_EQ(column(summary, "i.n"), std::vector<std::string>{"10"});  // quick: n = 10 alone
  for (const std::string& seed : column(summary, "seed")) EXPECT_NE(seed, "1");
  const std::string seeds = e2e::slurp(p.out("quick") / "seeds.json");
  EXPECT_NE(seeds.find("\"seed_offset\""), std::string::npos) << seeds;
  EXPECT_NE(seeds.find("instances.0.seeds=["), std::string::npos) << seeds;

  const std::string md = e2e::slurp(p.out("quick") / "reproduce.md");
  EXPECT_NE(md.find("| held | `toy_a` `answers_n`"), std::string::npos) << md;
  EXPECT_NE(md.find("| not evaluated | `toy_a` `n20_runs`"), std::string::npos) << md;
  EXPECT_NE(md.find("full tier only: n = 20 runs in the full tier only"), std::string::npos) << md;
  EXPECT_NE(md.find("exact (answers, counts)"), std::string::npos) << md;
  EXPECT_NE(md.find("results/reference/h100/toy_a"), std::string::npos) << md;
  EXPECT_NE(md.find("held: "), std::string::npos) << md;  // the reference's own verdict
  const std::string html = e2e::slurp(p.out("quick") / "reproduce.html");
  EXPECT_NE(html.find("n20_runs"), std::string::npos);
  EXPECT_NE(r.output.find("1 of 2 claims evaluated: 1 held, 0 failed, 1 not evaluated"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("[reproduce 1/1] toy_a"), std::string::npos) << r.output;

  // The folder is not reused: results are never overwritten.
  EXPECT_EQ(p.reproduce("000 --out " + p.out("quick").string()).code, 2);
}

TEST(Reproduce, ReferenceSeedsAndTheFullTierRunTheFileAsWritten) {
  Papers p;
  const auto r = p.reproduce("000 --tier full --seeds reference --out " + p.out("full").string());
  ASSERT_EQ(r.code, 0) << r.output;
  const fs::path summary = p.out("full") / "toy_a" / "summary.csv";
  EXPECT_EQ(column(summary, "i.n"), (std::vector<std::string>{"10", "20"}));
  EXPECT_EQ(column(summary, "seed"), (std::vector<std::string>{"1", "1"}));
  EXPECT_NE(r.output.find("2 of 2 claims evaluated: 2 held"), std::string::npos) << r.output;
}

TEST(Reproduce, AFailedClaimExitsOneAndNothingEvaluatedExitsThree) {
  Papers p;
  const auto failed = p.reproduce("001 --out " + p.out("b").string());
  EXPECT_EQ(failed.code, 1) << failed.output;
  EXPECT_NE(failed.output.find("FAILED toy_b too_small [001 Table 1]"), std::string::npos)
      << failed.output;
  EXPECT_NE(e2e::slurp(p.out("b") / "reproduce.md").find("| FAILED | `toy_b` `too_small`"),
            std::string::npos);

  const auto none = p.reproduce("002 --out " + p.out("c").string());
  EXPECT_EQ(none.code, 3) << none.output;
  EXPECT_NE(e2e::slurp(p.out("c") / "reproduce.md").find("| not evaluated | `toy_c` `only_full`"),
            std::string::npos);
}

TEST(Reproduce, DryRunEstimatesEachCaseFromTheReferenceRun) {
  Papers p;
  // A reference of one case: median 2 s over 3 repetitions, in a run of 10 s (its wall time
  // is no part of the price). This plan runs n = 10 (priced: 2 s × 1 repetition, and a CPU
  // case's fixed cost of a twentieth of a second) and n = 20 (absent from the reference:
  // priced at the mean of the priced): 4 s in all.
  const fs::path ref = p.dir.path / "results/reference/h100/toy_a";
  std::ofstream(ref / "summary.csv") << "case_id,status,time_median_s,reps\n"
                                        "count[n=10]#1/cpu.right,ok,2,3\n";
  std::ofstream(ref / "context.json")
      << R"({"start": "2026-01-01T00:00:00Z", "end": "2026-01-01T00:00:10Z"})";
  const auto r = p.reproduce("000 --tier full --dry-run");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("toy_a                          000               2       4s"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("1 of 2 cases have no reference time"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("2 cases, estimated 4s"), std::string::npos) << r.output;
}

// A machine that cannot run one side of a claim (no GPU: its rows are `skipped`) does not
// fail the claim, which says nothing about the GPU; it is not evaluated, with the reason.
TEST(Reproduce, AClaimWhoseRowsThisMachineSkippedIsNotEvaluatedNotFailed) {
  Papers p;
  p.write("toy_e", toy("toy_e",
                       claim("gpu_faster", "003 Fig. 5",
                             "    rows: {solver: cpu.right}\n    ratio_to: {solver: gpu.none}\n    "
                             "at_least: 2\n") +
                           claim("cpu_right", "003 Fig. 5",
                                 "    rows: {solver: cpu.right}\n    column: objective\n    "
                                 "equals: optimum\n"),
                       "", "  - cpu.right\n  - gpu.none\n"));
  const auto r = p.reproduce("003 --out " + p.out("e").string());
  EXPECT_EQ(r.code, 0) << r.output;
  const std::string md = e2e::slurp(p.out("e") / "reproduce.md");
  EXPECT_NE(md.find("| not evaluated | `toy_e` `gpu_faster`"), std::string::npos) << md;
  EXPECT_NE(md.find("the rows it compares were skipped on this machine: "), std::string::npos)
      << md;
  EXPECT_NE(md.find("| held | `toy_e` `cpu_right`"), std::string::npos) << md;
  EXPECT_NE(r.output.find("1 of 2 claims evaluated: 1 held, 0 failed, 1 not evaluated"),
            std::string::npos)
      << r.output;
  // The verifier itself still fails it: a folder whose rows were skipped holds no evidence.
  const auto v = e2e::run(kBin + " verify " + (p.out("e") / "toy_e").string());
  EXPECT_EQ(v.code, 1) << v.output;
}

// claims.csv: one row per claim, this run's verdict beside the reference's, for the table of
// claims that hold on the reference GPU, on this one and on both (scripts/tables.py).
TEST(Reproduce, ClaimsCsvHasEveryClaimWithBothVerdicts) {
  Papers p;
  const auto r = e2e::run("cd " + p.dir.path.string() + " && " + kBin +
                          " reproduce 000 --experiments experiments --out q");
  ASSERT_EQ(r.code, 0) << r.output;
  const auto rows = e2e::read_csv(p.dir.path / "q" / "claims.csv");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].at("claim"), "answers_n");
  EXPECT_EQ(rows[0].at("verdict"), "held");
  EXPECT_EQ(rows[0].at("reference_verdict"), "held");
  EXPECT_EQ(rows[0].at("reference_folder"), "results/reference/h100/toy_a");
  EXPECT_EQ(rows[1].at("claim"), "n20_runs");
  EXPECT_EQ(rows[1].at("verdict"), "not evaluated");
  EXPECT_NE(rows[1].at("value").find("full tier only"), std::string::npos);
}

// A claim on rows that ask for more CPU threads than this machine has cores measures an
// oversubscribed CPU: not evaluated, naming both numbers; one within the cores is judged.
TEST(Reproduce, AClaimOnMoreThreadsThanCoresIsNotEvaluated) {
  Papers p;
  p.write("toy_t",
          toy("toy_t",
              claim("many_threads", "004 Fig. 4",
                    "    rows: {solver: cpu.threaded, s.threads: 4096}\n    column: objective\n"
                    "    equals: optimum\n") +
                  claim("one_thread", "004 Fig. 4",
                        "    rows: {solver: cpu.threaded, s.threads: 1}\n    column: "
                        "objective\n    equals: optimum\n"),
              "", "  - {name: cpu.threaded, params: {threads: [1, 4096]}}\n"));
  const auto r = p.reproduce("004 --out " + p.out("t").string());
  EXPECT_EQ(r.code, 0) << r.output;
  const std::string md = e2e::slurp(p.out("t") / "reproduce.md");
  EXPECT_NE(md.find("| not evaluated | `toy_t` `many_threads`"), std::string::npos) << md;
  EXPECT_NE(md.find("cpu.threaded asks for 4096 threads and this machine has "), std::string::npos)
      << md;
  EXPECT_NE(md.find("| held | `toy_t` `one_thread`"), std::string::npos) << md;
}

// --rejudge: a finished reproduction judged again on its own results, after a claim was
// revised (or the verifier fixed), with nothing run again; an experiment whose results are
// not there stopped before it ran; a folder that is no reproduction is refused by name.
TEST(Reproduce, RejudgeJudgesTheResultsAgainAndRunsNothing) {
  Papers p;
  const fs::path out = p.out("rj");
  const auto first = p.reproduce("000 001 --out " + out.string());
  ASSERT_EQ(first.code, 1) << first.output;  // toy_b's too_small fails
  const std::string runs_before = e2e::slurp(out / "toy_a" / "runs.csv");
  const std::string seeds_before = e2e::slurp(out / "seeds.json");
  p.write("toy_b", one_claim("toy_b", "too_small", "001 Table 1",
                             "    column: objective\n    at_most: 100\n",
                             "tiers:\n  quick:\n    set: [\"instances.0.params.n=[10]\"]\n"));
  const auto again = p.reproduce("--rejudge " + out.string());
  ASSERT_EQ(again.code, 0) << again.output;
  EXPECT_EQ(column(out / "claims.csv", "verdict"),
            (std::vector<std::string>{"held", "not evaluated", "held"}));
  EXPECT_NE(seeds_before.find("\"elapsed_s\""), std::string::npos) << "the run's time, kept";
  const std::string md = e2e::slurp(out / "reproduce.md");
  EXPECT_NE(md.find("; ran "), std::string::npos) << md;
  EXPECT_NE(md.find("; claims judged again on its results"), std::string::npos) << md;
  EXPECT_EQ(e2e::slurp(out / "toy_a" / "runs.csv"), runs_before) << "nothing ran again";
  EXPECT_EQ(e2e::slurp(out / "seeds.json"), seeds_before);

  fs::remove_all(out / "toy_a");
  const auto stopped = p.reproduce("--rejudge " + out.string());
  EXPECT_EQ(stopped.code, 0) << stopped.output;
  const auto rows = e2e::read_csv(out / "claims.csv");
  ASSERT_FALSE(rows.empty());
  EXPECT_EQ(rows[0].at("claim"), "answers_n");
  EXPECT_EQ(rows[0].at("verdict"), "not evaluated");
  EXPECT_NE(rows[0].at("value").find("no results in this reproduction"), std::string::npos)
      << rows[0].at("value");

  const auto refused = p.reproduce("--rejudge " + p.out("nothing").string());
  EXPECT_EQ(refused.code, 2);
  EXPECT_NE(refused.output.find("seeds.json not found"), std::string::npos) << refused.output;
}

// A tier's filter leaves cases of the plan unrun on purpose: `dpgpu verify` of the
// experiment's folder does not call them missing (context.json's "filter", and the
// reproduction's seeds.json for folders written before it), while a folder that lost rows
// leaves its claims unjudged when the reproduction is judged again.
TEST(Reproduce, ATiersFilteredCasesAreNotMissingButLostRowsLeaveClaimsUnjudged) {
  Papers p;
  p.write("toy_f", one_claim("toy_f", "n10_answer", "000 Fig. 9",
                             "    column: objective\n    equals: optimum\n",
                             "tiers:\n  quick:\n    filter: \"n=10[^0-9]\"\n"));
  const fs::path out = p.out("filtered");
  const auto r = p.reproduce("000 --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.output;
  const std::string context = e2e::slurp(out / "toy_f" / "context.json");
  EXPECT_NE(context.find("\"filter\": \"n=10[^0-9]\""), std::string::npos) << context;
  const auto verified = e2e::run(kBin + " verify " + (out / "toy_f").string() + "/");
  EXPECT_EQ(verified.code, 0) << verified.output;
  EXPECT_EQ(verified.output.find("PROBLEM"), std::string::npos) << verified.output;

  // Rows lost from summary.csv (the journal still has them): the folder is damaged.
  const fs::path summary = out / "toy_f" / "summary.csv";
  std::string text = e2e::slurp(summary);
  text.erase(text.find('\n') + 1);  // the header alone
  std::ofstream(summary) << text;
  const auto again = p.reproduce("--rejudge " + out.string());
  bool seen = false;
  for (const auto& row : e2e::read_csv(out / "claims.csv"))
    if (row.at("claim") == "n10_answer") {
      seen = true;
      EXPECT_EQ(row.at("verdict"), "not evaluated");
      EXPECT_NE(row.at("value").find("its results are incomplete"), std::string::npos)
          << row.at("value");
    }
  EXPECT_TRUE(seen) << again.output;
}

// --resume: a reproduction stopped by a call's limit is continued in its folder, with its
// recorded seeds: a finished experiment is kept as it is, one whose folder lost its rows (as a
// cut-short run leaves it) is continued, one never started is run; the run's time adds up.
TEST(Reproduce, ResumeKeepsFinishedExperimentsAndRunsTheRest) {
  Papers p;
  const std::string both_sizes = "    column: objective\n    equals: optimum\n    min_rows: 2\n";
  p.write("toy_g", one_claim("toy_g", "both_sizes", "000 Fig. 8", both_sizes));
  const fs::path out = p.out("resumed");
  ASSERT_EQ(p.reproduce("000 001 --out " + out.string()).code, 1);  // toy_b's claim fails
  const std::string runs_a = e2e::slurp(out / "toy_a" / "runs.csv");
  const std::string seeds = e2e::slurp(out / "seeds.json");
  fs::remove_all(out / "toy_b");  // never started
  // toy_g cut short after its first case: one journal line, no derived files yet.
  const fs::path g = out / "toy_g";
  std::string journal = e2e::slurp(g / "journal.jsonl");
  journal.erase(journal.find('\n') + 1);
  std::ofstream(g / "journal.jsonl", std::ios::trunc) << journal;
  fs::remove(g / "summary.csv");
  fs::remove(g / "runs.csv");
  // Its tier changed since: the cut-short run is continued with the plan it began.
  p.write("toy_g", one_claim("toy_g", "both_sizes", "000 Fig. 8", both_sizes,
                             "tiers:\n  quick:\n    set: [\"instances.0.params.n=[30]\"]\n"));
  const auto r = p.reproduce("--resume --out " + out.string());
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_EQ(e2e::slurp(out / "toy_a" / "runs.csv"), runs_a) << "a finished experiment is kept";
  ASSERT_TRUE(fs::exists(out / "toy_b" / "summary.csv")) << r.output;
  EXPECT_EQ(e2e::slurp(g / "journal.jsonl").rfind(journal, 0), 0u) << "its first case kept";
  EXPECT_EQ(e2e::read_csv(g / "summary.csv").size(), 2u) << "and the second one run";
  EXPECT_EQ(column(out / "claims.csv", "verdict"),
            (std::vector<std::string>{"held", "not evaluated", "failed", "held"}));
  // The same seeds: toy_b ran on the recorded offset.
  const std::string offset = seeds.substr(seeds.find("\"seed_offset\""), 40);
  EXPECT_NE(e2e::slurp(out / "seeds.json").find(offset.substr(0, offset.find(','))),
            std::string::npos);

  EXPECT_EQ(p.reproduce("000 --resume --out " + out.string()).code, 2) << "papers are recorded";
  EXPECT_EQ(p.reproduce("--resume --out " + p.out("none").string()).code, 2);
  // Without --resume a used folder is refused, and the message says how to go on.
  const auto again = p.reproduce("000 --out " + out.string());
  EXPECT_EQ(again.code, 2);
  EXPECT_NE(again.output.find("--resume"), std::string::npos) << again.output;
}

// The quick tier measures no energy window (its extra solves cost about a second per GPU
// case) unless a claim of the experiment is about energy.
TEST(Reproduce, QuickTierDropsTheEnergyWindowUnlessAClaimIsAboutEnergy) {
  Papers p;
  p.write("toy_h",
          one_claim("toy_h", "joules", "000 Fig. 7", "    column: energy_j\n    at_least: 0\n"));
  const fs::path out = p.out("energy");
  p.reproduce("000 --out " + out.string());
  const std::string seeds = e2e::slurp(out / "seeds.json");
  const auto a = seeds.find("\"toy_a\""), h = seeds.find("\"toy_h\"");
  ASSERT_NE(a, std::string::npos);
  ASSERT_NE(h, std::string::npos);
  EXPECT_NE(seeds.substr(a, h - a).find("energy_window_s=0"), std::string::npos) << seeds;
  EXPECT_EQ(seeds.substr(h).find("energy_window_s=0"), std::string::npos) << seeds;
  const fs::path full = p.out("energy_full");  // the full tier measures as the file says
  p.reproduce("000 --tier full --out " + full.string());
  EXPECT_EQ(e2e::slurp(full / "seeds.json").find("energy_window_s"), std::string::npos);
}
