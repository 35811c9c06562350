// Results you can stake a paper on, round 4 (issue 35): what still mixed, lost or overwrote
// data, each as a test through the real binaries. The item's number is in each comment.
#include <gtest/gtest.h>
#include <signal.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <map>
#include <random>
#include <regex>
#include <set>
#include <thread>

#include <nlohmann/json.hpp>

#include "e2e_support.hpp"
#include "results/folder_lock.hpp"
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

std::vector<std::string> lines_of(const fs::path& p) {
  std::vector<std::string> out;
  std::istringstream in(slurp(p));
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

void write_text(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::trunc | std::ios::binary) << text;
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (auto& l : lines) out += l + "\n";
  return out;
}

std::vector<fs::path> named(const fs::path& dir, const std::string& prefix) {
  std::vector<fs::path> out;
  for (auto& e : fs::directory_iterator(dir))
    if (e.path().filename().string().rfind(prefix, 0) == 0) out.push_back(e.path());
  return out;
}

// (case, rep) -> time_s of runs.csv.
std::map<std::pair<std::string, std::string>, std::string> times_of(const fs::path& runs) {
  std::map<std::pair<std::string, std::string>, std::string> out;
  for (auto& r : read_csv(runs)) out[{r.at("case_id"), r.at("rep")}] = r.at("time_s");
  return out;
}

std::string run_toy(const fs::path& yaml, const fs::path& out, const std::string& flags,
                    int expect = 0) {
  auto r = run(kToy + " run " + yaml.string() + " --out " + out.string() + " " + flags);
  EXPECT_EQ(r.code, expect) << flags << "\n" << r.output;
  return r.output;
}

}  // namespace

// 7. A whole last record without its newline is a record: kept, not measured again, and the
// journal is not rewritten (only its newline is added).
TEST(ResultsTrust, AWholeLastRecordWithoutNewlineIsKept) {
  e2e::TempDir d;
  auto yaml = d.write("e.yaml", toy_sweep("nonl", "[1, 2, 3]", "0", 2));
  const auto out = d.path / "out";
  run_toy(yaml, out, "");
  const std::string runs = slurp(out / "runs.csv"), journal = slurp(out / "journal.jsonl");
  write_text(out / "journal.jsonl", journal.substr(0, journal.size() - 1));
  const std::string said = run_toy(yaml, out, "--resume");
  EXPECT_EQ(slurp(out / "runs.csv"), runs) << "nothing measured again: " << said;
  EXPECT_EQ(slurp(out / "journal.jsonl"), journal);
  EXPECT_TRUE(named(out, "journal.damaged-").empty());
}

// 7. A last line cut short is left out, and the journal as it was is kept beside.
TEST(ResultsTrust, ACutLastLineIsKeptAsADamagedCopy) {
  e2e::TempDir d;
  auto yaml = d.write("e.yaml", toy_sweep("cut", "[1, 2]", "0", 1));
  const auto out = d.path / "out";
  run_toy(yaml, out, "");
  const std::string journal = slurp(out / "journal.jsonl");
  const std::string cut = journal.substr(0, journal.size() - 30);
  write_text(out / "journal.jsonl", cut);
  const std::string said = run_toy(yaml, out, "--resume");
  EXPECT_NE(said.find("cut short"), std::string::npos) << said;
  auto kept = named(out, "journal.damaged-");
  ASSERT_EQ(kept.size(), 1u) << said;
  EXPECT_EQ(slurp(kept[0]), cut);
  EXPECT_EQ(lines_of(out / "journal.jsonl").size(), 4u);
}

