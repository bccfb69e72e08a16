"""Peak memory of the bootstrap as the number of replicates grows (each run in its own process).

    python benchmarks/bench_bootstrap_memory.py [--n 100000] [--replicates 100 1000 10000]

Score-driven at gamma = inf (the fast path), no metrics: what is measured is the resampling
and the replicates' bookkeeping, whose memory is O(n x chunk) plus the results whatever the
number of replicates (see threshold_choice.bootstrap).
"""

from __future__ import annotations

import argparse
import subprocess
import sys

_CHILD = """
import resource, sys, time
import numpy as np
from threshold_choice.bootstrap import bootstrap
n, reps = int(sys.argv[1]), int(sys.argv[2])
rng = np.random.default_rng(0)
y = (rng.random(n) < 0.4).astype(int)
s = np.clip(rng.normal(0.4 + 0.2 * y, 0.2), 0, 1)
start = time.perf_counter()
bootstrap(y, s, methods=["score-driven"], gammas=[float("inf")], metrics=(), n_boot=reps)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"{time.perf_counter() - start:.1f} {peak:.0f}")
"""


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--replicates", type=int, nargs="+", default=[100, 1000])
    args = parser.parse_args(argv)
    print(f"{'n':>8} {'replicates':>10} {'seconds':>8} {'peak MB':>8}")
    for reps in args.replicates:
        out = subprocess.run([sys.executable, "-c", _CHILD, str(args.n), str(reps)],
                             capture_output=True, text=True, check=True).stdout.split()
        print(f"{args.n:>8} {reps:>10} {out[0]:>8} {out[1]:>8}")


if __name__ == "__main__":
    main()
