// reproduce_plan.hpp — what `dpgpu reproduce` runs: the experiments behind each paper's claims
// (experiments/*.yaml whose claims cite the paper: `paper: 004 Table 2`), each as a copy
// written to OUT/copies (not OUT/experiments: verify would take it for the committed
// experiment), changed for the tier and the seeds:
//   quick  every numeric sweep under `params:` keeps its smaller half (n: [10..20] -> [10..15]),
//          so that claims about the largest sizes are listed as not evaluated;
//   fresh  every generated instance gets a new seed (the same count of seeds, other values).
// Relative `file:` paths of the copy are made absolute (they are relative to the experiment);
// the copy has no claims (reproduce evaluates the experiment's own on the results).
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "experiment/claims.hpp"

namespace dpgpu {

struct ReproduceExperiment {
  std::filesystem::path file;       // experiments/<name>.yaml
  std::string name;                 // its name
  std::vector<std::string> papers;  // the papers its claims cite ("004")
  std::vector<Claim> claims;
  std::filesystem::path reference;  // the committed folder with its pinned claims, if any
};

// The paper a claim cites ("004" of "004 Table 2"), or "" (README headline, issue 28).
std::string claim_paper(const Claim& c);

// The experiments of `dir` with a claim citing one of `papers` (all papers when empty), and
// for each its reference folder under `reference_root` (results/reference/*/<name> with a
// claims.yaml; the first in name order).
std::vector<ReproduceExperiment> reproduce_experiments(const std::filesystem::path& dir,
                                                       const std::vector<std::string>& papers,
                                                       const std::filesystem::path& reference_root);

// Writes the tier's copy of `e` to `out` and returns it. `seed_base` picks the fresh seeds
// (0: keep the file's seeds).
std::filesystem::path write_reproduce_copy(const ReproduceExperiment& e, bool quick,
                                           unsigned seed_base, const std::filesystem::path& out);

}  // namespace dpgpu
