# DPGPU_FUZZ=ON: build for libFuzzer (clang only, CUDA off). Everything is instrumented with
# AddressSanitizer and UndefinedBehaviorSanitizer (UB aborts), so a reader bug is a crash
# the fuzzer reports; tests/fuzz adds the targets. scripts/fuzz.sh configures build-fuzz/.
option(DPGPU_FUZZ "Build the libFuzzer targets of tests/fuzz (needs clang)" OFF)
if(DPGPU_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "DPGPU_FUZZ needs clang (CXX=clang++), not ${CMAKE_CXX_COMPILER_ID}")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
                      -fno-omit-frame-pointer -g)
  add_link_options(-fsanitize=address,undefined)
endif()
