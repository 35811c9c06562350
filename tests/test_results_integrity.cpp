// Results you can stake a paper on (issue 30): every way a folder or a verdict misled, each
// as a test through the real binaries. The finding's number is in each test's comment.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <map>
#include <thread>

#include <nlohmann/json.hpp>

#include "e2e_support.hpp"
#include "scaleout_support.hpp"

using e2e::read_csv;
using e2e::run;
using e2e::slurp;
using e2e::snapshot;
using e2e::toy_sweep;

namespace {

namespace fs = std::filesystem;
const std::string kToy = DPGPU_TOY_BIN;
const std::string kDpgpu = DPGPU_BIN;

pid_t start(const std::vector<std::string>& args, const fs::path& log) {
  return scaleout::start(kToy, args, log);
}
using scaleout::wait_exit;
using scaleout::wait_for;

std::vector<std::string> lines_of(const fs::path& p) {
  std::vector<std::string> out;
  std::istringstream in(slurp(p));
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

void write_lines(const fs::path& p, const std::vector<std::string>& lines) {
  std::ofstream out(p, std::ios::trunc);
  for (auto& l : lines) out << l << "\n";
}

// Files in `dir` whose name starts with `prefix`.
std::vector<fs::path> named(const fs::path& dir, const std::string& prefix) {
  std::vector<fs::path> out;
  for (auto& e : fs::directory_iterator(dir))
    if (e.path().filename().string().rfind(prefix, 0) == 0) out.push_back(e.path());
  return out;
}

// Each (case, repetition) once in runs.csv; summary.csv and the journal hold every case once.
void expect_whole(const fs::path& out, std::size_t cases, int reps) {
  std::map<std::string, std::set<std::string>> reps_of;
  auto runs = read_csv(out / "runs.csv");
  for (auto& r : runs)
    EXPECT_TRUE(reps_of[r.at("case_id")].insert(r.at("rep")).second)
        << r.at("case_id") << " rep " << r.at("rep");
  EXPECT_EQ(reps_of.size(), cases);
  EXPECT_EQ(runs.size(), cases * std::size_t(reps));
  EXPECT_EQ(read_csv(out / "summary.csv").size(), cases);
  EXPECT_EQ(lines_of(out / "journal.jsonl").size(), cases);
}

}  // namespace

// 1. One unreadable journal line loses only itself: every readable record after it is kept
// (nothing re-measured), and the journal as it was is kept beside, not rewritten in place.
TEST(ResultsIntegrity, AnUnreadableJournalLineLosesOnlyItself) {
  e2e::TempDir d;
  auto yaml = d.write("e.yaml", toy_sweep("garbage", "[1, 2, 3]", "0", 2));
  const auto out = d.path / "out";
  ASSERT_EQ(run(kToy + " run " + yaml.string() + " --out " + out.string()).code, 0);
  const std::string runs_before = slurp(out / "runs.csv");
  auto lines = lines_of(out / "journal.jsonl");
  ASSERT_EQ(lines.size(), 6u);
  lines.insert(lines.begin() + 3, "x");
  write_lines(out / "journal.jsonl", lines);
  const std::string damaged = slurp(out / "journal.jsonl");
  auto r = run(kToy + " run " + yaml.string() + " --out " + out.string() + " --resume");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("1 unreadable line (4)"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("kept all 6 readable records"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("0 cases of the plan have no record"), std::string::npos) << r.output;
  EXPECT_EQ(slurp(out / "runs.csv"), runs_before) << "no case measured again";
  auto kept = named(out, "journal.damaged-");
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_EQ(slurp(kept[0]), damaged) << "the damaged journal is kept as it was";
  expect_whole(out, 6, 2);
}

// 1, in merge: a shard's unreadable line loses only itself there too.
TEST(ResultsIntegrity, MergeKeepsEveryReadableRecordOfADamagedJournal) {
  e2e::TempDir d;
  auto yaml = d.write("e.yaml", toy_sweep("mgarbage", "[1, 2, 3]", "0", 1));
  for (int k = 0; k < 2; ++k)
    ASSERT_EQ(run(kToy + " run " + yaml.string() + " --shard " + std::to_string(k) + "/2 --out " +
                  (d.path / ("s" + std::to_string(k))).string())
                  .code,
              0);
  auto lines = lines_of(d.path / "s0/journal.jsonl");
  lines.insert(lines.begin() + 1, "{\"case_id\": 3");
  write_lines(d.path / "s0/journal.jsonl", lines);
  auto r = run(kToy + " merge " + (d.path / "s0").string() + " " + (d.path / "s1").string() +
               " --into " + (d.path / "m").string());
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("1 unreadable line (2)"), std::string::npos) << r.output;
  expect_whole(d.path / "m", 6, 1);
}

// 2. A deleted journal does not silently replace runs.csv, summary.csv and benchmark.json:
// they are moved aside, whole, before the rebuild.
TEST(ResultsIntegrity, ADeletedJournalMovesTheDerivedFilesAsideFirst) {
  e2e::TempDir d;
  auto yaml = d.write("e.yaml", toy_sweep("nojournal", "[1, 2]", "0", 2));
  const auto out = d.path / "out";
  ASSERT_EQ(run(kToy + " run " + yaml.string() + " --out " + out.string()).code, 0);
  const auto before = snapshot(out);
  fs::remove(out / "journal.jsonl");
  auto r = run(kToy + " run " + yaml.string() + " --out " + out.string() + " --resume");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("hold 4 cases that journal.jsonl lacks"), std::string::npos) << r.output;
  auto previous = named(out, "previous-");
  ASSERT_EQ(previous.size(), 1u) << r.output;
  for (auto f : {"runs.csv", "summary.csv", "benchmark.json"})
    EXPECT_EQ(slurp(previous[0] / f), before.at(f)) << f;
  expect_whole(out, 4, 2);
}

