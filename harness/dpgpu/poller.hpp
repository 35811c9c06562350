// poller.hpp — how long CPU loops stay interruptible: they report work to a Poller, which calls
// the solver's `Poll` (typically ctx.check_deadline(), throwing dpgpu::Timeout) once per
// `every` units of it.
#pragma once
#include <cstdint>
#include <functional>

namespace dpgpu {

using Poll = std::function<void()>;  // empty: never stops early

// Calls `poll` once per `every` units of work reported through tick().
class Poller {
 public:
  explicit Poller(const Poll& poll, std::uint64_t every = std::uint64_t{1} << 22)
      : poll_(poll), every_(every) {}
  void tick(std::uint64_t work) {
    due_ += work;
    if (due_ >= every_) {
      due_ = 0;
      if (poll_) poll_();
    }
  }

 private:
  const Poll& poll_;
  std::uint64_t every_, due_ = 0;
};

}  // namespace dpgpu
