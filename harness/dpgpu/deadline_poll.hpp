// deadline_poll.hpp — the Poll (poller.hpp) a CPU solve is given so that it stops at its
// deadline: ctx.check_deadline(), which throws dpgpu::Timeout once the deadline has passed.
#pragma once
#include "dpgpu/context.hpp"
#include "dpgpu/poller.hpp"

namespace dpgpu {

inline Poll deadline_of(Context& ctx) {
  return [&ctx] { ctx.check_deadline(); };
}

}  // namespace dpgpu
