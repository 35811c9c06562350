// myers_gpu.hpp — gpu.myers's solve and its GPU pass runner, declared without CUDA (defined
// in myers_gpu.cu, built with CUDA only).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "dpgpu/context.hpp"
#include "edit/script.hpp"
#include "myers_config.hpp"
#include "myers_pass.hpp"

namespace dpgpu::myers {

std::unique_ptr<PassRunner> make_gpu_runner(const Symbols& s, const MyersConfig& c, Context& ctx);

struct MyersResult {
  std::int64_t distance = 0;
  std::optional<edit::Script> script;
};
// The distance of a and b (the longer along the bits), and with c.script an optimal script.
MyersResult solve(std::string_view a, std::string_view b, const MyersConfig& c, Context& ctx);

}  // namespace dpgpu::myers