// 8. One flipped bit in a number is caught by the line's checksum: the record is set aside
// (kept in journal.damaged-*) and its case measured again, never read as another time.
TEST(ResultsTrust, AFlippedBitIsSetAsideNotRead) {
  e2e::TempDir d;
  auto yaml = d.write("e.yaml", toy_sweep("flip", "[1, 2, 3]", "0", 2));
  const auto out = d.path / "out";
  run_toy(yaml, out, "");
  auto lines = lines_of(out / "journal.jsonl");
  const std::size_t at = lines[2].find("\"time_s\":") + 9;
  ASSERT_TRUE(std::isdigit(static_cast<unsigned char>(lines[2][at]))) << lines[2].substr(at, 20);
  const std::string id = nlohmann::json::parse(lines[2]).at("case_id");
  lines[2][at] = char(lines[2][at] ^ 1);  // 8 <-> 9, 2 <-> 3, ...
  write_text(out / "journal.jsonl", joined(lines));
  const auto before = times_of(out / "runs.csv");
  const std::string said = run_toy(yaml, out, "--resume");
  EXPECT_NE(said.find("1 unreadable line (3) (line 3: checksum mismatch)"), std::string::npos)
      << said;
  ASSERT_EQ(named(out, "journal.damaged-").size(), 1u);
  const auto after = times_of(out / "runs.csv");
  ASSERT_EQ(after.size(), before.size());
  for (auto& [key, t] : before)
    if (key.first != id) EXPECT_EQ(after.at(key), t) << key.first;
}

// 8. Values no measurement can have are set aside too, with or without a checksum; a journal
// from before checksums still reads, record for record.
TEST(ResultsTrust, ImplausibleValuesAreSetAsideAndOldJournalsStillRead) {
  e2e::TempDir d;
  auto yaml = d.write("e.yaml", toy_sweep("sane", "[1, 2, 3]", "0", 2));
  const auto out = d.path / "out";
  run_toy(yaml, out, "");
  const std::string runs = slurp(out / "runs.csv");
  const std::regex check(R"(,"check":"[0-9a-f]{16}"\})");
  auto lines = lines_of(out / "journal.jsonl");
  for (auto& l : lines) l = std::regex_replace(l, check, "}");  // as an older dpgpu wrote them
  write_text(out / "journal.jsonl", joined(lines));
  std::string said = run_toy(yaml, out, "--resume");
  EXPECT_EQ(slurp(out / "runs.csv"), runs) << "an old journal's records count: " << said;
  EXPECT_TRUE(named(out, "journal.damaged-").empty()) << said;
  const std::vector<std::function<void(nlohmann::json&)>> bad{
      [](nlohmann::json& j) { j["result"]["reps"][0]["time_s"] = -1.0; },
      [](nlohmann::json& j) { j["result"]["reps"][0]["time_s"] = 1e308; },
      [](nlohmann::json& j) { j["result"]["reps"] = nlohmann::json::array(); },
      [](nlohmann::json& j) { j["chesk"] = "0123456789abcdef"; }};  // a flipped key name
  for (std::size_t k = 0; k < bad.size(); ++k) {
    lines = lines_of(out / "journal.jsonl");
    auto j = nlohmann::json::parse(lines[1]);
    j.erase("check");
    ASSERT_EQ(j["result"]["status"], "ok");
    bad[k](j);
    lines[1] = j.dump();
    write_text(out / "journal.jsonl", joined(lines));
    said = run_toy(yaml, out, "--resume");
    EXPECT_NE(said.find("1 unreadable line (2)"), std::string::npos) << k << ": " << said;
    EXPECT_EQ(read_csv(out / "summary.csv").size(), 6u);
  }
}

// 4. A reader (plot, report, compare) given a folder with a damaged journal sets it aside as
// run --resume does: the damaged journal kept, the derived files holding the lost case kept,
// no row silently dropped.
TEST(ResultsTrust, AReaderSetsADamagedJournalAsideAndDropsNoRow) {
  e2e::TempDir d;
  auto yaml = d.write("e.yaml", toy_sweep("readers", "[1, 2, 3]", "0", 2));
  const auto out = d.path / "out";
  run_toy(yaml, out, "");
  const std::string runs = slurp(out / "runs.csv");
  auto lines = lines_of(out / "journal.jsonl");
  lines[2] = "garbled";
  write_text(out / "journal.jsonl", joined(lines));
  auto r = run(kToy + " plot " + out.string() + " --list");
  EXPECT_NE(r.output.find("1 unreadable line (3)"), std::string::npos) << r.output;
  ASSERT_EQ(named(out, "journal.damaged-").size(), 1u) << r.output;
  auto previous = named(out, "previous-");
  ASSERT_EQ(previous.size(), 1u) << r.output;
  EXPECT_EQ(slurp(previous[0] / "runs.csv"), runs) << "every row kept";
  EXPECT_EQ(read_csv(out / "runs.csv").size(), 10u);
}

