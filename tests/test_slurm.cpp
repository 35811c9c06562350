// `dpgpu slurm` without Slurm: the option checks, the scripts' text, and the scripts run
// by bash against a stand-in dpgpu that records its arguments (so what a task and the
// merge job would run is checked, not only their text). tests/slurm/ runs a real Slurm.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "dpgpu/error.hpp"
#include "e2e_support.hpp"
#include "scale/pinned_experiment.hpp"
#include "scale/slurm_options.hpp"
#include "scale/slurm_script.hpp"

namespace {

namespace fs = std::filesystem;
using dpgpu::InputError;
using e2e::slurp;
using e2e::TempDir;

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The message of the InputError that f throws ("" when it throws none).
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(SlurmOptions, TimeTakesSbatchFormsOnly) {
  for (const char* ok : {"90", "30:00", "2:00:00", "48:00:00", "1-12", "1-12:30", "2-00:00:00",
                         "UNLIMITED", "infinite"})
    EXPECT_NO_THROW(dpgpu::check_slurm_time(ok)) << ok;
  for (const char* bad : {"", "1h", "2:00:00:00", "1:75", "1:00:60", "1-24", "1-2:60", "-5", "0",
                          "0:00:00", "1.5", "2 hours", "1-", "1234567"})
    EXPECT_TRUE(contains(error_of([&] { dpgpu::check_slurm_time(bad); }),
                         "--time '" + std::string(bad) + "'"))
        << bad;
  EXPECT_TRUE(
      contains(error_of([] { dpgpu::check_slurm_time("1:75"); }), "seconds must be below 60"));
  EXPECT_TRUE(
      contains(error_of([] { dpgpu::check_slurm_time("1-24"); }), "hours must be below 24"));
  EXPECT_TRUE(contains(error_of([] { dpgpu::check_slurm_time("0"); }), "zero"));
}

TEST(SlurmOptions, GresCountsGpusPerTask) {
  auto gpus = [](const std::string& gres, const std::string& per_task = "") {
    dpgpu::SlurmResources r;
    r.gres = gres;
    r.gpus_per_task = per_task;
    return dpgpu::gpus_per_task(r);
  };
  EXPECT_EQ(gpus(""), 0);
  EXPECT_EQ(gpus("gpu:1"), 1);
  EXPECT_EQ(gpus("gpu"), 1);
  EXPECT_EQ(gpus("gpu:a100"), 1);
  EXPECT_EQ(gpus("gpu:a100:4"), 4);
  EXPECT_EQ(gpus("gpu:2,shard:1"), 2);  // another gres beside the GPUs
  EXPECT_EQ(gpus("mps:100"), 0);
  EXPECT_EQ(gpus("", "a100:2"), 2);
  EXPECT_EQ(gpus("", "3"), 3);
  for (const char* bad : {"gpu:0", "gpu:a100:x", "gpu:a:b:c", ":1", "gpu:1,", "gpu 1", "gpu:-1"})
    EXPECT_TRUE(contains(error_of([&] { gpus(bad); }), "--gres '" + std::string(bad) + "'")) << bad;
  EXPECT_TRUE(contains(error_of([&] { gpus("gpu:0"); }), "must be a whole number from 1"));
  EXPECT_TRUE(contains(error_of([&] { gpus("", "0"); }), "--gpus-per-task '0'"));
  EXPECT_TRUE(contains(error_of([&] { gpus("gpu:1", "1"); }), "give one of them"));
}

TEST(SlurmOptions, NamesAndCountsAreChecked) {
  dpgpu::SlurmResources r;
  r.partition = "gpu,gpu-long";
  r.account = "proj_1.a-b";
  EXPECT_NO_THROW(dpgpu::check_slurm_resources(r));
  r.partition = "gpu queue";
  EXPECT_TRUE(
      contains(error_of([&] { dpgpu::check_slurm_resources(r); }), "--partition 'gpu queue'"));
  r.partition = "";
  r.account = "a\n#SBATCH --x";  // would add an #SBATCH line of its own
  EXPECT_TRUE(contains(error_of([&] { dpgpu::check_slurm_resources(r); }), "--account"));
  r.account = "";
  r.cpus_per_task = -1;
  EXPECT_TRUE(contains(error_of([&] { dpgpu::check_slurm_resources(r); }), "--cpus-per-task -1"));
}

TEST(SlurmOptions, RunGpusCountWithinTheTask) {
  EXPECT_NO_THROW(dpgpu::check_run_gpus("", 0));
  EXPECT_NO_THROW(dpgpu::check_run_gpus("all", 2));
  EXPECT_NO_THROW(dpgpu::check_run_gpus("0,1", 2));
  EXPECT_NO_THROW(dpgpu::check_run_gpus("0,0", 1));  // two workers sharing one card
  EXPECT_TRUE(contains(error_of([] { dpgpu::check_run_gpus("all", 0); }), "the tasks get no GPU"));
  EXPECT_TRUE(contains(error_of([] { dpgpu::check_run_gpus("0,2", 2); }),
                       "GPU 2 is not among a task's 2 GPUs"));
  EXPECT_TRUE(
      contains(error_of([] { dpgpu::check_run_gpus("one", 1); }), "expected all or GPU indices"));
}

TEST(SlurmOptions, SbatchParsableJobId) {
  EXPECT_EQ(dpgpu::parse_sbatch_job_id("4711\n"), "4711");
  EXPECT_EQ(dpgpu::parse_sbatch_job_id("4711;cluster2\n"), "4711");
  EXPECT_TRUE(contains(error_of([] { dpgpu::parse_sbatch_job_id("Submitted batch job 4711\n"); }),
                       "not a job id"));
  EXPECT_TRUE(contains(error_of([] { dpgpu::parse_sbatch_job_id(""); }), "not a job id"));
}

TEST(SlurmScript, ShellQuoteKeepsWordsWhole) {
  EXPECT_EQ(dpgpu::shell_quote("/a/b-c_d.yaml"), "/a/b-c_d.yaml");
  EXPECT_EQ(dpgpu::shell_quote("a b"), "'a b'");
  EXPECT_EQ(dpgpu::shell_quote("it's"), "'it'\\''s'");
  EXPECT_EQ(dpgpu::shell_quote("$x"), "'$x'");
  EXPECT_EQ(dpgpu::shell_quote(""), "''");
  EXPECT_TRUE(
      contains(error_of([] { dpgpu::check_sbatch_path("/a b/c", "the job's folder (--out)"); }),
               "the job's folder (--out) '/a b/c': Slurm's #SBATCH lines cannot hold"));
  EXPECT_TRUE(contains(error_of([] { dpgpu::check_sbatch_path("/a%b", "x"); }), "x '/a%b'"));
  EXPECT_NO_THROW(dpgpu::check_sbatch_path("/scratch/u/results/x", "x"));
}

dpgpu::SlurmJob job_in(const fs::path& dir) {
  dpgpu::SlurmJob job;
  job.name = "lcs-small";
  job.shards = 4;
  job.dpgpu = dir / "fake-dpgpu";
  job.experiment = dir / "base/slurm/lcs small.yaml";  // a space: the script must quote it
  job.base = dir / "base";
  job.workdir = dir;
  return job;
}

TEST(SlurmScript, ArrayTextHasOneTaskPerShardResumingItsFolder) {
  dpgpu::SlurmJob job = job_in("/scratch/u");
  job.resources.partition = "gpu";
  job.resources.account = "proj";
  job.resources.time = "2:00:00";
  job.resources.gres = "gpu:2";
  job.resources.cpus_per_task = 8;
  job.resources.max_running = 2;
  job.run_gpus = "all";
  job.cpu_workers = 3;
  const std::string s = dpgpu::array_script_text(job);
  EXPECT_EQ(s.rfind("#!/bin/bash\n", 0), 0u);
  for (const char* line :
       {"#SBATCH --array=0-3%2\n", "#SBATCH --requeue\n", "#SBATCH --open-mode=append\n",
        "#SBATCH --output=/scratch/u/base/slurm/logs/shard-%a-of-4.out\n",
        "#SBATCH --error=/scratch/u/base/slurm/logs/shard-%a-of-4.err\n",
        "#SBATCH --partition=gpu\n", "#SBATCH --account=proj\n", "#SBATCH --time=2:00:00\n",
        "#SBATCH --gres=gpu:2\n", "#SBATCH --cpus-per-task=8\n", "#SBATCH --chdir=/scratch/u\n",
        "k=${SLURM_ARRAY_TASK_ID:?", "\nn=4\n",
        "\n/scratch/u/fake-dpgpu run '/scratch/u/base/slurm/lcs small.yaml' --shard \"$k/$n\" "
        "--out \"$out\" --resume "
        "--gpus all --cpu-workers 3\n",
        "out=/scratch/u/base/shard-$k-of-$n\n", "# GPUs: "})
    EXPECT_TRUE(contains(s, line)) << line << "\nnot in:\n" << s;
  // #SBATCH lines count only before the first command.
  EXPECT_LT(s.rfind("#SBATCH"), s.find("\nset -u\n"));

  dpgpu::SlurmJob cpu = job_in("/scratch/u");
  const std::string c = dpgpu::array_script_text(cpu);
  EXPECT_FALSE(contains(c, "--gres")) << c;
  EXPECT_FALSE(contains(c, "--partition")) << c;
  EXPECT_FALSE(contains(c, "# GPUs: ")) << c;
  EXPECT_FALSE(contains(c, "--gpus")) << c;
  EXPECT_TRUE(contains(c, "#SBATCH --array=0-3\n")) << c;
}

TEST(SlurmScript, MergeRunsAfterTheArrayWhateverItsEnd) {
  const dpgpu::SlurmJob job = job_in("/scratch/u");
  EXPECT_EQ(dpgpu::merge_sbatch_command(job, "812"),
            (std::vector<std::string>{"sbatch", "--parsable", "--dependency=afterany:812",
                                      "/scratch/u/base/slurm/merge.sbatch"}));
  EXPECT_EQ(
      dpgpu::array_sbatch_command(job),
      (std::vector<std::string>{"sbatch", "--parsable", "/scratch/u/base/slurm/array.sbatch"}));
  const std::string m = dpgpu::merge_script_text(job);
  EXPECT_TRUE(contains(m, "#SBATCH --output=/scratch/u/base/slurm/logs/merge.out\n")) << m;
  EXPECT_TRUE(contains(
      m,
      "exec /scratch/u/fake-dpgpu merge \"${shards[@]}\" --into /scratch/u/base/merged --fresh\n"))
      << m;
  EXPECT_FALSE(contains(m, "--gres")) << m;
  const std::string submit = dpgpu::submit_script_text(job);
  EXPECT_TRUE(contains(
      submit, "array=$(sbatch --parsable /scratch/u/base/slurm/array.sbatch | cut -d';' -f1)"));
  EXPECT_TRUE(
      contains(submit, "--dependency=afterany:\"$array\" /scratch/u/base/slurm/merge.sbatch"));
}

// The scripts, run by bash as Slurm would run them, against a stand-in dpgpu that writes its
// arguments (one a line) to args.txt and exits with $FAKE_RC.
struct ScriptRun : ::testing::Test {
  TempDir dir;
  dpgpu::SlurmJob job = job_in(dir.path);
  void SetUp() override {
    dir.write("fake-dpgpu",
              "#!/bin/bash\nprintf '%s\\n' \"$@\" > \"$(dirname \"$0\")/args.txt\"\nexit "
              "${FAKE_RC:-0}\n");
    fs::permissions(job.dpgpu, fs::perms::owner_exec, fs::perm_options::add);
    fs::create_directories(job.slurm_dir() / "logs");
    std::ofstream(job.array_script()) << dpgpu::array_script_text(job);
    std::ofstream(job.merge_script()) << dpgpu::merge_script_text(job);
  }
  std::string args() const { return slurp(dir.path / "args.txt"); }
  std::string status(int k) const {
    return slurp(job.slurm_dir() / fmt::format("status/shard-{}-of-4.exit", k));
  }
};

TEST_F(ScriptRun, BashAcceptsBothScripts) {
  EXPECT_EQ(e2e::run("bash -n " + job.array_script().string()).code, 0);
  EXPECT_EQ(e2e::run("bash -n " + job.merge_script().string()).code, 0);
  std::ofstream(job.submit_script()) << dpgpu::submit_script_text(job);
  EXPECT_EQ(e2e::run("sh -n " + job.submit_script().string()).code, 0);
}

TEST_F(ScriptRun, ATaskRunsItsShardAndRecordsItsExit) {
  auto ran = e2e::run("SLURM_ARRAY_TASK_ID=2 FAKE_RC=1 bash " + job.array_script().string());
  EXPECT_EQ(ran.code, 1) << ran.output;
  const std::string expected = fmt::format("run\n{}\n--shard\n2/4\n--out\n{}\n--resume\n",
                                           job.experiment.string(), job.shard_dir(2).string());
  EXPECT_EQ(args(), expected);
  EXPECT_EQ(status(2), "1\n");  // every case recorded, some failed: finished

  ran = e2e::run("SLURM_ARRAY_TASK_ID=3 FAKE_RC=143 bash " + job.array_script().string());
  EXPECT_EQ(ran.code, 143);
  EXPECT_EQ(status(3), "143\n");

  ran = e2e::run("env -u SLURM_ARRAY_TASK_ID bash " + job.array_script().string());
  EXPECT_NE(ran.code, 0);
  EXPECT_TRUE(contains(ran.output, "submit this script with sbatch")) << ran.output;
}

TEST_F(ScriptRun, MergeNamesUnfinishedShardsAndMergesNothing) {
  for (int k : {0, 2})
    e2e::run(fmt::format("SLURM_ARRAY_TASK_ID={} bash {}", k, job.array_script().string()));
  e2e::run(fmt::format("SLURM_ARRAY_TASK_ID=3 FAKE_RC=2 bash {}", job.array_script().string()));
  fs::remove(dir.path / "args.txt");
  auto ran = e2e::run("bash " + job.merge_script().string());
  EXPECT_EQ(ran.code, 1);
  EXPECT_FALSE(fs::exists(dir.path / "args.txt")) << "merge ran on unfinished shards";
  EXPECT_TRUE(contains(ran.output, "shard 1/4 did not finish (no exit code")) << ran.output;
  EXPECT_TRUE(contains(ran.output, "shard 3/4 did not finish (exit code 2)")) << ran.output;
  EXPECT_TRUE(contains(ran.output, "--array=1,3 " + job.array_script().string())) << ran.output;
}

TEST_F(ScriptRun, MergeMergesEveryShardOnceAllFinished) {
  for (int k = 0; k < 4; ++k)
    e2e::run(fmt::format("SLURM_ARRAY_TASK_ID={} FAKE_RC={} bash {}", k, k % 2,
                         job.array_script().string()));
  auto ran = e2e::run("bash " + job.merge_script().string());
  EXPECT_EQ(ran.code, 0) << ran.output;
  std::string expected = "merge\n";
  for (int k = 0; k < 4; ++k) expected += job.shard_dir(k).string() + "\n";
  expected += "--into\n" + job.merged_dir().string() + "\n--fresh\n";
  EXPECT_EQ(args(), expected);
}

TEST(PinnedExperiment, RelativeInstanceFilesBecomeAbsolute) {
  TempDir dir;
  fs::create_directories(dir.path / "exp/data");
  const std::string plain =
      "# comment kept\nname: g\nproblem: lcs\ninstances:\n  - generator: random\n"
      "    params: {n: [8, 16]}\nsolvers: [cpu.linear]\n";
  EXPECT_EQ(dpgpu::pinned_experiment_text(dir.write("exp/plain.yaml", plain)), plain);

  const fs::path files = dir.write("exp/files.yaml",
                                   "name: f\nparts:\n  - problem: lcs\n    instances:\n"
                                   "      - file: [data/a.fa, /abs/b.fa]\n      - file: ../c.txt\n"
                                   "    solvers: [{name: cpu.linear}]\n");
  const std::string pinned = dpgpu::pinned_experiment_text(files);
  const std::string data = (dir.path / "exp/data/a.fa").string();
  EXPECT_TRUE(contains(pinned, data)) << pinned;
  EXPECT_TRUE(contains(pinned, "/abs/b.fa")) << pinned;
  EXPECT_TRUE(contains(pinned, (dir.path / "c.txt").string())) << pinned;
  EXPECT_TRUE(contains(pinned, "name: f")) << pinned;
  EXPECT_EQ(pinned.rfind("# copy of " + files.string(), 0), 0u) << pinned;
}

// The command itself, with a stand-in sbatch on PATH that logs its arguments and answers
// like `sbatch --parsable` (job 101 with a cluster name, then 102).
struct SlurmCommand : ::testing::Test {
  TempDir dir;
  fs::path experiment;
  void SetUp() override {
    experiment = dir.write("small.yaml",
                           "name: small\nproblem: lcs\ninstances:\n  - generator: random\n"
                           "    params: {n: [8, 16, 32]}\nsolvers: [cpu.linear, cpu.hirschberg]\n"
                           "repetitions: 1\nwarmup: 0\n");
    fs::create_directories(dir.path / "bin");
    dir.write(
        "bin/sbatch",
        "#!/bin/sh\necho \"$*\" >> \"$(dirname \"$0\")/calls.txt\"\n"
        "n=$(wc -l < \"$(dirname \"$0\")/calls.txt\")\n"
        "[ -n \"$SBATCH_FAIL\" ] && { echo 'sbatch: error: invalid partition' >&2; exit 1; }\n"
        "[ \"$n\" = 1 ] && echo '101;cluster' || echo 102\n");
    fs::permissions(dir.path / "bin/sbatch", fs::perms::owner_exec, fs::perm_options::add);
  }
  e2e::Ran slurm(const std::string& args, const std::string& env = "") const {
    return e2e::run(fmt::format("cd {} && {} PATH={}:/usr/bin:/bin {} slurm {} {}",
                                dir.path.string(), env, (dir.path / "bin").string(), DPGPU_BIN,
                                experiment.string(), args));
  }
  std::string calls() const { return slurp(dir.path / "bin/calls.txt"); }
};

TEST_F(SlurmCommand, SubmitsTheArrayThenTheMergeAfterIt) {
  auto ran = slurm("--shards 4 --time 10 --submit");
  ASSERT_EQ(ran.code, 0) << ran.output;
  const fs::path base = dir.path / "results/small";
  EXPECT_EQ(calls(), fmt::format("--parsable {0}/slurm/array.sbatch\n"
                                 "--parsable --dependency=afterany:101 {0}/slurm/merge.sbatch\n",
                                 base.string()));
  EXPECT_TRUE(contains(ran.output, "submitted: array job 101 (4 tasks), merge job 102"))
      << ran.output;
  EXPECT_TRUE(contains(ran.output, "6 cases in 4 shards")) << ran.output;
  EXPECT_TRUE(contains(ran.output, "1-2 cases per shard")) << ran.output;
  EXPECT_TRUE(contains(slurp(base / "slurm/jobs.txt"), "array 101 merge 102"));
  EXPECT_EQ(slurp(base / "slurm/small.yaml"), slurp(experiment));  // the pinned copy
  const std::string array = slurp(base / "slurm/array.sbatch");
  EXPECT_TRUE(
      contains(array, fmt::format("{} run {}/slurm/small.yaml --shard", DPGPU_BIN, base.string())))
      << array;
  EXPECT_TRUE(contains(array, "#SBATCH --time=10\n")) << array;

  // Again into the same folder: the same experiment is fine, another one is refused.
  EXPECT_EQ(slurm("--shards 2").code, 0);
  fs::create_directories(dir.path / "other");
  experiment = dir.write("other/small.yaml",
                         "name: small\nproblem: lcs\ninstances:\n  - generator: random\n"
                         "    params: {n: 8}\nsolvers: [cpu.linear]\n");
  ran = slurm("--shards 1");
  EXPECT_EQ(ran.code, 2);
  EXPECT_TRUE(
      contains(ran.output, "holds the Slurm job of another experiment, or of another version"))
      << ran.output;
}

TEST_F(SlurmCommand, ARefusedArrayQueuesNothing) {
  auto ran = slurm("--shards 2 --partition nope --submit", "SBATCH_FAIL=1");
  EXPECT_EQ(ran.code, 2) << ran.output;
  EXPECT_TRUE(contains(ran.output, "sbatch: error: invalid partition")) << ran.output;
  EXPECT_TRUE(contains(ran.output, "sbatch refused the array job")) << ran.output;
  EXPECT_EQ(calls(),
            fmt::format("--parsable {}/results/small/slurm/array.sbatch\n", dir.path.string()));
}

TEST_F(SlurmCommand, ErrorsAreNamedBeforeAnythingIsWritten) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--shards 0", "--shards 0: must be 1 or more"},
      {"--shards 7", "--shards 7: the experiment has 6 cases"},
      {"--shards 2 --time 1h", "--time '1h'"},
      {"--shards 2 --gres gpu:0", "--gres 'gpu:0'"},
      {"--shards 2 --gpus all", "--gpus all: the tasks get no GPU"},
      {"--shards 2 --gres gpu:1 --gpus 0,1", "GPU 1 is not among a task's 1 GPU"},
      {"--shards 2 --cpu-workers 2", "--cpu-workers 2: it goes with --gpus"},
      {"--shards 2 --out '/tmp/a b'",
       "the job's folder (--out) '/tmp/a b': Slurm's #SBATCH lines cannot hold"},
  };
  for (const auto& [args, message] : cases) {
    auto ran = slurm(args + " --submit");
    EXPECT_EQ(ran.code, 2) << args << "\n" << ran.output;
    EXPECT_TRUE(contains(ran.output, message)) << args << "\n" << ran.output;
  }
  dir.write("small.yaml",
            "name: small\nproblem: lcs\ninstances:\n  - generator: random\n"
            "    params: {n: 8}\nsolvers: [cpu.nope]\n");
  auto ran = slurm("--shards 1 --submit");
  EXPECT_EQ(ran.code, 2);
  EXPECT_TRUE(contains(ran.output, "small.yaml:6"))
      << ran.output;  // the file and line, as dpgpu check says
  EXPECT_FALSE(fs::exists(dir.path / "results")) << "written before the errors were found";
  EXPECT_FALSE(fs::exists(dir.path / "bin/calls.txt")) << "sbatch ran";
}

