# LCS through the wavefront model (included by CMakeLists.txt).
target_sources(dpgpu_strategy_wavefront PRIVATE lcs_params.cpp)
if(TARGET dpgpu_problem_lcs)
  target_link_libraries(dpgpu_strategy_wavefront PUBLIC dpgpu_problem_lcs)
endif()
if(DPGPU_WITH_CUDA)
  target_sources(dpgpu_strategy_wavefront PRIVATE lcs_wavefront.cu)
endif()

# Parameters, registration, memory estimate, geometry: host only, every build.
dpgpu_add_test(test_lcs_wavefront_params test_lcs_wavefront_params.cpp LIBS ${_wavefront_whole})
if(DPGPU_WITH_CUDA)
  # Against the CPU reference on the GPU (skipped without a device).
  dpgpu_add_test(test_lcs_wavefront test_lcs_wavefront.cu LIBS ${_wavefront_whole})
endif()

# The kernels' source run on the CPU (common/cpu_warp_emulation.hpp): needs no GPU and no CUDA, so
# it checks the kernels' logic in every build, CI included.
dpgpu_add_test(test_lcs_kernels_on_cpu test_lcs_kernels_on_cpu.cpp LIBS dpgpu_core dpgpu_gpu_common)
target_include_directories(test_lcs_kernels_on_cpu PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}
                           ${PROJECT_SOURCE_DIR}/problems)  # "lcs/tile_geometry.hpp" (header only)
target_compile_options(test_lcs_kernels_on_cpu PRIVATE -Wno-unknown-pragmas)  # the kernels' #pragma unroll
