// edge_weight_formats.hpp — where each number of a TSPLIB EDGE_WEIGHT_SECTION goes, for
// every EDGE_WEIGHT_FORMAT of an explicit matrix. "ROW" formats walk the triangle row by
// row, "COL" formats column by column; "DIAG" formats include the diagonal.
#pragma once
#include <cstddef>
#include <optional>
#include <string_view>

namespace tsp {

enum class WeightFormat {
  FullMatrix,
  UpperRow,
  LowerRow,
  UpperDiagRow,
  LowerDiagRow,
  UpperCol,
  LowerCol,
  UpperDiagCol,
  LowerDiagCol
};

// "FULL_MATRIX" → FullMatrix, ...; nullopt for anything else (FUNCTION is not a matrix).
std::optional<WeightFormat> weight_format_named(std::string_view name);
const char* name_of(WeightFormat f);
// The names weight_format_named() accepts, comma-separated (for messages).
const char* weight_format_names();

// How many numbers the section holds for n cities.
std::size_t numbers_in(WeightFormat f, std::size_t n);

// True for the formats that give one triangle, mirrored onto the other (a symmetric matrix).
inline bool is_triangular(WeightFormat f) { return f != WeightFormat::FullMatrix; }

// Calls visit(i, j) (0-based row and column) for the entry each number fills, in file order.
template <class Visit>
void for_each_entry(WeightFormat f, std::size_t n, Visit&& visit) {
  using F = WeightFormat;
  // Row-wise walks over (outer, inner); column-wise walks are the same walk with the
  // entry transposed: (i, j) = (inner, outer).
  const bool by_column =
      f == F::UpperCol || f == F::LowerCol || f == F::UpperDiagCol || f == F::LowerDiagCol;
  for (std::size_t a = 0; a < n; ++a) {
    std::size_t from = 0, to = n;  // inner range [from, to)
    switch (f) {
      case F::FullMatrix: break;
      case F::UpperRow: from = a + 1; break;    // j > i
      case F::LowerRow: to = a; break;          // j < i
      case F::UpperDiagRow: from = a; break;    // j >= i
      case F::LowerDiagRow: to = a + 1; break;  // j <= i
      case F::UpperCol: to = a; break;          // column j = a, rows i < j
      case F::LowerCol: from = a + 1; break;    // rows i > j
      case F::UpperDiagCol: to = a + 1; break;  // rows i <= j
      case F::LowerDiagCol: from = a; break;    // rows i >= j
    }
    for (std::size_t b = from; b < to; ++b) {
      if (by_column)
        visit(b, a);
      else
        visit(a, b);
    }
  }
}

}  // namespace tsp
