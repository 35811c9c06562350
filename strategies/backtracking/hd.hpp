// hd.hpp — marks functions shared by the kernels and the host (unit tests, the CPU emulation
// in the tests): __host__ __device__ under nvcc, plain inline otherwise.
#pragma once
#if defined(__CUDACC__)
#define BT_HD __host__ __device__ __forceinline__
#else
#define BT_HD inline
#endif