TEST_F(SlurmCommand, SaysWhenGpuCasesWouldBeSkipped) {
  dir.write("small.yaml",
            "name: small\nproblem: lcs\ninstances:\n  - generator: random\n"
            "    params: {n: [8, 16]}\nsolvers: [cpu.linear, gpu.wavefront]\n");
  auto ran = slurm("--shards 2");
  EXPECT_EQ(ran.code, 0) << ran.output;
  EXPECT_TRUE(
      contains(ran.output, "note: 2 GPU cases will be recorded skipped: the tasks ask for no GPU"))
      << ran.output;
  ran = slurm("--shards 2 --gres gpu:1");
  EXPECT_EQ(ran.code, 0) << ran.output;
  EXPECT_FALSE(contains(ran.output, "note:")) << ran.output;
  EXPECT_TRUE(contains(ran.output, "1 GPU per task")) << ran.output;
}

TEST_F(SlurmCommand, SubmitNeedsSbatch) {
  auto ran = e2e::run(fmt::format("cd {} && PATH=/nonexistent {} slurm {} --shards 2 --submit",
                                  dir.path.string(), DPGPU_BIN, experiment.string()));
  EXPECT_EQ(ran.code, 2);
  EXPECT_TRUE(contains(ran.output, "sbatch is not on PATH")) << ran.output;
}

}  // namespace