// 12. A case recorded twice (not by a --filter rerun) keeps its first record, with a warning;
// a --filter rerun still replaces its case's record.
TEST(ResultsIntegrity, ADuplicatedRecordKeepsTheFirstAndSaysSo) {
  e2e::TempDir d;
  auto yaml = d.write("e.yaml", toy_sweep("dup", "[1, 2]", "0", 2));
  const auto out = d.path / "out";
  ASSERT_EQ(run(kToy + " run " + yaml.string() + " --out " + out.string()).code, 0);
  const std::string runs_before = slurp(out / "runs.csv");
  auto lines = lines_of(out / "journal.jsonl");
  auto copy = nlohmann::json::parse(lines[0]);
  copy.erase("check");  // a line as dpgpu wrote it before checksums
  for (auto& rep : copy["result"]["reps"]) rep["time_s"] = 123.0;
  copy["finished"] = "2001-01-01T00:00:00Z";
  lines.push_back(copy.dump());
  write_lines(out / "journal.jsonl", lines);
  auto r = run(kToy + " run " + yaml.string() + " --out " + out.string() + " --resume");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("1 duplicated record"), std::string::npos) << r.output;
  EXPECT_EQ(slurp(out / "runs.csv"), runs_before) << "the first record counts";
  // No cell is the duplicate's time (a bare "123" also occurs by chance inside other numbers).
  EXPECT_EQ(slurp(out / "runs.csv").find(",123,"), std::string::npos);
  expect_whole(out, 4, 2);
  // A --filter rerun is no duplicate: it replaces, and a later --resume keeps it quietly.
  ASSERT_EQ(
      run(kToy + " run " + yaml.string() + " --out " + out.string() + " --filter 'n=1.*cpu.bare'")
          .code,
      0);
  const std::string after_filter = slurp(out / "runs.csv");
  EXPECT_NE(after_filter, runs_before);
  r = run(kToy + " run " + yaml.string() + " --out " + out.string() + " --resume");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(r.output.find("duplicated"), std::string::npos) << r.output;
  EXPECT_EQ(slurp(out / "runs.csv"), after_filter);
}

