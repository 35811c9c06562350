# dpgpu_add_test(NAME src... LIBS lib...): one GoogleTest binary, each test a ctest case.
# GTEST_SKIP() shows as skipped in ctest (GPU tests on a machine without a GPU).
# RUN_SERIAL: no other test runs beside it (the GPU's performance counters serve one profiling
# process at a time; a second one gets CUPTI_ERROR_HARDWARE_BUSY under `ctest -j`).
function(dpgpu_add_test name)
  cmake_parse_arguments(T "RUN_SERIAL" "" "LIBS" ${ARGN})
  set(serial)
  if(T_RUN_SERIAL)
    set(serial RUN_SERIAL TRUE)
  endif()
  add_executable(${name} ${T_UNPARSED_ARGUMENTS})
  target_link_libraries(${name} PRIVATE ${T_LIBS} GTest::gtest GTest::gtest_main)
  gtest_discover_tests(${name}
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
    PROPERTIES SKIP_REGULAR_EXPRESSION "  SKIPPED "  # no brackets: CMake 4 quotes values in [[ ]]
               ENVIRONMENT "DPGPU_SHARED=${PROJECT_SOURCE_DIR}/../shared" ${serial}
    DISCOVERY_TIMEOUT 60)
endfunction()

# dpgpu_register_library(TARGET): a library whose static registrations (problems, solvers)
# must reach the `dpgpu` binary and the end-to-end tests; linked whole-archive there.
function(dpgpu_register_library target)
  set_property(GLOBAL APPEND PROPERTY DPGPU_REGISTERED_LIBS ${target})
endfunction()

# dpgpu_link_registered(TARGET lib...): links the libraries and every object file in them,
# so their static registrations reach TARGET even where nothing refers to them by name.
function(dpgpu_link_registered target)
  foreach(lib IN LISTS ARGN)
    target_sources(${target} PRIVATE $<TARGET_OBJECTS:${lib}>)
    target_link_libraries(${target} PRIVATE ${lib})
  endforeach()
endfunction()
