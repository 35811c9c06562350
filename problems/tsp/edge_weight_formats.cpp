#include "edge_weight_formats.hpp"

namespace tsp {

namespace {

constexpr WeightFormat kAll[] = {
    WeightFormat::FullMatrix,   WeightFormat::UpperRow,     WeightFormat::LowerRow,
    WeightFormat::UpperDiagRow, WeightFormat::LowerDiagRow, WeightFormat::UpperCol,
    WeightFormat::LowerCol,     WeightFormat::UpperDiagCol, WeightFormat::LowerDiagCol};

}  // namespace

std::optional<WeightFormat> weight_format_named(std::string_view name) {
  for (auto f : kAll)
    if (name == name_of(f)) return f;
  return std::nullopt;
}

const char* name_of(WeightFormat f) {
  switch (f) {
    case WeightFormat::FullMatrix: return "FULL_MATRIX";
    case WeightFormat::UpperRow: return "UPPER_ROW";
    case WeightFormat::LowerRow: return "LOWER_ROW";
    case WeightFormat::UpperDiagRow: return "UPPER_DIAG_ROW";
    case WeightFormat::LowerDiagRow: return "LOWER_DIAG_ROW";
    case WeightFormat::UpperCol: return "UPPER_COL";
    case WeightFormat::LowerCol: return "LOWER_COL";
    case WeightFormat::UpperDiagCol: return "UPPER_DIAG_COL";
    case WeightFormat::LowerDiagCol: return "LOWER_DIAG_COL";
  }
  return "?";
}

const char* weight_format_names() {
  return "FULL_MATRIX, UPPER_ROW, LOWER_ROW, UPPER_DIAG_ROW, LOWER_DIAG_ROW, UPPER_COL, LOWER_COL, "
         "UPPER_DIAG_COL, LOWER_DIAG_COL";
}

std::size_t numbers_in(WeightFormat f, std::size_t n) {
  switch (f) {
    case WeightFormat::FullMatrix: return n * n;
    case WeightFormat::UpperRow:
    case WeightFormat::LowerRow:
    case WeightFormat::UpperCol:
    case WeightFormat::LowerCol: return n * (n - 1) / 2;
    default: return n * (n + 1) / 2;
  }
}

}  // namespace tsp
