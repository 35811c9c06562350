// verify_command.cpp — `dpgpu verify` (verify_command.hpp).
#include "cli/verify_command.hpp"

#include <memory>

#include "cli/command.hpp"

#include <fmt/format.h>

#include <iostream>

#include <nlohmann/json.hpp>

#include "dpgpu/error.hpp"
#include "verify/claim_eval.hpp"
#include "verify/results_rows.hpp"

namespace dpgpu {

namespace {

std::string md_cell(std::string s) {
  for (std::size_t i = 0; (i = s.find('|', i)) != std::string::npos; i += 2) s.replace(i, 1, "\\|");
  return s;
}

void print_lines(const FolderClaims& f, const std::vector<ClaimOutcome>& outcomes) {
  std::cout << fmt::format("{} ({} on {}; claims from {})\n", f.dir.string(), f.experiment,
                           f.device, f.claims_file.string());
  for (std::size_t i = 0; i < f.claims.size(); ++i) {
    const Claim& c = f.claims[i];
    std::cout << fmt::format("  {:<6} {} [{}] {}: {}\n", outcomes[i].held ? "held" : "FAILED", c.id,
                             c.paper, describe_comparison(c), outcomes[i].detail);
  }
}

void print_markdown(const FolderClaims& f, const std::vector<ClaimOutcome>& outcomes) {
  std::cout << fmt::format("Claims of `{}` on {} (`dpgpu verify {}`):\n\n", f.experiment, f.device,
                           f.dir.string());
  std::cout << "| claim | paper | says | holds | numbers |\n|---|---|---|---|---|\n";
  for (std::size_t i = 0; i < f.claims.size(); ++i) {
    const Claim& c = f.claims[i];
    std::cout << fmt::format("| `{}` | {} | {} | {} | {}: {} |\n", c.id, md_cell(c.paper),
                             md_cell(c.says), outcomes[i].held ? "yes" : "**no**",
                             md_cell(describe_comparison(c)), md_cell(outcomes[i].detail));
  }
  std::cout << "\n";
}

nlohmann::json folder_json(const FolderClaims& f, const std::vector<ClaimOutcome>& outcomes) {
  nlohmann::json claims = nlohmann::json::array();
  for (std::size_t i = 0; i < f.claims.size(); ++i) {
    const Claim& c = f.claims[i];
    claims.push_back({{"id", c.id},
                      {"says", c.says},
                      {"paper", c.paper},
                      {"held", outcomes[i].held},
                      {"comparison", describe_comparison(c)},
                      {"detail", outcomes[i].detail}});
  }
  return {{"dir", f.dir.string()},
          {"experiment", f.experiment},
          {"device", f.device},
          {"claims_file", f.claims_file.string()},
          {"claims", claims}};
}

}  // namespace

int verify_command(const VerifyOptions& opt) {
  if (opt.dirs.empty()) throw InputError("verify: give at least one results folder");
  // Everything is read and evaluated first, so bad input (exit 2) prints no verdicts.
  std::vector<std::pair<FolderClaims, std::vector<ClaimOutcome>>> done;
  for (const auto& dir : opt.dirs) {
    FolderClaims f = read_folder_claims(dir, opt.experiment);
    std::vector<ClaimOutcome> outcomes;
    for (const Claim& c : f.claims) outcomes.push_back(evaluate_claim(c, f.rows));
    done.emplace_back(std::move(f), std::move(outcomes));
  }
  std::size_t total = 0, held = 0;
  nlohmann::json folders = nlohmann::json::array();
  for (auto& [f, outcomes] : done) {
    for (auto& o : outcomes) total += 1, held += o.held ? 1 : 0;
    if (opt.json) {
      folders.push_back(folder_json(f, outcomes));
      continue;
    }
    if (f.claims.empty()) {
      if (!opt.quiet_empty && !opt.markdown)
        std::cout << fmt::format("{}: no claims\n", f.dir.string());
      continue;
    }
    if (opt.markdown)
      print_markdown(f, outcomes);
    else
      print_lines(f, outcomes);
  }
  if (opt.json)
    std::cout << nlohmann::json{{"folders", folders}, {"held", held}, {"total", total}}.dump(1)
              << "\n";
  else if (!opt.markdown)
    std::cout << fmt::format("{} of {} claims hold\n", held, total);
  return held == total ? 0 : 1;
}

namespace cli {

Command add_verify_command(CLI::App& app) {
  auto* verify =
      app.add_subcommand("verify",
                         "check each results folder's claims on its committed records: a line "
                         "per claim, exit 0 all hold, 1 one fails, 2 bad input");
  auto opt = std::make_shared<VerifyOptions>();
  auto dirs = std::make_shared<std::vector<std::string>>();
  verify
      ->add_option("folders", *dirs,
                   "results folders (claims from experiments/<name>.yaml above the folder, "
                   "else the folder's experiment.yaml)")
      ->required();
  verify->add_option("--experiment", opt->experiment,
                     "read the claims from this experiment file instead");
  verify->add_flag("--markdown", opt->markdown, "a Markdown table of the claims per folder");
  verify->add_flag("--json", opt->json, "one JSON object (what dpgpu report shows)");
  verify->add_flag("--quiet-empty", opt->quiet_empty, "say nothing of folders without claims");
  return {verify, [opt, dirs] {
            opt->dirs.assign(dirs->begin(), dirs->end());
            return verify_command(*opt);
          }};
}

}  // namespace cli

}  // namespace dpgpu