// 9. Freshness is decided from content: copies, clones and `touch` rewrite nothing; a
// reader never rewrites a folder whose files already show its journal.
TEST(ResultsTrust, ReadersDecideFreshnessFromContentNotTimes) {
  e2e::TempDir d;
  auto yaml = d.write("e.yaml", toy_sweep("fresh", "[1, 2]", "0", 2));
  const auto out = d.path / "out";
  run_toy(yaml, out, "");
  for (auto f : {"runs.csv", "summary.csv", "benchmark.json"})
    fs::last_write_time(out / f,
                        fs::last_write_time(out / "journal.jsonl") - std::chrono::hours(1));
  const auto before = snapshot(out);
  auto r = run(kToy + " plot " + out.string() + " --list");
  EXPECT_EQ(r.output.find("rebuilt"), std::string::npos) << r.output;
  EXPECT_EQ(snapshot(out), before) << "nothing rewritten";
  fs::copy(out, d.path / "copy", fs::copy_options::recursive);  // new times, same content
  const auto copy = d.path / "copy";
  std::map<std::string, std::string> copied;
  for (auto f : {"runs.csv", "summary.csv", "benchmark.json", "journal.jsonl"})
    copied[f] = slurp(copy / f);
  fs::last_write_time(copy / "journal.jsonl", fs::file_time_type::clock::now());
  r = run(kToy + " report " + copy.string());  // writes its report; rewrites no derived file
  EXPECT_EQ(r.output.find("rebuilt"), std::string::npos) << r.output;
  for (auto& [f, text] : copied) EXPECT_EQ(slurp(copy / f), text) << f;
}

// 5. A user's plan.json does not make a folder dpgpu's: nothing overwritten, nothing moved.
TEST(ResultsTrust, AUsersPlanJsonDoesNotMakeTheFolderOurs) {
  e2e::TempDir d;
  auto yaml = d.write("e.yaml", toy_sweep("mine", "[1]", "0", 1));
  const auto mine = d.path / "mine";
  fs::create_directories(mine);
  d.write("mine/plan.json", "{\"chapters\": [1, 2]}\n");
  d.write("mine/thesis.tex", "\\documentclass{article}\n");
  const auto before = snapshot(mine);
  for (std::string flags : {"", "--fresh", "--resume"}) {
    const std::string said = run_toy(yaml, mine, flags, 2);
    EXPECT_NE(said.find("holds files dpgpu did not write"), std::string::npos) << said;
  }
  EXPECT_EQ(snapshot(mine), before);
}

// 6. benchmark.json as the only record left (journal and CSVs deleted) is never replaced.
TEST(ResultsTrust, TheLastCopyOfTheDataIsNeverReplaced) {
  e2e::TempDir d;
  auto yaml = d.write("e.yaml", toy_sweep("last", "[1, 2]", "0", 1));
  const auto out = d.path / "out";
  run_toy(yaml, out, "");
  for (auto f : {"journal.jsonl", "runs.csv", "summary.csv"}) fs::remove(out / f);
  const std::string bench = slurp(out / "benchmark.json");
  const std::string said = run_toy(yaml, out, "--resume", 2);
  EXPECT_NE(said.find("benchmark.json holds 4 cases"), std::string::npos) << said;
  EXPECT_EQ(slurp(out / "benchmark.json"), bench);
  EXPECT_FALSE(fs::exists(out / ".dpgpu-run"));
}

