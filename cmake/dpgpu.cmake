# The data sets beside the clone (README.md, "Data sets beside the clone"): tests read
# $DPGPU_SHARED/data/<name> and skip without it.
set(DPGPU_SHARED "${PROJECT_SOURCE_DIR}/../shared" CACHE PATH "Folder of the shared data sets (tests read DPGPU_SHARED/data)")

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
               ENVIRONMENT "DPGPU_SHARED=${DPGPU_SHARED}" ${serial}
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

# dpgpu_add_subfolders(): every sub-folder of the current folder with a CMakeLists.txt is one
# problem / baseline family / strategy. The glob is re-checked at each build, so a new folder
# is picked up without re-running cmake by hand.
function(dpgpu_add_subfolders)
  file(GLOB children LIST_DIRECTORIES true CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*)
  foreach(child IN LISTS children)
    if(EXISTS ${child}/CMakeLists.txt)
      add_subdirectory(${child})
    endif()
  endforeach()
endfunction()

# dpgpu_add_baselines(PROBLEM [LIBS dep...]): the CPU solvers of one problem, one folder. Every
# .cpp but test_*.cpp goes into library dpgpu_baselines_<PROBLEM> (each solver's registration
# is its own <algorithm>_params.cpp beside the algorithm), every test_*.cpp into the test
# test_<PROBLEM>_baselines. Globbed, re-checked at each build: a new baseline is a new file
# and no list names it. Baselines are measured: optimised whatever the build type, portable
# code only (no -march=native: binaries travel between machines).
function(dpgpu_add_baselines problem)
  cmake_parse_arguments(B "" "" "LIBS" ${ARGN})
  set(lib dpgpu_baselines_${problem})
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cpp)
  file(GLOB tests CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/test_*.cpp)
  list(REMOVE_ITEM sources ${tests})
  add_library(${lib} STATIC ${sources})
  target_include_directories(${lib} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
  target_link_libraries(${lib} PUBLIC dpgpu_problem_${problem} OpenMP::OpenMP_CXX ${B_LIBS})
  target_compile_options(${lib} PRIVATE -O3)
  dpgpu_register_library(${lib})
  # The registrations are static objects that nothing references: link the library whole.
  if(tests)
    dpgpu_add_test(test_${problem}_baselines ${tests} LIBS "$<LINK_LIBRARY:WHOLE_ARCHIVE,${lib}>")
    # baselines/testing/registered_solve.hpp: solving through the registry, shared by the families.
    target_include_directories(test_${problem}_baselines PRIVATE ${PROJECT_SOURCE_DIR}/baselines/testing)
  endif()
endfunction()
