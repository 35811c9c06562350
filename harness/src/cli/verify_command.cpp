// verify_command.cpp — `dpgpu verify` (verify_command.hpp).
#include "cli/verify_command.hpp"

#include <memory>

#include "cli/command.hpp"

#include <fmt/format.h>

#include <iostream>

#include <nlohmann/json.hpp>

#include "dpgpu/error.hpp"
#include "verify/claim_eval.hpp"
#include "verify/claims_pin.hpp"
#include "verify/results_rows.hpp"
#include "verify/sensitivity.hpp"

namespace dpgpu {

namespace {

namespace fs = std::filesystem;

struct Checked {
  FolderClaims f;
  std::vector<ClaimOutcome> outcomes;
};

std::string md_cell(std::string s) {
  for (std::size_t i = 0; (i = s.find('|', i)) != std::string::npos; i += 2) s.replace(i, 1, "\\|");
  return s;
}

void print_lines(const Checked& c, bool pins_current) {
  const FolderClaims& f = c.f;
  std::cout << fmt::format("{} ({} on {}; claims from {})\n", f.dir.string(), f.experiment,
                           f.device, f.claims_file.string());
  for (const std::string& p : f.problems) std::cout << fmt::format("  PROBLEM {}\n", p);
  for (auto& [id, why] : f.not_checked)
    std::cout << fmt::format("  not checked here: {} ({})\n", id, why);
  if (!f.drift.empty())
    std::cout << fmt::format(
        "  {} {} differs from these claims ({}): dpgpu verify "
        "--update-claims {} re-pins them\n",
        pins_current ? "PROBLEM" : "note:", f.committed.string(), f.drift, f.dir.string());
  for (std::size_t i = 0; i < f.claims.size(); ++i) {
    const Claim& cl = f.claims[i];
    std::cout << fmt::format("  {:<6} {} [{}] {}: {}\n", c.outcomes[i].held ? "held" : "FAILED",
                             cl.id, cl.paper, describe_comparison(cl), c.outcomes[i].detail);
    for (const Claim::Revision& r : cl.revised)
      std::cout << fmt::format("         revised {}: was {} ({})\n", r.date, r.old, r.why);
  }
}

void print_markdown(const Checked& c) {
  const FolderClaims& f = c.f;
  std::cout << fmt::format("Claims of `{}` on {} (`dpgpu verify {}`):\n\n", f.experiment, f.device,
                           f.dir.string());
  for (const std::string& p : f.problems) std::cout << fmt::format("**Problem:** {}\n\n", p);
  std::cout << "| claim | paper | says | holds | numbers |\n|---|---|---|---|---|\n";
  for (std::size_t i = 0; i < f.claims.size(); ++i) {
    const Claim& cl = f.claims[i];
    std::cout << fmt::format("| `{}` | {} | {} | {} | {}: {} |\n", cl.id, md_cell(cl.paper),
                             md_cell(cl.says), c.outcomes[i].held ? "yes" : "**no**",
                             md_cell(describe_comparison(cl)), md_cell(c.outcomes[i].detail));
  }
  std::cout << "\n";
}

nlohmann::json folder_json(const Checked& c) {
  const FolderClaims& f = c.f;
  nlohmann::json claims = nlohmann::json::array();
  for (std::size_t i = 0; i < f.claims.size(); ++i) {
    const Claim& cl = f.claims[i];
    nlohmann::json revised = nlohmann::json::array();
    for (auto& r : cl.revised)
      revised.push_back({{"date", r.date}, {"old", r.old}, {"why", r.why}});
    claims.push_back({{"id", cl.id},
                      {"says", cl.says},
                      {"paper", cl.paper},
                      {"held", c.outcomes[i].held},
                      {"comparison", describe_comparison(cl)},
                      {"detail", c.outcomes[i].detail},
                      {"rows", c.outcomes[i].rows},
                      {"instances", c.outcomes[i].instances},
                      {"revised", revised}});
  }
  return {{"dir", f.dir.string()},  {"experiment", f.experiment},
          {"device", f.device},     {"claims_file", f.claims_file.string()},
          {"problems", f.problems}, {"drift", f.drift},
          {"claims", claims}};
}

// --update-claims: the folder's claims.yaml from the committed experiment (or --experiment,
// or, with neither, the claims it already has), coverage counted on its rows.
void update_pins(const fs::path& dir, const fs::path& experiment) {
  FolderClaims f = read_folder_claims(dir, experiment);
  fs::path source = !experiment.empty() ? experiment : f.committed;
  if (source.empty()) source = f.claims_file;
  if (source.empty() || read_claims_file(source.string()).claims.empty()) {
    std::cout << fmt::format(
        "{}: --update-claims: no claims to pin ({}; --experiment FILE "
        "names other claims)\n",
        dir.string(), source.empty() ? "no experiment file found" : source.string() + " has none");
    return;
  }
  for (const std::string& change : pin_claims(dir, source, f.experiment, f.rows, utc_date()))
    std::cout << fmt::format("{}: re-pinned {}\n", dir.string(), change);
}

// --sensitivity: one line per claim that cannot fail or is loose; true if none cannot fail.
bool print_sensitivity(const Checked& c) {
  bool ok = true;
  for (std::size_t i = 0; i < c.f.claims.size(); ++i) {
    const Claim& cl = c.f.claims[i];
    const Sensitivity s = claim_sensitivity(cl, c.f.rows);
    if (!s.tested) continue;
    if (s.cannot_fail) ok = false;
    if (s.cannot_fail || (s.margin_x && *s.margin_x > 10))
      std::cout << fmt::format(
          "  {} {}: {}{}{}\n", s.cannot_fail ? "CANNOT-FAIL" : "loose", cl.id, s.note,
          s.margin_x ? fmt::format("; nearest value {:.3g}x its bound", *s.margin_x) : "",
          s.survives_2x ? "; holds even 2x toward failing" : "");
  }
  return ok;
}

}  // namespace

int verify_command(const VerifyOptions& opt) {
  if (opt.dirs.empty()) throw InputError("verify: give at least one results folder");
  if (opt.update_claims)
    for (const auto& dir : opt.dirs) update_pins(dir, opt.experiment);
  // Everything is read and evaluated first, so bad input (exit 2) prints no verdicts.
  std::vector<Checked> done;
  for (const auto& dir : opt.dirs) {
    Checked c{read_folder_claims(dir, opt.experiment), {}};
    for (const Claim& cl : c.f.claims) c.outcomes.push_back(evaluate_claim(cl, c.f.rows));
    done.push_back(std::move(c));
  }
  std::size_t total = 0, held = 0, problems = 0, empty = 0;
  bool sensitive = true;
  nlohmann::json folders = nlohmann::json::array();
  for (const Checked& c : done) {
    for (auto& o : c.outcomes) total += 1, held += o.held ? 1 : 0;
    problems += c.f.problems.size() + (opt.pins_current && !c.f.drift.empty() ? 1 : 0);
    if (opt.json) {
      folders.push_back(folder_json(c));
      continue;
    }
    if (c.f.claims.empty()) {
      empty += 1;
      if (!opt.quiet_empty && !opt.markdown)
        std::cout << fmt::format("{}: no claims: nothing verified\n", c.f.dir.string());
      if (c.f.problems.empty() && (c.f.drift.empty() || !opt.pins_current)) continue;
    }
    if (opt.markdown)
      print_markdown(c);
    else
      print_lines(c, opt.pins_current);
    if (opt.sensitivity) sensitive = print_sensitivity(c) && sensitive;
  }
  if (opt.json)
    std::cout << nlohmann::json{{"folders", folders}, {"held", held}, {"total", total}}.dump(1)
              << "\n";
  else if (!opt.markdown)
    std::cout << fmt::format("{} of {} claims hold{}\n", held, total,
                             problems ? fmt::format("; {} folder problem(s)", problems) : "");
  if (held != total || problems > 0 || !sensitive) return 1;
  if (total == 0 || (empty > 0 && !opt.quiet_empty)) return kNothingVerified;
  return 0;
}

namespace cli {

Command add_verify_command(CLI::App& app) {
  auto* verify = app.add_subcommand(
      "verify",
      "check each results folder and its claims on its committed records: a line per claim, "
      "exit 0 all hold, 1 one fails or a folder has a problem, 2 bad input, 3 nothing verified");
  auto opt = std::make_shared<VerifyOptions>();
  auto dirs = std::make_shared<std::vector<std::string>>();
  verify
      ->add_option("folders", *dirs,
                   "results folders (claims from the folder's claims.yaml, else its "
                   "experiment.yaml)")
      ->required();
  verify->add_option("--experiment", opt->experiment,
                     "read the claims from this experiment file instead");
  verify->add_flag("--markdown", opt->markdown, "a Markdown table of the claims per folder");
  verify->add_flag("--json", opt->json, "one JSON object (what dpgpu report shows)");
  verify->add_flag("--quiet-empty", opt->quiet_empty,
                   "say nothing of folders without claims (exit 3 only when none has claims)");
  verify->add_flag("--update-claims", opt->update_claims,
                   "first re-pin each folder's claims.yaml from experiments/<name>.yaml (or "
                   "--experiment), recording the date and each changed bound");
  verify->add_flag("--sensitivity", opt->sensitivity,
                   "perturb each claim's values past its bound and by 2x: list claims that "
                   "cannot fail (exit 1) and loose ones (over 10x their bound)");
  verify->add_flag("--pins-current", opt->pins_current,
                   "a folder whose pinned claims differ from experiments/<name>.yaml fails");
  return {verify, [opt, dirs] {
            opt->dirs.assign(dirs->begin(), dirs->end());
            return verify_command(*opt);
          }};
}

}  // namespace cli

}  // namespace dpgpu