// 1. An instance file replaced during a run: the cases that build it afterwards fail, naming
// the file, instead of measuring the new file under the old sizes and work.
TEST(ResultsTrust, AnInstanceFileChangedDuringARunFailsItsLaterCases) {
  e2e::TempDir d;
  auto fasta = [](std::size_t n, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::string a, b;
    for (std::size_t i = 0; i < n; ++i) a += "ACGT"[rng() % 4], b += "ACGT"[rng() % 4];
    return ">a\n" + a + "\n>b\n" + b + "\n";
  };
  const auto file = d.write("pair.fa", fasta(6000, 1));
  auto yaml = d.write("f.yaml",
                      "name: changed\nproblem: lcs\ninstances:\n  - file: pair.fa\nsolvers:\n"
                      "  - cpu.linear\n  - cpu.hirschberg\n  - cpu.bitparallel\nrepetitions: 5\n"
                      "warmup: 0\n");
  const auto out = d.path / "out";
  const pid_t pid =
      scaleout::start(kDpgpu, {"run", yaml.string(), "--out", out.string()}, d.path / "log.txt");
  ASSERT_TRUE(scaleout::wait_for([&] { return lines_of(out / "journal.jsonl").size() >= 1; }, 60));
  write_text(d.path / "new.fa", fasta(600, 2));
  fs::rename(d.path / "new.fa", file);  // replaced whole, as an editor or a download does
  EXPECT_EQ(scaleout::wait_exit(pid), 1) << slurp(d.path / "log.txt");
  const auto summary = read_csv(out / "summary.csv");
  ASSERT_EQ(summary.size(), 3u);
  EXPECT_EQ(summary[0].at("status"), "ok");
  const auto& last = summary[2];
  EXPECT_EQ(last.at("status"), "error") << last.at("message");
  EXPECT_NE(last.at("message").find("pair.fa changed since the plan read it"), std::string::npos)
      << last.at("message");
  for (auto& row : read_csv(out / "runs.csv"))
    EXPECT_EQ(row.at("i.n"), "6000") << "no row measured the new file: " << row.at("case_id");
}

// 2. A --filter rerun stopped part-way (SIGINT: its resume command; kill -9: plan.json) is
// continued by --resume with its filter, until every case it selects is measured again.
TEST(ResultsTrust, AnInterruptedFilterRerunIsContinuedWithItsFilter) {
  e2e::TempDir d;
  auto yaml = d.write("e.yaml", toy_sweep("refilter", "[1, 2, 3]", "[300]", 1));
  const auto out = d.path / "out";
  run_toy(yaml, out, "");
  for (int sig : {SIGINT, SIGKILL}) {
    const auto first = times_of(out / "runs.csv");
    const std::size_t lines = lines_of(out / "journal.jsonl").size();
    const pid_t pid = scaleout::start(
        kToy, {"run", yaml.string(), "--out", out.string(), "--filter", "cpu.right"},
        d.path / "log.txt");
    ASSERT_TRUE(scaleout::wait_for([&] { return lines_of(out / "journal.jsonl").size() > lines; },
                                   30));  // one rerun
    ::kill(pid, sig);
    const int code = scaleout::wait_exit(pid);
    const std::string log = slurp(d.path / "log.txt");
    if (sig == SIGINT) {
      EXPECT_EQ(code, 130) << log;
      EXPECT_NE(log.find("--filter cpu.right"), std::string::npos) << "the hint keeps it: " << log;
    }
    const std::string said = run_toy(yaml, out, "--resume");
    EXPECT_NE(said.find("continuing the unfinished --filter 'cpu.right' rerun"), std::string::npos)
        << said;
    const auto now = times_of(out / "runs.csv");
    ASSERT_EQ(now.size(), 6u);
    for (auto& [key, t] : now)
      if (key.first.find("cpu.right") != std::string::npos)
        EXPECT_NE(t, first.at(key)) << key.first << ": every selected case measured again";
      else
        EXPECT_EQ(t, first.at(key)) << key.first << ": the others kept";
    EXPECT_EQ(slurp(out / "plan.json").find("unfinished_filter"), std::string::npos);
  }
}