// 5. --resume keeps the first run's context (start, host, command line) in "earlier_runs".
TEST(ResultsIntegrity, ResumeKeepsEveryRunsContext) {
  e2e::TempDir d;
  auto yaml = d.write("e.yaml", toy_sweep("ctx", "[1, 2]", "0", 1));
  const auto out = d.path / "out";
  ASSERT_EQ(run(kToy + " run " + yaml.string() + " --out " + out.string() + " --filter n=1").code,
            0);
  const auto first = nlohmann::json::parse(slurp(out / "context.json"));
  ASSERT_EQ(run(kToy + " run " + yaml.string() + " --out " + out.string() + " --resume").code, 0);
  ASSERT_EQ(run(kToy + " run " + yaml.string() + " --out " + out.string() + " --filter n=2").code,
            0);
  const auto now = nlohmann::json::parse(slurp(out / "context.json"));
  ASSERT_EQ(now.at("earlier_runs").size(), 2u) << now.dump(1);
  EXPECT_EQ(now["earlier_runs"][0], first) << "the first run's context, whole";
  EXPECT_EQ(now["earlier_runs"][1].value("resumed_cases", -1), 2);
  EXPECT_EQ(now.value("resumed_cases", -1), 4);
}

// 7. Only a new or empty folder, or one dpgpu made, is written into or moved.
TEST(ResultsIntegrity, OnlyANewEmptyOrDpgpuMadeFolderIsWrittenOrMoved) {
  e2e::TempDir d;
  fs::create_directories(d.path / "work/.git");
  d.write("work/.git/HEAD", "ref: refs/heads/main\n");
  d.write("work/source.cpp", "int main() {}\n");
  auto yaml = d.write("work/e.yaml", toy_sweep("owned", "[1]", "0", 1));
  const auto before = snapshot(d.path / "work");
  for (std::string flags : {"", " --fresh", " --resume"}) {
    auto r =
        run("cd " + (d.path / "work").string() + " && " + kToy + " run e.yaml --out ." + flags);
    EXPECT_EQ(r.code, 2) << flags << r.output;
    EXPECT_NE(r.output.find("holds files dpgpu did not write"), std::string::npos) << r.output;
  }
  EXPECT_EQ(snapshot(d.path / "work"), before) << "nothing moved or written";
  auto root = run(kToy + " run " + yaml.string() + " --out / --fresh");
  EXPECT_EQ(root.code, 2) << root.output;
  fs::create_directories(d.path / "empty");
  EXPECT_EQ(run(kToy + " run " + yaml.string() + " --out " + (d.path / "empty").string()).code, 0);
  EXPECT_TRUE(fs::exists(d.path / "empty/.dpgpu-results"));
  auto again =
      run(kToy + " run " + yaml.string() + " --out " + (d.path / "empty").string() + " --fresh");
  EXPECT_EQ(again.code, 0) << again.output << "a folder dpgpu made may be moved aside";
}

// 4. --fresh never moves a folder a running dpgpu holds; merge --fresh never moves its inputs.
TEST(ResultsIntegrity, FreshNeverMovesAFolderInUse) {
  e2e::TempDir d;
  auto quick = d.write("q.yaml", toy_sweep("inuse", "[1]", "0", 1));
  auto slow = d.write("s.yaml", toy_sweep("inuse", "[1, 2]", "300", 1));
  const auto parent = d.path / "parent";
  ASSERT_EQ(run(kToy + " run " + quick.string() + " --out " + parent.string()).code, 0);
  const auto shard = parent / "shard-0-of-2";
  pid_t pid =
      start({"run", slow.string(), "--shard", "0/2", "--out", shard.string()}, d.path / "log.txt");
  ASSERT_TRUE(wait_for([&] { return fs::exists(shard / ".dpgpu-run"); }, 20));
  auto r = run(kToy + " run " + quick.string() + " --out " + parent.string() + " --fresh");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("in use by a running dpgpu"), std::string::npos) << r.output;
  EXPECT_EQ(wait_exit(pid), 0) << slurp(d.path / "log.txt");
  EXPECT_TRUE(fs::exists(shard / "summary.csv"));
  // merge --into P --fresh with its inputs inside P.
  ASSERT_EQ(run(kToy + " run " + slow.string() + " --shard 1/2 --out " +
                (parent / "shard-1-of-2").string())
                .code,
            0);
  const auto before = snapshot(parent);
  auto m = run(kToy + " merge " + shard.string() + " " + (parent / "shard-1-of-2").string() +
               " --into " + parent.string() + " --fresh");
  EXPECT_EQ(m.code, 2) << m.output;
  EXPECT_NE(m.output.find("inside --into"), std::string::npos) << m.output;
  EXPECT_EQ(snapshot(parent), before);
}

