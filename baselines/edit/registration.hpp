// registration.hpp — what the registrations of this folder's solvers share.
#pragma once
#include <cstdint>

#include "dpgpu/deadline_poll.hpp"
#include "dpgpu/registry.hpp"
#include "edit/edit.hpp"
#include "edit/edit_cpu.hpp"
#include "edit/reference.hpp"

namespace edit::cpu {

using dpgpu::Context;
using dpgpu::deadline_of;
using dpgpu::MemoryNeed;
using Outcome = dpgpu::Outcome<edit::Solution>;

inline Outcome distance_only(std::int64_t d) { return Outcome{d, std::nullopt, std::nullopt}; }
inline Outcome with_script(Script s) {
  const auto d = cost(s);
  return Outcome{d, edit::Solution{std::move(s)}, std::nullopt};
}

// The config of both solvers: the script too, or the distance alone.
struct ScriptConfig {
  bool script = false;
};

}  // namespace edit::cpu
