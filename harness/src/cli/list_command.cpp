// list_command.cpp — `dpgpu list [WHAT]`: problems, generators and solvers with their
// parameters, read from the registry; `--markdown`: the solvers as the README's table;
// `--counters`: the counters each solver declares.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <iostream>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "cli/command.hpp"
#include "dpgpu/error.hpp"
#include "dpgpu/registry.hpp"

namespace dpgpu::cli {

namespace {

void print_schema(const Schema& schema, const char* indent) {
  for (auto& p : schema.specs())
    std::cout << fmt::format("{}{:<18} {:<34} default {:<10} {}\n", indent, p.name,
                             p.describe_allowed(), to_string(p.default_value), p.help);
}

void print_solver(const SolverEntry& s) {
  std::cout << fmt::format(
      "  {}/{:<20} {}{}{}\n", s.problem, s.name, s.help,
      s.unavailable.empty() ? "" : "  [unavailable: " + s.unavailable + "]",
      s.broken.empty() ? "" : "  [broken registration: " + s.registration_error() + "]");
  print_schema(s.schema, "      ");
}

// `dpgpu list NAME`: one problem (its generators and solvers) or the solvers of that name.
int list_one(const std::string& name) {
  auto& reg = Registry::get();
  if (const auto* p = reg.problem(name)) {
    std::cout << fmt::format("problem {}: {}\ngenerators:\n", p->name, p->help);
    for (auto& g : p->generators) {
      std::cout << fmt::format("  {}/{:<20} {}\n", p->name, g.name, g.help);
      print_schema(g.schema, "      ");
    }
    std::cout << "solvers:\n";
    for (auto* s : reg.solvers(p->name)) print_solver(*s);
    return 0;
  }
  std::vector<std::string> known;
  bool found = false;
  for (auto* s : reg.solvers()) {
    known.push_back(s->name);
    if (s->name == name) {
      if (!found) std::cout << "solvers:\n";
      print_solver(*s);
      found = true;
    }
  }
  if (found) return 0;
  for (auto* p : reg.problems()) known.push_back(p->name);
  std::sort(known.begin(), known.end());
  known.erase(std::unique(known.begin(), known.end()), known.end());
  throw InputError(
      fmt::format("list: no problem or solver named '{}' (known: all, problems, solvers, "
                  "generators, {})",
                  name, fmt::join(known, ", ")));
}

// A table cell: '|' would end it and a line break would end the row.
std::string cell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|')
      out += "\\|";
    else
      out += c == '\n' ? ' ' : c;
  }
  return out;
}

// `dpgpu list --markdown`: one row per solver, sorted by problem and name, with nothing that
// depends on the build (availability, backends found), so the README's generated block is
// the same wherever it is regenerated.
int list_markdown() {
  std::vector<const SolverEntry*> solvers = Registry::get().solvers();
  std::sort(solvers.begin(), solvers.end(), [](auto* a, auto* b) {
    return std::tie(a->problem, a->name) < std::tie(b->problem, b->name);
  });
  std::cout << "| problem | solver | what | parameters |\n|---|---|---|---|\n";
  for (auto* s : solvers) {
    std::vector<std::string> params;
    for (auto& p : s->schema.specs()) params.push_back(fmt::format("`{}`", p.name));
    std::cout << fmt::format("| {} | `{}` | {} | {} |\n", s->problem, s->name, cell(s->help),
                             params.empty() ? "–" : fmt::format("{}", fmt::join(params, ", ")));
  }
  return 0;
}

// `dpgpu list --counters [WHAT]`: each solver's counters (kind, unit, what it says), as
// counters.json records them in a results folder; the harness's own last.
int list_counters(const std::string& what) {
  std::vector<const SolverEntry*> shown;
  for (auto* s : Registry::get().solvers())
    if (what == "all" || what == "solvers" || what == s->problem || what == s->name)
      shown.push_back(s);
  if (shown.empty()) return list_one(what);  // names what is known
  auto row = [](const CounterSpec& c) {
    std::cout << fmt::format("      {:<26} {:<8} {:<12} {}\n", c.name, counter_kind_name(c.kind),
                             c.unit.empty() ? "-" : c.unit, c.help);
  };
  for (auto* s : shown) {
    std::cout << fmt::format("  {}/{}{}\n", s->problem, s->name,
                             s->work_counter.empty() ? "" : "  (work: " + s->work_counter + ")");
    if (s->counters.empty()) std::cout << "      (sets no counters of its own)\n";
    for (const CounterSpec& c : s->counters) row(c);
  }
  std::cout << "  every solver (the harness):\n";
  for (const CounterSpec& c : harness_counters()) row(c);
  return 0;
}

int list(const std::string& what) {
  auto& reg = Registry::get();
  if (what != "all" && what != "problems" && what != "generators" && what != "solvers")
    return list_one(what);
  if (what == "problems" || what == "all") {
    std::cout << "problems:\n";
    for (auto* p : reg.problems()) std::cout << fmt::format("  {:<12} {}\n", p->name, p->help);
  }
  if (what == "generators" || what == "all") {
    std::cout << "generators:\n";
    for (auto* p : reg.problems())
      for (auto& g : p->generators) {
        std::cout << fmt::format("  {}/{:<20} {}\n", p->name, g.name, g.help);
        print_schema(g.schema, "      ");
      }
  }
  if (what == "solvers" || what == "all") {
    std::cout << "solvers:\n";
    for (auto* s : reg.solvers()) print_solver(*s);
  }
  return 0;
}

}  // namespace

Command add_list_command(CLI::App& app) {
  auto what = std::make_shared<std::string>("all");
  auto markdown = std::make_shared<bool>(false);
  auto* lst =
      app.add_subcommand("list", "list problems, solvers or generators with their parameters");
  lst->add_option("what", *what, "problems | solvers | generators | a problem or solver name");
  lst->add_flag("--markdown", *markdown,
                "the solvers as a Markdown table (README.md's generated block)");
  auto counters = std::make_shared<bool>(false);
  lst->add_flag("--counters", *counters,
                "each solver's counters: kind (count, bytes, rate, ratio, seconds), unit, help");
  return {lst, [what, markdown, counters] {
            if (*markdown && *what != "all" && *what != "solvers")
              throw InputError("list: --markdown lists the solvers; give no name or 'solvers'");
            if (*markdown && *counters)
              throw InputError("list: --markdown and --counters exclude each other");
            if (*counters) return list_counters(*what);
            return *markdown ? list_markdown() : list(*what);
          }};
}

}  // namespace dpgpu::cli