// 13. A --filter that matches only other shards' cases is exit 2, nothing written.
TEST(ResultsIntegrity, AFilterMatchingOnlyOtherShardsIsExitTwo) {
  e2e::TempDir d;
  auto yaml = d.write("e.yaml", toy_sweep("fshard", "[1, 2, 3]", "0", 1));
  int refused = 0;
  for (int k = 0; k < 2; ++k) {
    const auto out = d.path / ("s" + std::to_string(k));
    auto r = run(kToy + " run " + yaml.string() + " --shard " + std::to_string(k) + "/2 --out " +
                 out.string() + " --filter 'n=1]#1/cpu.right'");
    if (r.code == 2) {
      ++refused;
      EXPECT_NE(r.output.find("none of them in shard"), std::string::npos) << r.output;
      EXPECT_FALSE(fs::exists(out)) << "nothing written";
    } else {
      EXPECT_EQ(r.code, 0) << r.output;
    }
  }
  EXPECT_EQ(refused, 1) << "the case is in one shard; the other refuses";
}

// 18. Command-line errors are exit 2 with a short message (not CLI11's 104-114).
TEST(ResultsIntegrity, CommandLineErrorsAreExitTwoWithAShortMessage) {
  for (std::string args :
       {"run x.yaml --bogus", "run", "run x.yaml --repetitions", "run x.yaml --repetitions 0",
        "run x.yaml --max-cases -3", "check x.yaml --shards 0", "", "nosuch"}) {
    auto r = run(kToy + " " + args);
    EXPECT_EQ(r.code, 2) << args << ": " << r.output;
    EXPECT_LT(r.output.size(), 400u) << args << ": " << r.output;
    EXPECT_EQ(r.output.find("1797"), std::string::npos) << r.output;
  }
  EXPECT_EQ(run(kToy + " run --help").code, 0);
}

// 20. SIGHUP (a dropped ssh session) stops like SIGTERM: after the case, with the resume
// command; exit 129.
TEST(ResultsIntegrity, SighupStopsLikeSigtermAndSaysHowToResume) {
  e2e::TempDir d;
  auto yaml = d.write("s.yaml", toy_sweep("hup", "[1, 2, 3]", "150", 1));
  const auto out = d.path / "out";
  pid_t pid = start({"run", yaml.string(), "--out", out.string()}, d.path / "log.txt");
  ASSERT_TRUE(wait_for([&] { return lines_of(out / "journal.jsonl").size() >= 1; }, 20));
  kill(pid, SIGHUP);
  EXPECT_EQ(wait_exit(pid), 129) << slurp(d.path / "log.txt");
  EXPECT_NE(slurp(d.path / "log.txt").find("--resume"), std::string::npos);
  EXPECT_EQ(read_csv(out / "summary.csv").size(), lines_of(out / "journal.jsonl").size());
  ASSERT_EQ(run(kToy + " run " + yaml.string() + " --out " + out.string() + " --resume").code, 0);
  expect_whole(out, 6, 1);
}

// 23. Agreement with the instance's other solvers is named as the check (`agreed`); n/a
// only where nothing checked the answer.
TEST(ResultsIntegrity, AgreementIsNamedAsTheCheck) {
  e2e::TempDir d;
  auto both =
      d.write("b.yaml",
              "name: agree\nproblem: toy_doubled\ninstances:\n  - generator: half\n    params: {n: "
              "[4, 5]}\n"
              "solvers:\n  - cpu.double_length\n  - cpu.double\nrepetitions: 2\nwarmup: 0\n");
  ASSERT_EQ(run(kToy + " run " + both.string() + " --out " + (d.path / "b").string()).code, 0);
  for (auto file : {"runs.csv", "summary.csv"})
    for (auto& row : read_csv(d.path / "b" / file))
      EXPECT_EQ(row.at("valid"), row.at("solver") == "cpu.double" ? "true" : "agreed") << file;
  auto alone = d.write(
      "a.yaml",
      "name: alone\nproblem: toy_doubled\ninstances:\n  - generator: half\n    params: {n: 4}\n"
      "solvers:\n  - cpu.double_length\nrepetitions: 2\nwarmup: 0\n");
  ASSERT_EQ(run(kToy + " run " + alone.string() + " --out " + (d.path / "a").string()).code, 0);
  for (auto& row : read_csv(d.path / "a/summary.csv")) EXPECT_EQ(row.at("valid"), "n/a");
}

