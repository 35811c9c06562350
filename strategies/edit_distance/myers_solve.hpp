// myers_solve.hpp — the solve over any pass runner (the GPU's in myers_gpu.cu, the CPU model
// in tests): the longer string along the bits, the distance from one pass, the script from
// Hirschberg's levels, mapped back to a → b. Host C++.
#pragma once
#include <functional>
#include <memory>
#include <optional>
#include <string_view>

#include "edit/script.hpp"
#include "myers_config.hpp"
#include "myers_pass.hpp"
#include "myers_script.hpp"

namespace dpgpu::myers {

struct Solved {
  std::int64_t distance = 0;
  std::optional<edit::Script> script;
  ScriptStats stats;
  int passes = 0;  // batches run
};

using MakeRunner = std::function<std::unique_ptr<PassRunner>(const Symbols&)>;
Solved solve_over(std::string_view a, std::string_view b, const MyersConfig& c,
                  const MakeRunner& make);

}  // namespace dpgpu::myers
