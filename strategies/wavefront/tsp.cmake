# The TSP through the wavefront model: Held-Karp by subset-size layers (included by CMakeLists.txt).
target_sources(dpgpu_strategy_wavefront PRIVATE tsp_params.cpp)
target_link_libraries(dpgpu_strategy_wavefront PUBLIC dpgpu_problem_tsp)
if(DPGPU_WITH_CUDA)
  target_sources(dpgpu_strategy_wavefront PRIVATE tsp_wavefront.cu)
endif()

# Parameters, registration, memory estimate, layer arithmetic: host only, every build.
dpgpu_add_test(test_tsp_wavefront_params test_tsp_wavefront_params.cpp LIBS ${_wavefront_whole})
if(DPGPU_WITH_CUDA AND TARGET dpgpu_baselines_tsp)
  # Against cpu.held_karp and the TSPLIB optima on the GPU (skipped without a device).
  dpgpu_add_test(test_tsp_wavefront test_tsp_wavefront.cu LIBS ${_wavefront_whole} dpgpu_baselines_tsp)
endif()