// 3. --resume under other measuring conditions (isolation, lanes, OpenMP threads) is refused,
// saying which changed; under the same ones it continues. Random conditions, random order.
TEST(ResultsTrust, ResumeUnderOtherMeasuringConditionsIsRefused) {
  e2e::TempDir d;
  auto yaml = d.write("e.yaml", toy_sweep("conditions", "[1, 2]", "0", 1));
  struct Condition {
    std::string name, env, flags, says;
  };
  const std::vector<Condition> ways{{"as recorded", "", "", ""},
                                    {"isolate", "", "--set isolate=always", "isolate"},
                                    {"lanes", "", "--gpus all --cpu-workers 2", "lanes"},
                                    {"threads", "OMP_NUM_THREADS=1 ", "", "omp_threads"}};
  std::mt19937 rng(35);
  for (int trial = 0; trial < 6; ++trial) {
    const auto out = d.path / ("out" + std::to_string(trial));
    const Condition& then = ways[rng() % ways.size()];
    const Condition& now = ways[rng() % ways.size()];
    auto first = run(then.env + kToy + " run " + yaml.string() + " --out " + out.string() +
                     " --filter n=1 " + then.flags);
    ASSERT_EQ(first.code, 0) << then.name << ": " << first.output;
    const auto before = snapshot(out);
    auto r = run(now.env + kToy + " run " + yaml.string() + " --out " + out.string() +
                 " --resume " + now.flags);
    if (then.name == now.name) {
      EXPECT_EQ(r.code, 0) << then.name << ": " << r.output;
      EXPECT_EQ(read_csv(out / "summary.csv").size(), 4u);
      continue;
    }
    EXPECT_EQ(r.code, 2) << then.name << " then " << now.name << ": " << r.output;
    EXPECT_NE(r.output.find("measured under other conditions"), std::string::npos) << r.output;
    const std::string changed = now.says.empty() ? then.says : now.says;
    EXPECT_NE(r.output.find(changed + ":"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("--fresh"), std::string::npos) << r.output;
    EXPECT_EQ(snapshot(out), before) << "a refusal writes nothing";
  }
}

// 14. Signals ignored when dpgpu starts (nohup, a background job) stay ignored.
TEST(ResultsTrust, IgnoredSignalsStayIgnored) {
  e2e::TempDir d;
  auto yaml = d.write("e.yaml", toy_sweep("nohup", "[1, 2, 3]", "[200]", 1));
  const auto out = d.path / "out";
  const pid_t pid = scaleout::start(
      "/bin/sh",
      {"-c", "trap '' HUP INT; exec " + kToy + " run " + yaml.string() + " --out " + out.string()},
      d.path / "log.txt");
  ASSERT_TRUE(scaleout::wait_for([&] { return lines_of(out / "journal.jsonl").size() >= 1; }, 30));
  ::kill(pid, SIGHUP);
  ::kill(pid, SIGINT);
  EXPECT_EQ(scaleout::wait_exit(pid), 0) << slurp(d.path / "log.txt");
  EXPECT_EQ(read_csv(out / "summary.csv").size(), 6u);
}

// 17. --out '' is an error, not results/<name>; a user's previous-drafts/ makes a folder not
// empty; a disk-full start leaves no holder file and says how to continue.
TEST(ResultsTrust, FolderOddsAndEnds) {
  e2e::TempDir d;
  auto yaml = d.write("e.yaml", toy_sweep("odds", "[1]", "0", 1));
  auto empty = run("cd " + d.path.string() + " && " + kToy + " run e.yaml --out ''");
  EXPECT_EQ(empty.code, 2) << empty.output;
  EXPECT_NE(empty.output.find("--out ''"), std::string::npos) << empty.output;
  EXPECT_FALSE(fs::exists(d.path / "results"));
  fs::create_directories(d.path / "drafts/previous-drafts");
  d.write("drafts/previous-drafts/ch1.tex", "x\n");
  const auto before = snapshot(d.path / "drafts");
  for (std::string flags : {"", "--fresh"}) {
    const std::string said = run_toy(yaml, d.path / "drafts", flags, 2);
    EXPECT_NE(said.find("holds files dpgpu did not write"), std::string::npos) << said;
  }
  EXPECT_EQ(snapshot(d.path / "drafts"), before);
  // A file size limit (as a full disk) reached while the run starts.
  const auto small = d.path / "small";
  auto full = run("ulimit -f 1; " + kToy + " run " + yaml.string() + " --out " + small.string());
  EXPECT_EQ(full.code, 1) << full.output;
  EXPECT_NE(full.output.find("continue with:"), std::string::npos) << full.output;
  EXPECT_FALSE(fs::exists(small / ".dpgpu-run")) << full.output;
  for (auto& e : fs::directory_iterator(small)) EXPECT_NE(e.path().extension(), ".tmp");
}

// 17. The same during --resume's start-up: the derived files rebuilt from the journal, and a
// journal with a cut last line rewritten (its damaged copy set aside), under a file size
// limit. Each stops with the resume command and leaves no holder file or temporary file;
// the journal's readable records are all still there (the limit killed the run, SIGXFSZ,
// while it rewrote the journal, before signals were set up).
TEST(ResultsTrust, ADiskFullResumeStartSaysHowToContinue) {
  e2e::TempDir d;
  auto yaml = d.write("e.yaml", toy_sweep("fullresume", "[1, 2, 3, 4, 5, 6]", "0", 3));
  for (std::string damage : {"derived files removed", "last line cut"}) {
    SCOPED_TRACE(damage);
    const auto out = d.path / ("R-" + std::to_string(damage.size()));
    run_toy(yaml, out, "");
    const std::string journal = slurp(out / "journal.jsonl");
    ASSERT_GT(journal.size(), 8000u) << "the limit below must be smaller than the journal";
    if (damage == "last line cut") {
      write_text(out / "journal.jsonl", journal.substr(0, journal.size() - 200));
    } else {
      fs::remove(out / "summary.csv");
      fs::remove(out / "runs.csv");
    }
    auto full = run("ulimit -f 4; " + kToy + " run " + yaml.string() + " --out " + out.string() +
                    " --resume");
    EXPECT_EQ(full.code, 1) << full.output;
    EXPECT_NE(full.output.find("continue with:"), std::string::npos) << full.output;
    EXPECT_NE(full.output.find("--resume"), std::string::npos) << full.output;
    EXPECT_FALSE(fs::exists(out / ".dpgpu-run")) << full.output;
    for (auto& e : fs::directory_iterator(out)) EXPECT_NE(e.path().extension(), ".tmp") << e.path();
    const std::string kept = slurp(out / "journal.jsonl");
    const std::size_t whole = journal.rfind('\n', journal.size() - 201) + 1;
    EXPECT_EQ(kept.substr(0, whole), journal.substr(0, whole)) << "no readable record lost";
    // With room again, the printed command finishes the run.
    run_toy(yaml, out, "--resume");
    EXPECT_EQ(read_csv(out / "summary.csv").size(), 12u);
  }
}

namespace {

// A process that holds `dir`'s flock as a reader does (no holder file), for `hold_s` seconds
// or until destroyed.
struct LockingChild {
  pid_t pid = -1;
  LockingChild(const fs::path& dir, int hold_s) {
    int ready[2];
    EXPECT_EQ(::pipe(ready), 0);
    pid = ::fork();
    if (pid == 0) {
      const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
      if (fd < 0 || ::flock(fd, LOCK_EX) != 0) _exit(1);
      (void)!::write(ready[1], "x", 1);
      ::sleep(unsigned(hold_s));
      _exit(0);
    }
    ::close(ready[1]);
    char c = 0;
    EXPECT_EQ(::read(ready[0], &c, 1), 1) << "the child could not lock " << dir;
    ::close(ready[0]);
  }
  ~LockingChild() {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
  }
};

pid_t ended_pid() {
  const pid_t pid = ::fork();
  if (pid == 0) _exit(0);
  ::waitpid(pid, nullptr, 0);
  return pid;
}

}  // namespace

// 17. A reader's lock is not "another dpgpu run (holder unknown)": the refusal names the
// process that holds the lock, from /proc/locks, and says it is not a run writing results.
TEST(ResultsTrust, ALockedFolderNamesItsTrueHolder) {
  e2e::TempDir d;
  const auto dir = d.path / "R";
  fs::create_directories(dir);
  LockingChild reader(dir, 600);
  const dpgpu::FlockHolder held = dpgpu::flock_holder(dir);
  EXPECT_EQ(held.pid, reader.pid) << "/proc/locks names the lock's holder";
  EXPECT_FALSE(held.command.empty());
  EXPECT_EQ(dpgpu::flock_holder(d.path).pid, 0) << "an unlocked folder has no holder";
  const std::string dead = "pid " + std::to_string(ended_pid()) + ": dpgpu run old.yaml\n";
  const std::string live = "pid " + std::to_string(reader.pid) + ": dpgpu run e.yaml\n";
  EXPECT_EQ(dpgpu::holder_kind("", held), dpgpu::HolderKind::Reader);
  EXPECT_EQ(dpgpu::holder_kind(dead, held), dpgpu::HolderKind::Reader)
      << "a stale holder file does not make the reader a run";
  EXPECT_EQ(dpgpu::holder_kind(live, held), dpgpu::HolderKind::Run);
  EXPECT_EQ(dpgpu::holder_kind(dead, {}), dpgpu::HolderKind::EndedRun);
  const std::string said = dpgpu::lock_refusal(dir, "", held, 120);
  EXPECT_NE(said.find("pid " + std::to_string(reader.pid) + ": "), std::string::npos) << said;
  EXPECT_NE(said.find("not a dpgpu run writing results"), std::string::npos) << said;
  EXPECT_EQ(said.find("another dpgpu run"), std::string::npos) << said;
  EXPECT_EQ(said.find("holder unknown"), std::string::npos) << said;
  EXPECT_NE(dpgpu::lock_refusal(dir, live, held, 0).find("in use by another dpgpu run (pid "),
            std::string::npos);
}

// 17. A run waits for a reader's lock even where a killed run left its holder file: it used
// to wait 5 s for the dead run's children, then refuse, calling the reader that run.
TEST(ResultsTrust, ARunWaitsForAReaderDespiteAStaleHolderFile) {
  e2e::TempDir d;
  auto yaml = d.write("e.yaml", toy_sweep("readerlock", "[1, 2]", "0", 1));
  const auto out = d.path / "R";
  run_toy(yaml, out, "");
  write_text(out / ".dpgpu-run", "pid " + std::to_string(ended_pid()) + ": dpgpu run e.yaml\n");
  const auto start = std::chrono::steady_clock::now();
  LockingChild reader(out, 7);
  const std::string said = run_toy(yaml, out, "--resume");
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::seconds(6)) << said;
  EXPECT_EQ(said.find("in use by another dpgpu run"), std::string::npos) << said;
  EXPECT_FALSE(fs::exists(out / ".dpgpu-run")) << "the finished run removed its holder file";
}

