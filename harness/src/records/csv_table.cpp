#include "records/csv_table.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "dpgpu/error.hpp"

namespace dpgpu {

std::string csv_escape(const std::string& f) {
  if (f.find_first_of(",\"\n\r") == std::string::npos) return f;
  std::string out = "\"";
  for (char c : f) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::vector<std::vector<std::string>> csv_parse(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::vector<std::string> row;
  std::string field;
  bool quoted = false, row_started = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
      continue;
    }
    row_started = true;
    if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      row.push_back(std::move(field));
      field.clear();
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      row.push_back(std::move(field));
      field.clear();
      rows.push_back(std::move(row));
      row.clear();
      row_started = false;
    } else {
      field += c;
    }
  }
  if (quoted) throw std::runtime_error("unterminated quoted field");
  if (row_started) {
    row.push_back(std::move(field));
    rows.push_back(std::move(row));
  }
  return rows;
}

void write_file_atomically(const std::filesystem::path& path, const std::string& text) {
  auto tmp = path;
  tmp += ".tmp";
  auto fail = [&](const std::string& why) {
    std::error_code ec;
    std::filesystem::remove(tmp, ec);
    throw WriteError("cannot write " + path.string() + " (" + std::to_string(text.size()) +
                     " bytes): " + why);
  };
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) fail(std::strerror(errno));
    out << text;
    out.flush();
    if (!out) fail(errno ? std::strerror(errno) : "the write failed (disk full?)");
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) fail(ec.message());
}

// Column groups after the leading ones: instance params, solver params, phases, counters,
// then anything else; alphabetical inside a group so reruns give the same layout.
static int group_of(const std::string& c) {
  if (c.rfind("i.", 0) == 0) return 0;
  if (c.rfind("s.", 0) == 0) return 1;
  if (c.rfind("phase.", 0) == 0) return 2;
  if (c.rfind("c.", 0) == 0) return 3;
  return 4;
}

CsvTable::CsvTable(std::filesystem::path path, std::vector<std::string> leading)
    : path_(std::move(path)), columns_(std::move(leading)), leading_(columns_.size()) {}

bool CsvTable::adopt_columns(const CsvRow& row) {
  std::vector<std::string> fresh;
  for (auto& [k, _] : row)
    if (std::find(columns_.begin(), columns_.end(), k) == columns_.end()) fresh.push_back(k);
  if (fresh.empty()) return false;
  // Keep leading columns fixed; re-sort the rest with the new ones.
  const std::size_t first_free = leading_;
  std::vector<std::string> rest(columns_.begin() + first_free, columns_.end());
  rest.insert(rest.end(), fresh.begin(), fresh.end());
  std::stable_sort(rest.begin(), rest.end(), [](auto& a, auto& b) {
    return std::make_pair(group_of(a), a) < std::make_pair(group_of(b), b);
  });
  columns_.resize(first_free);
  columns_.insert(columns_.end(), rest.begin(), rest.end());
  return true;
}

static std::string line_of(const std::vector<std::string>& columns, const CsvRow& row) {
  std::string line;
  for (std::size_t i = 0; i < columns.size(); ++i) {
    if (i) line += ',';
    auto it = row.find(columns[i]);
    if (it != row.end()) line += csv_escape(it->second);
  }
  return line + "\n";
}

void CsvTable::rewrite() {
  std::string text;
  for (std::size_t i = 0; i < columns_.size(); ++i)
    text += (i ? "," : "") + csv_escape(columns_[i]);
  text += "\n";
  for (auto& r : rows_) text += line_of(columns_, r);
  write_file_atomically(path_, text);
}

void CsvTable::append(const CsvRow& row) {
  rows_.push_back(row);
  if (adopt_columns(row) || rows_.size() == 1 || !std::filesystem::exists(path_)) {
    rewrite();
    return;
  }
  std::ofstream out(path_, std::ios::app | std::ios::binary);
  if (!out) throw InputError("cannot append to " + path_.string());
  out << line_of(columns_, row);
  out.flush();
}

void CsvTable::replace_all(std::vector<CsvRow> rows) {
  rows_.clear();
  for (auto& r : rows) adopt_columns(r);
  rows_ = std::move(rows);
  rewrite();
}

std::vector<CsvRow> CsvTable::load() {
  std::ifstream in(path_, std::ios::binary);
  if (!in) return {};
  std::stringstream ss;
  ss << in.rdbuf();
  auto parsed = csv_parse(ss.str());
  if (parsed.empty()) return {};
  auto& header = parsed.front();
  std::vector<CsvRow> rows;
  for (std::size_t r = 1; r < parsed.size(); ++r) {
    if (parsed[r].size() != header.size())
      throw InputError(path_.string() + ":" + std::to_string(r + 1) + ": expected " +
                       std::to_string(header.size()) + " fields, found " +
                       std::to_string(parsed[r].size()));
    CsvRow row;
    for (std::size_t c = 0; c < header.size(); ++c)
      if (!parsed[r][c].empty()) row[header[c]] = parsed[r][c];
    rows.push_back(std::move(row));
  }
  for (auto& r : rows) adopt_columns(r);
  rows_ = rows;
  return rows;
}

}  // namespace dpgpu
