"""Benchmark: bootstrap confidence intervals for the workflow's methods x 7 gammas.

Run on demand (not part of the test suite):

    python benchmarks/bench_bootstrap.py [--n 2300] [--replicates 1000] [--check 20]

Times :func:`threshold_choice.bootstrap.bootstrap` for ``n`` test scores (training scores of
the same size, the 11 methods the workflow evaluates x the paper's 7 gammas, the metrics
too, exact estimator, stratified), after the one-off per-gamma setup (moment tables, timed
separately), and compares with the plain way: ``expected_losses`` on each resampled test set
(timed on ``--check`` replicates and scaled), whose results the fast path must equal
(largest difference printed). Wall-clock and CPU time are both reported: on a shared machine
the CPU time of the process is the one-core figure. The run is pinned to one thread
(BLAS/OpenMP).
Target: 1 000 replicates for n = 2 300 in under 20 s on one core.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # one core (before numpy is imported)

import argparse  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402
from bench_expected_loss import WORKFLOW_METHODS as METHODS  # noqa: E402
from bench_expected_loss import scores  # noqa: E402  (the same synthetic scores)

from threshold_choice.bootstrap import bootstrap, resample_counts  # noqa: E402
from threshold_choice.evaluation import PAPER_GAMMAS, expected_losses  # noqa: E402
from threshold_choice.moment_tables import moment_table  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2300)
    parser.add_argument("--replicates", type=int, default=1000)
    parser.add_argument("--check", type=int, default=20, help="replicates of the plain way")
    args = parser.parse_args()

    t0 = time.perf_counter()
    for g in PAPER_GAMMAS:
        moment_table(g)
    print(f"one-off setup (moment tables for gammas {PAPER_GAMMAS}): "
          f"{time.perf_counter() - t0:.2f} s")
    y, s = scores(args.n, 1)
    ty, ts = scores(args.n, 2)
    kw = {"train_y": ty, "train_s": ts, "methods": METHODS, "gammas": PAPER_GAMMAS}
    bootstrap(y, s, n_boot=5, **kw)  # warm up

    wall, cpu = time.perf_counter(), time.process_time()
    boot = bootstrap(y, s, n_boot=args.replicates, seed=0, **kw)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    cells = len(METHODS) * len(PAPER_GAMMAS)
    print(f"bootstrap: n = {args.n}, {args.replicates} replicates x {len(METHODS)} methods x "
          f"{len(PAPER_GAMMAS)} gammas (+ metrics): wall {wall:.2f} s, CPU {cpu:.2f} s "
          f"({1e3 * cpu / args.replicates:.2f} ms CPU per replicate of {cells} losses)")

    counts = resample_counts(y, args.replicates, 0)
    worst = 0.0
    plain_wall, plain_cpu = time.perf_counter(), time.process_time()
    for r in range(args.check):
        idx = np.repeat(np.arange(y.size), counts[r])
        frame = expected_losses(y[idx], s[idx], **kw)
        plain = frame["expected_loss"].to_numpy().reshape(len(PAPER_GAMMAS), len(METHODS)).T
        worst = max(worst, float(np.max(np.abs(plain - boot.replicates[r]))))
    scale = args.replicates / args.check
    plain_wall = (time.perf_counter() - plain_wall) * scale
    plain_cpu = (time.process_time() - plain_cpu) * scale
    print(f"plain expected_losses per replicate (losses only, {args.check} timed, scaled "
          f"x{scale:g}): wall {plain_wall:.2f} s, CPU {plain_cpu:.2f} s; "
          f"speed-up (CPU) {plain_cpu / cpu:.1f}x")
    print(f"largest difference from the plain way on {args.check} replicates: {worst:.2e}")
    print(f"target (< 20 s on one core): {'met' if cpu < 20 else 'NOT met'} (CPU {cpu:.2f} s)")


if __name__ == "__main__":
    main()