namespace {

// The journal's records that parse, by case id (the checksum and rerun keys left out: a
// rewritten line may carry others).
std::map<std::string, nlohmann::json> parsed_records(const fs::path& journal) {
  std::map<std::string, nlohmann::json> out;
  for (auto& line : lines_of(journal)) {
    try {
      auto j = nlohmann::json::parse(line);
      j.erase("check"), j.erase("rerun");
      out[j.at("case_id").get<std::string>()] = j;
    } catch (const std::exception&) {
    }
  }
  return out;
}

// One random damage to the journal: a flipped bit, a cut, a lost final newline, a garbage
// line, or none. Returns the case ids whose line it touched ("*" for every later line).
std::set<std::string> damage(const fs::path& journal, std::mt19937& rng, std::string& what) {
  std::string text = slurp(journal);
  std::set<std::string> touched;
  if (text.empty()) return touched;
  auto id_at = [&](std::size_t byte) {
    const std::size_t start = text.rfind('\n', byte == 0 ? 0 : byte - 1);
    const std::size_t from = start == std::string::npos || byte == 0 ? 0 : start + 1;
    const std::size_t at = text.find("\"case_id\":\"", from);
    if (at != std::string::npos)
      touched.insert(text.substr(at + 11, text.find('"', at + 11) - at - 11));
  };
  switch (rng() % 5) {
    case 0: {
      const std::size_t byte = rng() % text.size();
      // Read before the flip: a flipped newline joins its line with the next one, whose
      // record is then damaged too (it failed a loaded CI-like run when read after).
      id_at(byte);
      if (text[byte] == '\n') id_at(byte + 1);
      text[byte] = char(text[byte] ^ (1 << (rng() % 8)));
      id_at(byte), id_at(byte + 1);  // a byte flipped into a newline splits its line
      what = "bit flipped at byte " + std::to_string(byte);
      break;
    }
    case 1: {
      const std::size_t keep = rng() % text.size();
      const std::size_t line = keep == 0 ? std::string::npos : text.rfind('\n', keep - 1);
      for (std::size_t at = text.find("\"case_id\":\"", line == std::string::npos ? 0 : line);
           at != std::string::npos; at = text.find("\"case_id\":\"", at + 1))
        id_at(at);  // the line cut and every one after it
      id_at(keep);
      text.resize(keep);
      what = "cut to " + std::to_string(keep) + " bytes";
      break;
    }
    case 2:
      if (text.back() == '\n') text.pop_back();
      what = "last newline lost";
      break;
    case 3:
      text.insert(text.find('\n') + 1, "{\"case_id\":\"x\",\"result\":{\x01}\n");
      what = "garbage line 2";
      break;
    default: what = "none";
  }
  write_text(journal, text);
  return touched;
}

}  // namespace

