#!/usr/bin/env python3
"""Predecessor traffic of two ways to split Held-Karp layers across G GPUs (tsp_split.hpp).

Each relaxation of cell (S, c_p) in layer k reads the k - 1 costs of S \\ {c_p} in layer k - 1.
It is remote when another GPU owns that predecessor. Two splits:
  equal  - GPU g owns ranks [g C(m,k)/G, (g+1) C(m,k)/G) of every layer (colex order): the
           one gpu.wavefront uses;
  top    - by the highest cities' membership (G = 2: whether city m-1 is in S; G = 4: cities
           m-1 and m-2): remote only when c_p is one of them, but the shares are C(m-1, k) and
           C(m-1, k-1), i.e. (m-k)/m and k/m of a layer.
Prints, weighted by each layer's relaxations: the remote fraction (sampled, fixed seed) and
the time of the slowest GPU over the ideal (sum over layers of the largest share's work /
(all work / G)). Usage: tsp_split_traffic.py [m ...]   (default 24 32 33 34)
"""
import random
import sys
from math import comb


def rank(s):
    return sum(comb(c, i + 1) for i, c in enumerate(s))


def equal_owner(m, k, g_count, r):
    size = comb(m, k)
    g = 0
    while g + 1 < g_count and size * (g + 1) // g_count <= r:
        g += 1
    return g


def top_owner(m, g_count, s):
    bits = 1 if g_count == 2 else 2
    return sum(1 << b for b in range(bits) if (m - 1 - b) in s)


def measure(m, g_count, split, samples=3000, seed=39):
    rnd = random.Random(seed)
    total = remote = slow = 0.0
    for k in range(2, m + 1):
        work = comb(m, k) * k * (k - 1)
        hits = 0
        for _ in range(samples):
            s = sorted(rnd.sample(range(m), k))
            p = rnd.randrange(k)
            t = s[:p] + s[p + 1:]
            if split == "equal":
                far = equal_owner(m, k, g_count, rank(s)) != equal_owner(m, k - 1, g_count, rank(t))
            else:
                far = top_owner(m, g_count, s) != top_owner(m, g_count, t)
            hits += far
        total += work
        remote += work * hits / samples
        if split == "equal":
            largest = -(-comb(m, k) // g_count)
        else:
            bits = 1 if g_count == 2 else 2
            largest = max(comb(m - bits, k - j) * comb(bits, j) // comb(bits, j) for j in range(bits + 1))
        slow += largest * k * (k - 1)
    return remote / total, slow / (total / g_count)


def main():
    ms = [int(a) for a in sys.argv[1:]] or [24, 32, 33, 34]
    print("m  G  split  remote-fraction  slowest/ideal")
    for m in ms:
        for g_count in (2, 4):
            for split in ("equal", "top"):
                f, t = measure(m, g_count, split)
                print(f"{m} {g_count} {split:5} {f:.3f} {t:.2f}")


if __name__ == "__main__":
    main()