// 3. An instance file whose content changed refuses --resume, naming the file; two files of
// one name in two folders are an error naming both.
TEST(ResultsIntegrity, AChangedInstanceFileRefusesResume) {
  e2e::TempDir d;
  d.write("p.fa", ">a\nACGTACGT\n>b\nACGGTT\n");
  auto yaml = d.write("e.yaml",
                      "name: changed\nproblem: lcs\ninstances:\n  - file: p.fa\nsolvers:\n"
                      "  - name: cpu.linear\nrepetitions: 1\nwarmup: 0\n");
  const auto out = d.path / "out";
  ASSERT_EQ(run(kDpgpu + " run " + yaml.string() + " --out " + out.string()).code, 0);
  ASSERT_EQ(run(kDpgpu + " run " + yaml.string() + " --out " + out.string() + " --resume").code, 0)
      << "unchanged";
  d.write("p.fa", ">a\nACGTACGT\n>b\nTTTTTT\n");
  const auto before = snapshot(out);
  auto r = run(kDpgpu + " run " + yaml.string() + " --out " + out.string() + " --resume");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("instance file " + fs::absolute(d.path / "p.fa").string() + " changed"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(snapshot(out), before);
  fs::create_directories(d.path / "x");
  fs::create_directories(d.path / "y");
  d.write("x/s.fa", ">a\nACGT\n>b\nAGT\n");
  d.write("y/s.fa", ">a\nCCGT\n>b\nAGT\n");
  auto two =
      d.write("two.yaml",
              "name: two\nproblem: lcs\ninstances:\n  - file: x/s.fa\n  - file: y/s.fa\nsolvers:\n"
              "  - name: cpu.linear\n");
  auto c = run(kDpgpu + " check " + two.string());
  EXPECT_EQ(c.code, 2) << c.output;
  EXPECT_NE(c.output.find("x/s.fa"), std::string::npos) << c.output;
  EXPECT_NE(c.output.find("y/s.fa"), std::string::npos) << c.output;
}

// 15. An instance path that is a FIFO (or a folder) is refused at once, not read forever.
TEST(ResultsIntegrity, AFifoInstanceIsRefusedAtOnce) {
  e2e::TempDir d;
  ASSERT_EQ(mkfifo((d.path / "pipe.fa").c_str(), 0644), 0);
  fs::create_directories(d.path / "dir.fa");
  for (std::string name : {"pipe.fa", "dir.fa"}) {
    const std::string says = name == "pipe.fa" ? "is not a regular file" : "is a folder";
    auto yaml = d.write("e.yaml", "name: fifo\nproblem: lcs\ninstances:\n  - file: " + name +
                                      "\nsolvers:\n  - name: cpu.linear\n");
    auto r = run("timeout 20 " + kDpgpu + " check " + yaml.string());
    EXPECT_EQ(r.code, 2) << name << ": " << r.output;
    EXPECT_NE(r.output.find(says), std::string::npos) << r.output;
  }
}

// 9. A `max:` key that names no size or parameter of the instances is an error naming the
// ones that exist, not a cap that silently never applies.
TEST(ResultsIntegrity, AnUnknownMaxKeyIsAnErrorNamingTheKeysThatExist) {
  e2e::TempDir d;
  auto yaml =
      d.write("e.yaml",
              "name: cap\nproblem: toy\ninstances:\n  - generator: count\n    params: {n: [1, 2]}\n"
              "solvers:\n  - name: cpu.right\n    max: {N: 1}\n");
  auto r = run(kToy + " check " + yaml.string());
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("max: 'N' is no size or parameter"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("they have: n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("e.yaml:8:"), std::string::npos) << "the key itself: " << r.output;
  auto fixed =
      d.write("f.yaml",
              "name: cap\nproblem: toy\ninstances:\n  - generator: count\n    params: {n: [1, 2]}\n"
              "solvers:\n  - name: cpu.right\n    max: {n: 1}\n");
  auto ok = run(kToy + " run " + fixed.string() + " --out " + (d.path / "out").string());
  EXPECT_EQ(ok.code, 0) << ok.output;
  EXPECT_NE(e2e::slurp(d.path / "out/summary.csv").find("above this solver's max n=1"),
            std::string::npos);
}

// 6. A rerun removes only the figures dpgpu drew (named in figures/.dpgpu-figures), never a
// file of the user's in figures/.
TEST(ResultsIntegrity, ARerunRemovesOnlyTheFiguresDpgpuDrew) {
  e2e::TempDir d;
  auto yaml = d.write("e.yaml", toy_sweep("figs", "[1, 2]", "0", 1));
  const auto out = d.path / "out";
  ASSERT_EQ(run(kToy + " run " + yaml.string() + " --out " + out.string()).code, 0);
  fs::create_directories(out / "figures");
  d.write("out/figures/speedup.png", "drawn by dpgpu plot");
  d.write("out/figures/.dpgpu-figures", "speedup.png\n");
  d.write("out/figures/my-notes.txt", "the user's own");
  auto r = run(kToy + " run " + yaml.string() + " --out " + out.string() + " --filter n=1");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_FALSE(fs::exists(out / "figures/speedup.png")) << r.output;
  EXPECT_EQ(slurp(out / "figures/my-notes.txt"), "the user's own");
  EXPECT_NE(r.output.find("redraw"), std::string::npos) << r.output;
}

namespace {

// The journal's records by case id (each line parsed; "rerun" dropped), for comparing.
std::map<std::string, nlohmann::json> records_of(const fs::path& journal) {
  std::map<std::string, nlohmann::json> out;
  for (auto& line : lines_of(journal)) {
    auto j = nlohmann::json::parse(line);
    j.erase("rerun");
    j.erase("check");  // a record rewritten with its rerun key has another checksum
    out.emplace(j.at("case_id").get<std::string>(), j);
  }
  return out;
}

// runs.csv and summary.csv hold exactly the journal's records: every repetition's time.
void expect_derived_agree(const fs::path& out) {
  const auto journal = records_of(out / "journal.jsonl");
  std::map<std::string, std::vector<std::string>> times;
  for (auto& r : read_csv(out / "runs.csv")) times[r.at("case_id")].push_back(r.at("time_s"));
  ASSERT_EQ(times.size(), journal.size());
  for (auto& [id, rec] : journal) {
    std::vector<std::string> expected;
    for (auto& rep : rec["result"]["reps"]) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.9g", rep["time_s"].get<double>());
      expected.push_back(buf);
    }
    EXPECT_EQ(times[id], expected) << id;
  }
  std::set<std::string> summary;
  for (auto& r : read_csv(out / "summary.csv")) summary.insert(r.at("case_id"));
  EXPECT_EQ(summary.size(), journal.size());
}

}  // namespace

// The journal, damaged at random: cut at a random byte, a garbage line, a duplicated line
// (a later copy with other times), or a file of the folder deleted; each followed by
// --resume. Every (case, repetition) ends up once, every record that stayed readable is
// kept as it was (not measured again), and the derived files agree with the journal.
TEST(ResultsIntegrity, JournalPropertyDamageThenResumeLosesNoReadableRecord) {
  e2e::TempDir d;
  auto yaml = d.write("e.yaml", toy_sweep("prop", "[1, 2, 3, 4, 5, 6]", "0", 2));
  const auto out = d.path / "out";
  ASSERT_EQ(run(kToy + " run " + yaml.string() + " --out " + out.string()).code, 0);
  std::mt19937 rng(30);
  const char* files[] = {"journal.jsonl",  "runs.csv",     "summary.csv",
                         "benchmark.json", "context.json", "plan.json"};
  for (int trial = 0; trial < 24; ++trial) {
    const auto before = records_of(out / "journal.jsonl");
    std::string text = slurp(out / "journal.jsonl");
    auto lines = lines_of(out / "journal.jsonl");
    std::set<std::string> readable;  // case ids whose line stays whole
    for (auto& [id, rec] : before) readable.insert(id);
    const int kind = trial % 4;
    std::string what;
    if (kind == 0) {
      const std::size_t cut = std::uniform_int_distribution<std::size_t>(0, text.size())(rng);
      std::ofstream(out / "journal.jsonl", std::ios::trunc) << text.substr(0, cut);
      std::size_t whole = 0;
      for (std::size_t pos = 0; pos < lines.size() && whole + lines[pos].size() + 1 <= cut; ++pos)
        whole += lines[pos].size() + 1;
      for (auto& l : lines)  // lines beyond the last whole one are no longer readable
        if (text.find(l + "\n") + l.size() + 1 > whole)
          readable.erase(nlohmann::json::parse(l).at("case_id"));
      what = "cut at byte " + std::to_string(cut);
    } else if (kind == 1) {
      const auto at = std::uniform_int_distribution<std::size_t>(0, lines.size())(rng);
      lines.insert(lines.begin() + long(at), "{\"case_id\": \"garbage\", \"result\": {\x01");
      write_lines(out / "journal.jsonl", lines);
      what = "garbage line at " + std::to_string(at + 1);
    } else if (kind == 2) {
      const auto which = std::uniform_int_distribution<std::size_t>(0, lines.size() - 1)(rng);
      auto copy = nlohmann::json::parse(lines[which]);
      copy.erase("check");  // a line as dpgpu wrote it before checksums
      for (auto& rep : copy["result"]["reps"]) rep["time_s"] = 42.0;
      const auto at = std::uniform_int_distribution<std::size_t>(which + 1, lines.size())(rng);
      lines.insert(lines.begin() + long(at), copy.dump());
      write_lines(out / "journal.jsonl", lines);
      what = "line " + std::to_string(which + 1) + " duplicated at " + std::to_string(at + 1);
    } else {
      const std::string file = files[std::uniform_int_distribution<int>(0, 5)(rng)];
      fs::remove(out / file);
      if (file == "journal.jsonl") readable.clear();
      what = "deleted " + file;
    }
    auto r = run(kToy + " run " + yaml.string() + " --out " + out.string() + " --resume");
    if (what == "deleted plan.json") {  // a journal of no known plan: refused, nothing changed
      EXPECT_EQ(r.code, 2) << r.output;
      ASSERT_EQ(run(kToy + " run " + yaml.string() + " --out " + out.string() + " --fresh").code,
                0);
      continue;
    }
    ASSERT_EQ(r.code, 0) << "trial " << trial << " (" << what << "): " << r.output;
    expect_whole(out, 12, 2);
    expect_derived_agree(out);
    const auto after = records_of(out / "journal.jsonl");
    for (auto& id : readable)
      EXPECT_EQ(after.at(id), before.at(id)) << "trial " << trial << " (" << what << "): " << id;
  }
}

// 16. A filter that backtracks exponentially in a backtracking engine is matched in
// polynomial time: the whole plan in well under a second, not minutes.
TEST(ResultsIntegrity, ABacktrackingFilterIsMatchedInPolynomialTime) {
  e2e::TempDir d;
  auto yaml = d.write("e.yaml", toy_sweep("regex", "[1, 2, 3, 4, 5, 6, 7, 8]", "0", 1));
  const auto t0 = std::chrono::steady_clock::now();
  auto r = run("timeout 60 " + kToy + " run " + yaml.string() +
               " --dry-run --filter '(.*)*(.*)*(.*)*zzz'");
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("matches none of the 16 cases"), std::string::npos) << r.output;
  EXPECT_LT(s, 10.0);
  auto ok = run(kToy + " run " + yaml.string() + " --dry-run --filter '(.*)*n=[23].*bare'");
  EXPECT_EQ(ok.code, 0) << ok.output;
  auto backref = run(kToy + " run " + yaml.string() + " --dry-run --filter '(n)\\1'");
  EXPECT_EQ(backref.code, 2) << backref.output;
}

// 8. Derived files older than the journal (a run killed before rewriting them) are rebuilt
// from it before report, compare or plot read them; a folder a run holds is left alone.
TEST(ResultsIntegrity, ReadersRebuildDerivedFilesOlderThanTheJournal) {
  e2e::TempDir d;
  auto yaml = d.write("e.yaml", toy_sweep("stale", "[1, 2]", "0", 1));
  const auto out = d.path / "out";
  ASSERT_EQ(run(kToy + " run " + yaml.string() + " --out " + out.string() + " --filter n=1").code,
            0);
  std::map<std::string, std::string> early;
  for (auto f : {"runs.csv", "summary.csv", "benchmark.json"}) early[f] = slurp(out / f);
  ASSERT_EQ(run(kToy + " run " + yaml.string() + " --out " + out.string() + " --resume").code, 0);
  const std::string whole = slurp(out / "summary.csv");
  // As a kill -9 right after the last commits leaves it: the journal ahead of the outputs.
  for (auto& [f, text] : early) {
    std::ofstream(out / f, std::ios::trunc) << text;
    fs::last_write_time(out / f,
                        fs::last_write_time(out / "journal.jsonl") - std::chrono::seconds(5));
  }
  ASSERT_EQ(read_csv(out / "summary.csv").size(), 2u);
  auto r =
      run(kToy + " plot " + out.string() + " --list");  // exit code: whether Python can plot here
  EXPECT_NE(r.output.find("rebuilt from its 4 records"), std::string::npos) << r.output;
  EXPECT_EQ(slurp(out / "summary.csv"), whole);
  expect_whole(out, 4, 1);
  auto again = run(kToy + " plot " + out.string() + " --list");
  EXPECT_EQ(again.output.find("rebuilt"), std::string::npos) << "up to date now: " << again.output;
}

// No file of `dir` (recursively) is a temporary file a failed write left behind.
static void expect_no_temporary_files(const fs::path& dir) {
  for (auto& e : fs::recursive_directory_iterator(dir))
    EXPECT_NE(e.path().extension(), ".tmp") << e.path();
}

// 17. The results folder moved away mid-run: a clear message naming it, exit 1, nothing
// half-written; moved back, --resume completes it.
TEST(ResultsIntegrity, AFolderMovedMidRunStopsWithAClearMessage) {
  e2e::TempDir d;
  auto yaml = d.write("e.yaml", toy_sweep("moved", "[1, 2, 3]", "150", 1));
  const auto out = d.path / "out", away = d.path / "away";
  pid_t pid = start({"run", yaml.string(), "--out", out.string()}, d.path / "log.txt");
  ASSERT_TRUE(wait_for([&] { return lines_of(out / "journal.jsonl").size() >= 1; }, 20));
  fs::rename(out, away);
  EXPECT_EQ(wait_exit(pid), 1) << slurp(d.path / "log.txt");
  const std::string log = slurp(d.path / "log.txt");
  EXPECT_NE(log.find("was moved or deleted during the run"), std::string::npos) << log;
  EXPECT_NE(log.find("--resume"), std::string::npos) << log;
  EXPECT_EQ(log.find("filesystem error"), std::string::npos) << log;
  expect_no_temporary_files(away);
  fs::rename(away, out);
  auto r = run(kToy + " run " + yaml.string() + " --out " + out.string() + " --resume");
  ASSERT_EQ(r.code, 0) << r.output;
  expect_whole(out, 6, 1);
}

// 19. A write that fails (here a file size limit, as a full disk would): one message with
// the folder, the bytes and the resume command; exit 1; no temporary file left.
TEST(ResultsIntegrity, AFailedWriteIsExitOneWithTheResumeCommandAndNoTemporaryFile) {
  e2e::TempDir d;
  auto yaml = d.write("e.yaml", toy_sweep("full", "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10]", "0", 3));
  const auto out = d.path / "out";
  auto r = run("ulimit -f 12; " + kToy + " run " + yaml.string() + " --out " + out.string());
  EXPECT_EQ(r.code, 1) << r.output;
  EXPECT_NE(r.output.find("bytes)"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("cases committed before it are kept"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("--out " + out.string() + " --resume"), std::string::npos) << r.output;
  expect_no_temporary_files(out);
  auto resumed = run(kToy + " run " + yaml.string() + " --out " + out.string() + " --resume");
  ASSERT_EQ(resumed.code, 0) << resumed.output;
  expect_whole(out, 20, 3);
}
