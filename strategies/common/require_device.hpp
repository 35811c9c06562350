// require_device.hpp — REQUIRE_DEVICE(): the first line of a GPU test, which skips it (never
// passes it) where no GPU is usable, saying why in words a user can act on.
#pragma once
#include <gtest/gtest.h>

#include <string>

#include "dpgpu/gpu_presence.hpp"

#define REQUIRE_DEVICE()                                                                       \
  if (const std::string dpgpu_no_gpu = ::dpgpu::no_usable_gpu_reason(); !dpgpu_no_gpu.empty()) \
  GTEST_SKIP() << "no usable GPU: " << dpgpu_no_gpu
