// The solve over a pass runner.
#include "myers_solve.hpp"

#include <algorithm>
#include <string>

namespace dpgpu::myers {

Solved solve_over(std::string_view a, std::string_view b, const MyersConfig& c,
                  const MakeRunner& make) {
  const bool swapped = b.size() > a.size();
  const std::string_view x = swapped ? b : a;  // along the bits
  const std::string_view y = swapped ? a : b;  // along the steps
  Solved out;
  if (y.empty()) {
    out.distance = std::int64_t(x.size());
    if (c.script)
      out.script =
          edit::script_from_columns(std::string(a.size(), 'D') + std::string(b.size(), 'I'), a, b);
    return out;
  }
  const Symbols sym = encode(x, y);
  auto runner = make(sym);
  if (!c.script) {
    const std::vector<PassJob> jobs{{0, std::int64_t(x.size()), 0, std::int64_t(y.size()), false}};
    Columns cols;
    runner->run(jobs, cols, false);
    out.distance = cols.distance[0];
    out.passes = 1;
    return out;
  }
  std::string ops = align_columns(x, y, sym, *runner, c.leaf_cells, &out.stats);
  out.passes = out.stats.levels;
  if (swapped)  // columns of y → x: a symbol of x alone is one of b alone, and back
    std::transform(ops.begin(), ops.end(), ops.begin(), [](char op) {
      return op == 'D' ? 'I' : op == 'I' ? 'D' : op;
    });
  out.script = edit::script_from_columns(std::move(ops), a, b);
  out.distance = edit::cost(*out.script);
  return out;
}

}  // namespace dpgpu::myers
