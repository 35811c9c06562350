# The 0-1 knapsack through the wavefront model (included by CMakeLists.txt).
target_sources(dpgpu_strategy_wavefront PRIVATE knapsack_params.cpp)
target_link_libraries(dpgpu_strategy_wavefront PUBLIC dpgpu_problem_knapsack)
if(DPGPU_WITH_CUDA)
  target_sources(dpgpu_strategy_wavefront PRIVATE knapsack_wavefront.cu)
endif()

# Parameters, registration, geometry, memory estimate: host only, every build.
dpgpu_add_test(test_knapsack_wavefront_params test_knapsack_wavefront_params.cpp LIBS ${_wavefront_whole})
if(DPGPU_WITH_CUDA)
  # The shared GPU knapsack suite (problems/knapsack/testing), against a CPU DP on the GPU
  # (skipped without a device).
  dpgpu_add_test(test_knapsack_wavefront test_knapsack_wavefront.cu LIBS ${_wavefront_whole} dpgpu_knapsack_gpu_suite)
endif()
