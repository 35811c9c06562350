# dpgpu_add_test(NAME src... LIBS lib...): one GoogleTest binary, each test a ctest case.
# GTEST_SKIP() shows as skipped in ctest (GPU tests on a machine without a GPU).
function(dpgpu_add_test name)
  cmake_parse_arguments(T "" "" "LIBS" ${ARGN})
  add_executable(${name} ${T_UNPARSED_ARGUMENTS})
  target_link_libraries(${name} PRIVATE ${T_LIBS} GTest::gtest GTest::gtest_main)
  gtest_discover_tests(${name}
    WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
    PROPERTIES SKIP_REGULAR_EXPRESSION "\\[  SKIPPED \\]"
               ENVIRONMENT "DPGPU_SHARED=${PROJECT_SOURCE_DIR}/../shared"
    DISCOVERY_TIMEOUT 60)
endfunction()
