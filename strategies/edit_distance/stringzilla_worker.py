#!/usr/bin/env python3
"""peer.stringzilla's worker: StringZilla's batched Levenshtein (stringzillas 5.x) on the
strings dpgpu hands over, timing the library call alone.

    stringzilla_worker.py probe BACKEND            # exit 0 and print the version when usable
    stringzilla_worker.py run BACKEND IN OUT       # BACKEND: cuda or cpu

IN (written by stringzilla_peer.cpp, little-endian): b"DPSZ", u64 na, u64 nb, then for each
side u64 offsets[n + 1] and the bytes. stringzillas 5.x computes every pair of the two lists
(an na x nb matrix), so dpgpu passes only the cross shape. One call on the first few strings
warms the engine (and the GPU) up; then the whole call is timed with time.perf_counter, after
the strings are built and until the distances are back in host memory. OUT: a JSON line
{"seconds", "version", "backend"} and then the na*nb distances as u32, row-major.
"""
import json
import struct
import sys
import time


def fail(code, message):
    sys.stderr.write("stringzilla worker: " + message + "\n")
    sys.exit(code)


def load_library(backend):
    try:
        import numpy  # noqa: F401 - stringzillas returns NumPy arrays
        import stringzilla as sz
        import stringzillas as szs
    except ImportError as e:
        package = "stringzillas-cuda" if backend == "cuda" else "stringzillas-cpus"
        fail(3, f"cannot import it ({e}): pip install {package}==5.3.2 numpy")
    if backend == "cuda" and "cuda" not in szs.__capabilities__:
        fail(3, f"stringzillas {sz.__version__} has no CUDA capability "
                f"({', '.join(szs.__capabilities__)}): install stringzillas-cuda, not -cpus")
    return sz, szs


def read_side(data, at, count):
    offsets = struct.unpack_from(f"<{count + 1}Q", data, at)
    at += 8 * (count + 1)
    base = at
    strings = [data[base + offsets[i]:base + offsets[i + 1]] for i in range(count)]
    return strings, base + offsets[count]


def run(backend, path_in, path_out):
    sz, szs = load_library(backend)
    data = open(path_in, "rb").read()
    if data[:4] != b"DPSZ":
        fail(2, f"{path_in}: not a dpgpu StringZilla input")
    na, nb = struct.unpack_from("<QQ", data, 4)
    a, at = read_side(data, 20, na)
    b, _ = read_side(data, at, nb)
    scope = szs.DeviceScope(gpu_device=0) if backend == "cuda" else szs.DeviceScope(cpu_cores=0)
    engine = szs.LevenshteinDistances(capabilities=scope)
    strs_a, strs_b = sz.Strs(a), sz.Strs(b)
    engine(sz.Strs(a[:4]), sz.Strs(b[:4]), device=scope)  # warm-up, untimed
    start = time.perf_counter()
    d = engine(strs_a, strs_b, device=scope)
    seconds = time.perf_counter() - start
    if tuple(d.shape) != (na, nb):
        fail(4, f"stringzillas {sz.__version__} returned shape {tuple(d.shape)}, "
                f"expected every pair ({na}, {nb})")
    with open(path_out, "wb") as f:
        f.write((json.dumps({"seconds": seconds, "version": sz.__version__,
                             "backend": backend}) + "\n").encode())
        f.write(d.astype("<u4").tobytes())


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "probe":
        sz, _ = load_library(sys.argv[2])
        print(sz.__version__)
    elif len(sys.argv) == 5 and sys.argv[1] == "run":
        run(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        fail(2, "usage: stringzilla_worker.py probe BACKEND | run BACKEND IN OUT")


if __name__ == "__main__":
    main()
