// reproduce_report.cpp — reproduce.md, reproduce.html and the summary (reproduce_report.hpp).
#include "reproduce/reproduce_report.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <sstream>

#include "dpgpu/error.hpp"
#include "reproduce/papers.hpp"
#include "records/csv_table.hpp"

namespace dpgpu {

namespace {

std::string md_cell(std::string s) {
  for (std::size_t i = 0; (i = s.find_first_of("|\n", i)) != std::string::npos; i += 2)
    s.replace(i, 1, s[i] == '|' ? "\\|" : " ");
  return s;
}

std::string html_escaped(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '&')
      out += "&amp;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

// "held: 1.94 = ...", the reference's verdict and numbers in one cell.
std::string reference_cell(const ClaimVerdict& c) {
  return c.reference_verdict + ": " + c.reference_value;
}

std::string kind_text(const std::string& kind) {
  if (kind == "ratio") return "ratio (expected to carry over)";
  if (kind == "ratio of GPU and CPU") return "ratio of GPU and CPU (carries over to a like host)";
  if (kind == "exact") return "exact (answers, counts)";
  return kind;  // "absolute (NVIDIA H100 80GB HBM3)"
}

// A paper's heading: "000" -> "Paper 000", "" -> "Other claims (README, issues)".
std::string heading(const std::string& paper) {
  return paper.empty() ? "Claims citing no paper (README, issues)" : "Paper " + paper;
}

std::vector<std::string> groups() {
  std::vector<std::string> g = known_papers();
  g.push_back("");
  return g;
}

std::string paper_key(const ClaimVerdict& v) {
  Claim c;
  c.paper = v.paper;
  return paper_of(c);
}

std::string header_text(const ReproducePlan& plan, const std::vector<ClaimVerdict>& v,
                        double elapsed_s) {
  const ReproduceTotals t = count_verdicts(v);
  std::string s = fmt::format(
      "Papers {}, tier {}, seeds {}{}; {}.\n\n{} of {} claims evaluated: {} held, {} failed; "
      "{} not evaluated.\n",
      fmt::join(plan.papers, " "), plan.tier, plan.seeds,
      plan.seed_offset ? fmt::format(" (each generated seed s ran as s + {})", *plan.seed_offset)
                       : "",
      (elapsed_s < 0 ? std::string("ran for a time not recorded")
                     : "ran " + duration_text(elapsed_s)) +
          (plan.rejudged ? "; claims judged again on its results (dpgpu reproduce --rejudge)" : ""),
      t.held + t.failed, v.size(), t.held, t.failed, t.not_evaluated);
  return s;
}

}  // namespace

ReproduceTotals count_verdicts(const std::vector<ClaimVerdict>& verdicts) {
  ReproduceTotals t;
  for (const auto& v : verdicts)
    (v.verdict == ClaimJudgement::Held     ? t.held
     : v.verdict == ClaimJudgement::Failed ? t.failed
                                           : t.not_evaluated)++;
  return t;
}

std::string reproduce_markdown(const ReproducePlan& plan, const std::vector<ClaimVerdict>& v,
                               double elapsed_s) {
  std::ostringstream out;
  out << "# dpgpu reproduce\n\n" << header_text(plan, v, elapsed_s);
  for (const std::string& paper : groups()) {
    bool any = false;
    for (const auto& c : v) {
      if (paper_key(c) != paper) continue;
      if (!any)
        out << "\n## " << heading(paper)
            << "\n\n| verdict | claim | paper item | kind | reference | this run |\n"
               "|---|---|---|---|---|---|\n";
      any = true;
      const std::string where =
          c.reference_folder.empty()
              ? ""
              : fmt::format(
                    " ({}, {})", md_cell(c.reference_folder),
                    c.reference_device.empty() ? "no GPU named" : md_cell(c.reference_device));
      out << fmt::format("| {} | `{}` `{}`: {} | {} | {} | {}{} | {}{} |\n",
                         verdict_text(c.verdict), c.experiment, c.id, md_cell(c.says),
                         md_cell(c.paper), kind_text(c.kind), md_cell(reference_cell(c)), where,
                         c.device.empty() ? "" : md_cell(c.device) + ": ", md_cell(c.value));
    }
  }
  return out.str();
}

std::string reproduce_html(const ReproducePlan& plan, const std::vector<ClaimVerdict>& v,
                           double elapsed_s) {
  std::ostringstream out;
  out << "<!doctype html><html><head><meta charset=\"utf-8\"><title>dpgpu reproduce</title>"
         "<style>body{font-family:sans-serif}table{border-collapse:collapse}td,th{border:1px "
         "solid #ccc;padding:4px;vertical-align:top}.held{background:#dfd}.FAILED{background:"
         "#fdd}.not{background:#eee}</style></head><body><h1>dpgpu reproduce</h1><p>"
      << html_escaped(header_text(plan, v, elapsed_s)) << "</p>";
  for (const std::string& paper : groups()) {
    bool any = false;
    for (const auto& c : v) {
      if (paper_key(c) != paper) continue;
      if (!any)
        out << "<h2>" << html_escaped(heading(paper))
            << "</h2><table><tr><th>verdict</th><th>claim</th><th>paper item</th><th>kind</th>"
               "<th>reference</th><th>this run</th></tr>";
      any = true;
      const std::string cls =
          c.verdict == ClaimJudgement::NotEvaluated ? "not" : verdict_text(c.verdict);
      out << fmt::format(
          "<tr class=\"{}\"><td>{}</td><td><code>{}</code> <code>{}</code>: {}</td><td>{}</td>"
          "<td>{}</td><td>{} ({}, {})</td><td>{}</td></tr>",
          cls, verdict_text(c.verdict), html_escaped(c.experiment), html_escaped(c.id),
          html_escaped(c.says), html_escaped(c.paper), html_escaped(kind_text(c.kind)),
          html_escaped(reference_cell(c)), html_escaped(c.reference_folder),
          html_escaped(c.reference_device), html_escaped(c.value));
    }
    if (any) out << "</table>";
  }
  out << "</body></html>\n";
  return out.str();
}

std::string reproduce_csv(const std::vector<ClaimVerdict>& v) {
  std::string out =
      "experiment,claim,paper,kind,verdict,value,reference_verdict,reference_value,"
      "reference_folder,reference_device,device\n";
  for (const auto& c : v) {
    const std::string verdict = c.verdict == ClaimJudgement::Held     ? "held"
                                : c.verdict == ClaimJudgement::Failed ? "failed"
                                                                      : "not evaluated";
    std::vector<std::string> fields = {c.experiment,
                                       c.id,
                                       c.paper,
                                       c.kind,
                                       verdict,
                                       c.value,
                                       c.reference_verdict,
                                       c.reference_value,
                                       c.reference_folder,
                                       c.reference_device,
                                       c.device};
    for (std::size_t i = 0; i < fields.size(); ++i) {
      if (i) out += ',';
      out += csv_escape(fields[i]);
    }
    out += '\n';
  }
  return out;
}

void write_reproduce_report(const std::filesystem::path& dir, const ReproducePlan& plan,
                            const std::vector<ClaimVerdict>& v, double elapsed_s,
                            std::ostream& out) {
  write_file_atomically(dir / "reproduce.md", reproduce_markdown(plan, v, elapsed_s));
  write_file_atomically(dir / "reproduce.html", reproduce_html(plan, v, elapsed_s));
  write_file_atomically(dir / "claims.csv", reproduce_csv(v));
  for (const auto& c : v)
    if (c.verdict == ClaimJudgement::Failed)
      out << fmt::format("FAILED {} {} [{}]: {}\n", c.experiment, c.id, c.paper, c.value);
  const ReproduceTotals t = count_verdicts(v);
  out << fmt::format(
      "{} of {} claims evaluated: {} held, {} failed, {} not evaluated; report: {}\n",
      t.held + t.failed, v.size(), t.held, t.failed, t.not_evaluated,
      (dir / "reproduce.md").string());
}

}  // namespace dpgpu
