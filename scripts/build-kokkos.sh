#!/usr/bin/env bash
# Builds and installs Kokkos from its public source archive, for DPGPU_KOKKOS.
#
#   scripts/build-kokkos.sh TARBALL PREFIX [--cuda]
#
# Serial and OpenMP backends always; with --cuda also CUDA for Hopper (Kokkos_ARCH_HOPPER90),
# compiled through CMake's CUDA language (Kokkos_ENABLE_COMPILE_AS_CMAKE_LANGUAGE), so neither
# Kokkos nor dpgpu goes through nvcc_wrapper (whose default sm_70 CUDA 13 rejects).
# Then configure dpgpu with -DKokkos_ROOT=PREFIX. A second call with the same archive and
# options finds PREFIX/.dpgpu-stamp and returns at once.
#
# CUDA 13 changed three runtime calls Kokkos 4.6.01 uses (core/src/Cuda/Kokkos_Cuda_Instance.hpp):
# cudaGraphAddDependencies gained an edge-data argument, cudaMemAdvise and cudaMemPrefetchAsync
# take a cudaMemLocation (prefetch also flags). The unpacked sources are adapted below, guarded
# by CUDART_VERSION so the same sources still build with CUDA 12.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: $0 TARBALL PREFIX [--cuda]" >&2; exit 2; }
tarball=$(realpath "$1")
prefix=$(realpath -m "$2")
cuda=0
[ "${3:-}" = "--cuda" ] && cuda=1
[ -f "$tarball" ] || { echo "build-kokkos: no archive at $tarball" >&2; exit 1; }
export PATH="$PATH:/usr/local/cuda/bin"

stamp="$(sha256sum "$tarball" | cut -c1-16) cuda=$cuda patch=1 ext=1"
if [ -f "$prefix/.dpgpu-stamp" ] && [ "$(cat "$prefix/.dpgpu-stamp")" = "$stamp" ]; then
  echo "build-kokkos: $prefix is up to date ($stamp)"
  exit 0
fi

work=$prefix.build
rm -rf "$work" "$prefix"
mkdir -p "$work"
tar -xzf "$tarball" -C "$work"
src=$(find "$work" -mindepth 1 -maxdepth 1 -type d | head -1)

# --- CUDA 13 adaptation (three wrappers in one header) ---
python3 - "$src/core/src/Cuda/Kokkos_Cuda_Instance.hpp" <<'EOF'
import sys
path = sys.argv[1]
text = open(path).read()
patches = [
    ("    return cudaGraphAddDependencies(graph, from, to, numDependencies);\n",
     "#if CUDART_VERSION >= 13000\n"
     "    return cudaGraphAddDependencies(graph, from, to, nullptr, numDependencies);\n"
     "#else\n"
     "    return cudaGraphAddDependencies(graph, from, to, numDependencies);\n"
     "#endif\n"),
    ("    return cudaMemAdvise(devPtr, count, advice, device);\n",
     "#if CUDART_VERSION >= 13000\n"
     "    cudaMemLocation location{};\n"
     "    location.type = device == cudaCpuDeviceId ? cudaMemLocationTypeHost\n"
     "                                              : cudaMemLocationTypeDevice;\n"
     "    location.id = device == cudaCpuDeviceId ? 0 : device;\n"
     "    return cudaMemAdvise(devPtr, count, advice, location);\n"
     "#else\n"
     "    return cudaMemAdvise(devPtr, count, advice, device);\n"
     "#endif\n"),
    ("    return cudaMemPrefetchAsync(devPtr, count, dstDevice,\n"
     "                                get_input_stream(stream));\n",
     "#if CUDART_VERSION >= 13000\n"
     "    cudaMemLocation location{};\n"
     "    location.type = dstDevice == cudaCpuDeviceId ? cudaMemLocationTypeHost\n"
     "                                                 : cudaMemLocationTypeDevice;\n"
     "    location.id = dstDevice == cudaCpuDeviceId ? 0 : dstDevice;\n"
     "    return cudaMemPrefetchAsync(devPtr, count, location, 0,\n"
     "                                get_input_stream(stream));\n"
     "#else\n"
     "    return cudaMemPrefetchAsync(devPtr, count, dstDevice,\n"
     "                                get_input_stream(stream));\n"
     "#endif\n"),
]
for old, new in patches:
    if text.count(old) != 1:
        sys.exit(f"build-kokkos: {path}: expected exactly one of:\n{old}")
    text = text.replace(old, new)
open(path, "w").write(text)
print(f"build-kokkos: adapted {path} for CUDA 13")
EOF

args=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix"
      -DCMAKE_CXX_STANDARD=20 -DCMAKE_CXX_EXTENSIONS=ON -DBUILD_SHARED_LIBS=OFF
      -DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_OPENMP=ON
      -DKokkos_ENABLE_TESTS=OFF -DKokkos_ENABLE_EXAMPLES=OFF -DKokkos_ENABLE_BENCHMARKS=OFF)
if command -v ccache >/dev/null; then
  args+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_CUDA_COMPILER_LAUNCHER=ccache)
fi
if [ $cuda = 1 ]; then
  args+=(-DKokkos_ENABLE_CUDA=ON -DKokkos_ARCH_HOPPER90=ON -DKokkos_ENABLE_COMPILE_AS_CMAKE_LANGUAGE=ON
         -DKokkos_ENABLE_CUDA_LAMBDA=ON -DCMAKE_CUDA_STANDARD=20
         # CMake 3.25 knows no C++20 flag for nvcc (as in cmake/cuda.cmake)
         -DCMAKE_CUDA20_STANDARD_COMPILE_OPTION=-std=c++20 -DCMAKE_CUDA20_EXTENSION_COMPILE_OPTION=-std=c++20)
fi
cmake -S "$src" -B "$work/build" "${args[@]}"
cmake --build "$work/build" -j "$(nproc)"
cmake --install "$work/build" >/dev/null
echo "$stamp" > "$prefix/.dpgpu-stamp"
rm -rf "$work"
echo "build-kokkos: installed into $prefix ($stamp)"