// Done-when of issue 35: random kills (SIGKILL, SIGINT, SIGTERM, at random moments), random
// damage to the journal and random readers in between, then --resume until done. Every
// (case, repetition) ends up once; each record neither killed nor damaged is kept as it was,
// never measured again; a damaged record is never read as data; outputs agree with the journal.
TEST(ResultsTrust, PropertyKillDamageReadResumeLosesAndMixesNothing) {
  e2e::TempDir d;
  auto yaml = d.write("e.yaml", toy_sweep("chaos", "[1, 2, 3, 4]", "[15]", 2));
  const auto out = d.path / "out";
  std::mt19937 rng(3500);
  const int signals[] = {SIGKILL, SIGINT, SIGTERM};
  for (int trial = 0; trial < 10; ++trial) {
    std::vector<std::string> args{"run", yaml.string(), "--out", out.string()};
    if (fs::exists(out / "plan.json")) args.push_back("--resume");
    const pid_t pid = scaleout::start(kToy, args, d.path / "log.txt");
    std::this_thread::sleep_for(std::chrono::milliseconds(rng() % 250));
    ::kill(pid, signals[rng() % 3]);
    scaleout::wait_exit(pid);
    const auto before = parsed_records(out / "journal.jsonl");
    std::string what;
    const std::set<std::string> touched = damage(out / "journal.jsonl", rng, what);
    if (rng() % 2) run(kToy + " plot " + out.string() + " --list");
    auto r = run(kToy + " run " + yaml.string() + " --out " + out.string() + " --resume");
    ASSERT_EQ(r.code, 0) << "trial " << trial << " (" << what << "): " << r.output;
    const auto after = parsed_records(out / "journal.jsonl");
    ASSERT_EQ(after.size(), 8u) << what;
    for (auto& [id, rec] : before)
      if (!touched.count(id))
        EXPECT_EQ(after.at(id), rec) << "trial " << trial << " (" << what << "): " << id;
    std::set<std::pair<std::string, std::string>> seen;
    const auto runs = read_csv(out / "runs.csv");
    for (auto& row : runs) EXPECT_TRUE(seen.insert({row.at("case_id"), row.at("rep")}).second);
    EXPECT_EQ(runs.size(), 16u) << what;
    for (auto& row : runs) {
      double t = 0;
      for (auto& rep : after.at(row.at("case_id"))["result"]["reps"])
        if (std::to_string(rep.at("rep").get<int>()) == row.at("rep")) t = rep.at("time_s");
      EXPECT_NEAR(std::stod(row.at("time_s")), t, 1e-8 * t + 1e-15) << row.at("case_id");
    }
    if (trial % 3 == 2) run_toy(yaml, out, "--fresh");  // start over now and then
  }
}

// 17. dpgpu merge on a folder a reader holds names the reader (pid and command), not "a
// dpgpu run (holder unknown)".
TEST(ResultsTrust, MergeNamesTheReaderHoldingAFolder) {
  e2e::TempDir d;
  auto yaml = d.write("e.yaml", toy_sweep("mergelock", "[1]", "0", 1));
  const auto out = d.path / "R";
  run_toy(yaml, out, "");
  LockingChild reader(out, 60);
  auto m = run(kToy + " merge " + out.string() + " --into " + (d.path / "M").string());
  EXPECT_EQ(m.code, 2) << m.output;
  EXPECT_NE(m.output.find("is in use by pid " + std::to_string(reader.pid) + ": "),
            std::string::npos)
      << m.output;
  EXPECT_EQ(m.output.find("holder unknown"), std::string::npos) << m.output;
}
