# The TSP through the wavefront model: Held-Karp by subset-size layers (included by CMakeLists.txt).
target_sources(dpgpu_strategy_wavefront PRIVATE tsp_params.cpp)
target_link_libraries(dpgpu_strategy_wavefront PUBLIC dpgpu_problem_tsp)
if(DPGPU_WITH_CUDA)
  target_sources(dpgpu_strategy_wavefront PRIVATE tsp_wavefront.cu tsp_multigpu.cu)
endif()

# Parameters, registration, memory estimate, layer arithmetic: host only, every build.
dpgpu_add_test(test_tsp_wavefront_params test_tsp_wavefront_params.cpp LIBS ${_wavefront_whole})
# The split across GPUs, its memory plan and exchange, the `gpus` rules: host only too.
dpgpu_add_test(test_tsp_split test_tsp_split.cpp LIBS ${_wavefront_whole})
if(TARGET dpgpu_baselines_tsp)
  # The multi-GPU layer kernel's per-subset code (tsp_multigpu_share.hpp) run on the CPU over
  # simulated GPUs, against cpu.held_karp: no GPU, no CUDA needed.
  dpgpu_add_test(test_tsp_share_on_cpu test_tsp_share_on_cpu.cpp LIBS ${_wavefront_whole} dpgpu_baselines_tsp)
endif()
if(DPGPU_WITH_CUDA AND TARGET dpgpu_baselines_tsp)
  # Against cpu.held_karp and the TSPLIB optima on the GPU (skipped without a device).
  dpgpu_add_test(test_tsp_wavefront test_tsp_wavefront.cu LIBS ${_wavefront_whole} dpgpu_baselines_tsp)
  # gpus = 2, 4 against gpus = 1 (logical GPUs share one card), and repetitions on >= 2 cards.
  dpgpu_add_test(test_tsp_multigpu test_tsp_multigpu.cu LIBS ${_wavefront_whole} dpgpu_baselines_tsp)
endif()
# `dpgpu check` prints each case's memory plan (the registration's .memory_plan): n = 34 over
# two GPUs fits an H200 per card (the harness hook, end to end).
add_test(NAME tsp_multigpu.check_memory_plan
         COMMAND $<TARGET_FILE:dpgpu> check ${PROJECT_SOURCE_DIR}/experiments/tsp_multigpu.yaml)
set_tests_properties(tsp_multigpu.check_memory_plan PROPERTIES PASS_REGULAR_EXPRESSION
  "memory plan random_matrix\\[max=1000,min=1,n=34\\]#7/gpu\\.wavefront\\[gpus=2\\]: n = 34 over 2 GPUs[^\n]*widest layers 16 and 17: per GPU 77 GB costs \\+ 19\\.3 GB argmins[^\n]*per GPU at most 96\\.3 GB, host 142 GB")
