#!/usr/bin/env python3
"""StringZilla's batched Levenshtein as a worker process for dpgpu's peer.stringzilla solvers.

dpgpu (peers/stringzilla/worker.cpp) starts it once per case and talks to it over its stdin
and stdout: a text line per command, binary payloads little-endian.

  (start)  -> "ready <stringzilla version> <capabilities,comma,separated>\n"
              or "error <why>\n" (then it exits)
  load <cross> <na> <nb> <bytes_a> <bytes_b>\n, then offsets_a (int64 x na+1), text_a,
           offsets_b (int64 x nb+1), text_b
           -> "loaded <seconds>\n"          builds the sz.Strs, untimed by the library clock
  run <gpu|cpu> <device or cores> <block>\n
           -> "done <library_s> <calls> <cells> <pairs>\n" then int32 x pairs (pair order)
  quit\n   -> exits

Only the engine calls are timed (time.perf_counter around each, summed): the strings are built
and moved to the device (szs.to_device) at load or before the first call of a run, the engine
is built once per backend. On the GPU the call returns a host numpy array, so it has finished
when it returns. `cross`: one call over all of A and all of B. Independent pairs: StringZilla
5.x computes only cross products, so pairs go in blocks of `block`: one call per block of
block x block pairs, keeping its diagonal (block 1: one 1x1 call per pair).
`python3 sz_worker.py --probe` prints the ready line (or the error) and exits: for CMake.
"""
import sys
import time


def reply(line):
    sys.stdout.buffer.write((line + "\n").encode())
    sys.stdout.buffer.flush()


def start():
    try:
        import numpy as np
        import stringzilla as sz
        import stringzillas as szs
    except Exception as e:  # absent package, or one built for another Python
        reply("error cannot import stringzilla/stringzillas with %s (%s: %s)"
              % (sys.executable, type(e).__name__, str(e).replace("\n", " ")))
        sys.exit(1)
    caps = getattr(szs, "__capabilities__", ())
    reply("ready %s %s" % (getattr(sz, "__version__", "?"), ",".join(caps) or "none"))
    return np, sz, szs


def read_exact(n):
    data = sys.stdin.buffer.read(n)
    if len(data) != n:
        raise EOFError("input ended after %d of %d bytes" % (len(data), n))
    return data


def read_strings(np, count, nbytes):
    offsets = np.frombuffer(read_exact(8 * (count + 1)), dtype="<i8")
    text = read_exact(nbytes)
    return [text[offsets[i]:offsets[i + 1]] for i in range(count)]


class Batch:
    def __init__(self, np, sz, szs, cross, a, b):
        self.np, self.sz, self.szs = np, sz, szs
        self.cross, self.a, self.b = cross, a, b
        self.prepared = {}  # (backend, block) -> list of (Strs, Strs) per call
        self.engines = {}   # (backend, device) -> (engine, scope)

    def calls(self, backend, block):
        key = (backend, block if not self.cross else 0)
        if key not in self.prepared:
            sz, szs = self.sz, self.szs
            if self.cross:
                groups = [(self.a, self.b)]
            else:
                groups = [(self.a[k:k + block], self.b[k:k + block])
                          for k in range(0, len(self.a), block)]
            out = []
            for ga, gb in groups:
                sa, sb = sz.Strs(ga), sz.Strs(gb)
                if backend == "gpu":
                    sa, sb = szs.to_device(sa), szs.to_device(sb)
                out.append((sa, sb))
            self.prepared = {key: out}  # one layout kept at a time
        return self.prepared[key]

    def engine(self, backend, where):
        key = (backend, where)
        if key not in self.engines:
            szs = self.szs
            scope = (szs.DeviceScope(gpu_device=where) if backend == "gpu"
                     else szs.DeviceScope(cpu_cores=where))
            self.engines[key] = (szs.LevenshteinDistances(capabilities=scope), scope)
        return self.engines[key]

    def run(self, backend, where, block):
        np = self.np
        engine, scope = self.engine(backend, where)
        groups = self.calls(backend, block)
        seconds, cells, parts = 0.0, 0, []
        for sa, sb in groups:
            t0 = time.perf_counter()
            m = engine(sa, sb, device=scope)
            seconds += time.perf_counter() - t0
            cells += sum(len(s) for s in sa) * sum(len(s) for s in sb)
            parts.append(m.reshape(-1) if self.cross else np.diagonal(m))
        d = np.concatenate(parts) if parts else np.zeros(0, dtype=np.uint64)
        return seconds, len(groups), cells, d.astype("<i4")


def serve(np, sz, szs):
    batch = None
    for raw in iter(sys.stdin.buffer.readline, b""):
        words = raw.decode().split()
        if not words:
            continue
        try:
            if words[0] == "quit":
                return
            if words[0] == "load":
                cross, na, nb, bytes_a, bytes_b = (int(w) for w in words[1:6])
                t0 = time.perf_counter()
                a = read_strings(np, na, bytes_a)
                b = read_strings(np, nb, bytes_b)
                batch = Batch(np, sz, szs, bool(cross), a, b)
                reply("loaded %.9f" % (time.perf_counter() - t0))
            elif words[0] == "run":
                if batch is None:
                    raise RuntimeError("run before load")
                seconds, calls, cells, d = batch.run(words[1], int(words[2]), int(words[3]))
                reply("done %.9f %d %d %d" % (seconds, calls, cells, len(d)))
                sys.stdout.buffer.write(d.tobytes())
                sys.stdout.buffer.flush()
            else:
                raise RuntimeError("unknown command '%s'" % words[0])
        except EOFError as e:
            reply("error %s" % e)
            return
        except Exception as e:
            reply("error %s: %s" % (type(e).__name__, str(e).replace("\n", " ")))


def main():
    np, sz, szs = start()
    if "--probe" in sys.argv[1:]:
        return
    serve(np, sz, szs)


if __name__ == "__main__":
    main()
