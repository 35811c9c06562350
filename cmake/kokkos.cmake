# Decides DPGPU_WITH_KOKKOS: the Kokkos solvers (strategies/kokkos) are built when Kokkos 4 is
# found. DPGPU_KOKKOS: AUTO builds them when found, ON requires Kokkos, OFF never looks.
# Point Kokkos_ROOT at an installation: scripts/build-kokkos.sh's PREFIX, or your own (Spack's
# kokkos+openmp+cuda cuda_arch=90, a module). A Kokkos with its CUDA backend must have been
# built with Kokkos_ENABLE_COMPILE_AS_CMAKE_LANGUAGE (its sources then compile as CUDA here),
# and needs dpgpu's CUDA build on.
set(DPGPU_KOKKOS AUTO CACHE STRING "Build the Kokkos solvers: AUTO, ON or OFF")
set_property(CACHE DPGPU_KOKKOS PROPERTY STRINGS AUTO ON OFF)

set(DPGPU_WITH_KOKKOS OFF)
set(DPGPU_KOKKOS_CUDA OFF)
if(NOT DPGPU_KOKKOS STREQUAL "OFF")
  if(NOT DEFINED Kokkos_ROOT AND NOT DEFINED ENV{Kokkos_ROOT})
    # scripts/test.sh's prefix. A CUDA Kokkos (.kokkos/cuda) is taken only when named, since
    # it needs a GPU even for its host backend.
    set(_dpgpu_kokkos_hints ${PROJECT_SOURCE_DIR}/.kokkos/openmp)
  endif()
  find_package(Kokkos 4 CONFIG QUIET HINTS ${_dpgpu_kokkos_hints})
  if(Kokkos_FOUND)
    set(DPGPU_WITH_KOKKOS ON)
    if(Kokkos_ENABLE_CUDA)
      if(NOT DPGPU_WITH_CUDA)
        message(FATAL_ERROR "Kokkos at ${Kokkos_DIR} has its CUDA backend, but dpgpu's CUDA build is "
                            "off (DPGPU_CUDA): use a Kokkos without CUDA or turn CUDA on")
      endif()
      if(NOT Kokkos_COMPILE_LANGUAGE STREQUAL "CUDA")
        message(FATAL_ERROR "Kokkos at ${Kokkos_DIR} has its CUDA backend but was not built with "
                            "Kokkos_ENABLE_COMPILE_AS_CMAKE_LANGUAGE=ON (scripts/build-kokkos.sh does so)")
      endif()
      set(DPGPU_KOKKOS_CUDA ON)
    endif()
    if(NOT Kokkos_ENABLE_OPENMP)
      message(FATAL_ERROR "Kokkos at ${Kokkos_DIR} lacks the OpenMP backend that kokkos.wavefront_host uses")
    endif()
    message(STATUS "dpgpu: Kokkos ${Kokkos_VERSION} at ${Kokkos_DIR} (devices: ${Kokkos_DEVICES})")
  elseif(DPGPU_KOKKOS STREQUAL "ON")
    message(FATAL_ERROR "DPGPU_KOKKOS=ON but Kokkos 4 was not found: set Kokkos_ROOT to an installation "
                        "(scripts/build-kokkos.sh TARBALL PREFIX [--cuda] makes one)")
  else()
    message(STATUS "dpgpu: Kokkos not found; the kokkos.* solvers are registered as unavailable")
  endif()
endif()
