"""Benchmark: time and peak memory of one run of every method x 7 gammas as n grows.

Run on demand (not part of the test suite):

    python benchmarks/bench_scale_memory.py [--sizes 1e5 1e6 3e6] [--methods M ...] [--repeat N]

Each size runs in a child process (so that its peak resident memory is its own): test and
training scores of n examples each, ``expected_losses`` with every method of
``methods.METHODS`` (or those of ``--methods``) at the paper's 7 gammas (exact estimator),
after the moment tables are built on a small run. It prints n, the run's seconds (wall
clock) and CPU seconds (the process's: less sensitive to other jobs on a shared machine),
the best of ``--repeat`` runs each, the child's peak RSS and the bytes per score pair, and
the growth exponent of the time between consecutive sizes. One thread. The library is the
one Python imports: ``PYTHONPATH=other/src`` times another checkout's.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import subprocess
import sys

_CHILD = r"""
import json, sys, time
import numpy as np
from threshold_choice import expected_losses
from threshold_choice.methods import METHODS
n, repeat = int(float(sys.argv[1])), int(sys.argv[2])
if len(sys.argv) > 3:
    METHODS = sys.argv[3:]
def data(seed, size):
    r = np.random.default_rng(seed)
    y = (r.random(size) < 0.5).astype(np.int8)
    return y, np.clip(0.3 * y + 0.7 * r.random(size), 0, 1)
gammas = [np.inf, 16, 8, 4, 2, 1, 0]
y, s = data(1, 1000); ty, ts = data(2, 1000)
expected_losses(y, s, train_y=ty, train_s=ts, methods=METHODS, gammas=gammas)  # the tables
y, s = data(1, n); ty, ts = data(2, n)
seconds = cpu = float("inf")
for _ in range(repeat):
    start, start_cpu = time.perf_counter(), time.process_time()
    expected_losses(y, s, train_y=ty, train_s=ts, methods=METHODS, gammas=gammas)
    seconds = min(seconds, time.perf_counter() - start)
    cpu = min(cpu, time.process_time() - start_cpu)
print(json.dumps({"seconds": seconds, "cpu": cpu, "methods": len(METHODS)}))
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", type=float, default=[1e5, 1e6, 3e6])
    parser.add_argument("--methods", nargs="+", default=[],
                        help="these methods only (default: every registered method)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="runs per size, in the same process: the best of them is "
                        "printed (default: 1)")
    args = parser.parse_args()
    env = {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1",
           "MKL_NUM_THREADS": "1"}
    print("n,methods,seconds,cpu_seconds,peak_rss_mb,bytes_per_pair,time_exponent")
    previous = None
    for size in args.sizes:
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        out = subprocess.run([sys.executable, "-c", _CHILD, str(size), str(args.repeat),
                              *args.methods],
                             env=env, check=True,
                             capture_output=True, text=True).stdout
        peak_kb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        if peak_kb <= before:  # ru_maxrss is the largest child so far: a smaller n says 0
            peak_kb = float("nan")
        result = json.loads(out.strip().splitlines()[-1])
        exponent = ""
        if previous is not None:
            ratio = math.log(result["seconds"] / previous[1]) / math.log(size / previous[0])
            exponent = f"{ratio:.2f}"
        print(f"{size:.0e},{result['methods']},{result['seconds']:.2f},{result['cpu']:.2f},"
              f"{peak_kb / 1024:.0f},"
              f"{peak_kb * 1024 / size:.0f},{exponent}", flush=True)
        previous = (size, result["seconds"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
