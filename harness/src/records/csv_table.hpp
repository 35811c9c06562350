// csv_table.hpp — a CSV file kept row by row: each row is appended and flushed as it comes;
// a row with a new column, or a changed row, rewrites the file through a temporary file and
// a rename, so the file on disk is always whole.
#pragma once
#include <filesystem>
#include <stdexcept>
#include <map>
#include <string>
#include <vector>

namespace dpgpu {

using CsvRow = std::map<std::string, std::string>;

std::string csv_escape(const std::string& field);  // RFC 4180
// Parses RFC 4180 text (quoted fields may hold commas, quotes and newlines).
std::vector<std::vector<std::string>> csv_parse(const std::string& text);

class CsvTable {
 public:
  // `leading`: columns that always come first, in this order; others follow in the order
  // column_order() gives (instance params, solver params, phases, counters).
  CsvTable(std::filesystem::path path, std::vector<std::string> leading);

  // Reads an existing file (for --resume); returns its rows. Throws on malformed files.
  std::vector<CsvRow> load();

  void append(const CsvRow& row);              // appends, or rewrites if a column is new
  void replace_all(std::vector<CsvRow> rows);  // rewrites the whole file
  const std::vector<CsvRow>& rows() const { return rows_; }
  std::vector<CsvRow>& mutable_rows() { return rows_; }
  void rewrite();  // writes header and all rows atomically

 private:
  bool adopt_columns(const CsvRow& row);  // true when a new column appeared
  std::filesystem::path path_;
  std::vector<std::string> columns_;
  std::size_t leading_;  // how many of columns_ are the fixed leading ones
  std::vector<CsvRow> rows_;
};

// A file of a results folder could not be written (a full disk, a file size limit, the
// folder moved away mid-run): not bad input, and nothing was left half-written.
struct WriteError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Writes `text` to `path` through a temporary file and a rename (never half-written; on
// failure the temporary file is removed and WriteError names the file, the bytes and why).
void write_file_atomically(const std::filesystem::path& path, const std::string& text);

}  // namespace dpgpu
