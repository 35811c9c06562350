// papers.hpp — which experiments stand behind a paper: every experiment file whose claims
// cite it (a claim's `paper:` starts with the paper's number: "000 Fig. 4c", "004 Table 2";
// ../shared/papers/README.md maps the numbers to the papers).
#pragma once
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "experiment/claims.hpp"
#include "reproduce/tiers.hpp"

namespace dpgpu {

// The papers dpgpu reproduces: "000" to "004".
const std::vector<std::string>& known_papers();

// "4", "04", "004" -> "004"; InputError naming the known papers otherwise.
std::string paper_number(const std::string& written);

// The paper a claim cites ("004 Table 2" -> "004"), or "" for one that cites none
// ("README headline", "issue 28").
std::string paper_of(const Claim& c);

struct PaperExperiment {
  std::filesystem::path file;
  std::string name;
  std::set<std::string> papers;  // cited by at least one of its claims
  std::vector<Claim> claims;     // all of them, papers or not
  std::map<std::string, Tier> tiers;
};

// experiments/*.yaml (sorted by name) with a claim citing one of `papers`.
std::vector<PaperExperiment> experiments_behind(const std::filesystem::path& experiments_dir,
                                                const std::set<std::string>& papers);

}  // namespace dpgpu
