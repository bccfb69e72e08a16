"""Benchmark: the workflow's threshold choice methods x 7 gammas with the exact estimator.

Run on demand (not part of the test suite):

    python benchmarks/bench_expected_loss.py [--sizes 100 2300 100000] [--repeat 5]
        [--distributions [uniform beta:2,2 uniform:0.05,0.2 logit-uniform:0.01,0.5]]
        [--methods M ...]

For each number of test scores n it reports the time of one run (the 11 methods the workflow
evaluates, ``config/config.yaml``'s ``evaluation.methods``, or ``--methods``, x the paper's
7 gammas, training scores of the same size: ``evaluation.expected_losses``, the pipeline's
per-run call), after the one-off per-gamma setup (moment tables built cold, in a fresh cache
folder, and timed separately), next to a plain per-c loop of the same quantity: for each
true cost on a 1000-point grid, Lemma 1 (Beta CDF differences times cost-line heights),
vectorised over lines but looping over c. The loop baseline is timed on ONE method (score-
driven, gamma = 4) and scaled by the number of (method, gamma) pairs with 0 < gamma < inf,
11 x 5 = 55; the report says so. That flatters the loop: rate-driven and the skew/aware
variants need more work per c than score-driven, and gamma = inf and 0 (closed forms) are
left out of the loop's count. The run is pinned to one thread (BLAS/OpenMP) so that it
measures one core.

The same run under each cost distribution (``--distributions``; the paper's uniform first) is
reported next to it: the per-(gamma, distribution) setup (moment tables) and the per-run time.
A last line times the setup at gammas the paper does not use (1e6, 1e15: windowed tables).
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # one core (before numpy is imported)

import argparse  # noqa: E402
import atexit  # noqa: E402
import shutil  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import yaml  # noqa: E402
from scipy.special import betainc  # noqa: E402

from threshold_choice.cost_distributions import parse_cost_distribution  # noqa: E402
from threshold_choice.costlines import CostLines  # noqa: E402
from threshold_choice.evaluation import PAPER_GAMMAS, LossSettings, expected_losses  # noqa: E402
from threshold_choice.methods import make_selection  # noqa: E402
from threshold_choice.moment_tables import moment_table  # noqa: E402

#: the methods the workflow evaluates (one fact: the default configuration)
WORKFLOW_METHODS: list[str] = yaml.safe_load(
    (Path(__file__).resolve().parents[1] / "config" / "config.yaml").read_text()
)["evaluation"]["methods"]
DISTRIBUTIONS = ["uniform", "beta:2,2", "uniform:0.05,0.2", "logit-uniform:0.01,0.5"]


def scores(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.6).astype(np.int8)
    return y, np.clip(0.3 * y + 0.7 * rng.random(n), 0, 1)


def per_c_loop(y: np.ndarray, s: np.ndarray, gamma: float, grid: int = 1000) -> float:
    sel = make_selection("score-driven", CostLines.from_scores(y, s))
    edges = np.concatenate(([0.0], np.clip(sel.breaks, 0, 1), [1.0]))
    total = 0.0
    for i in range(1, grid + 1):
        c = i / grid
        v = betainc(gamma * c + 1, gamma * (1 - c) + 1, edges)
        total += np.sum(np.diff(v) * (sel.coef[:, 0] + sel.coef[:, 1] * c))
    return total / grid


def best_run(y, s, ty, ts, settings: LossSettings, repeat: int, methods: list[str]) -> float:
    expected_losses(y, s, train_y=ty, train_s=ts, methods=methods, settings=settings)  # warm up
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        expected_losses(y, s, train_y=ty, train_s=ts, methods=methods, settings=settings)
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 2300, 100_000])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--distributions", nargs="*", default=DISTRIBUTIONS,
                        help="the cost distributions (all four when given no value)")
    parser.add_argument("--methods", nargs="+", default=WORKFLOW_METHODS)
    args = parser.parse_args()
    dists = [parse_cost_distribution(d) for d in args.distributions or DISTRIBUTIONS]
    methods = args.methods
    # the setup is timed cold: the moment tables built, not read from an earlier run's cache
    cold = tempfile.mkdtemp(prefix="bench-moments-")
    atexit.register(shutil.rmtree, cold, ignore_errors=True)
    os.environ["THRESHOLD_CHOICE_CACHE"] = cold

    setups = []
    for dist in dists:
        t0 = time.perf_counter()
        for g in PAPER_GAMMAS:
            moment_table(g, None, dist)
        setups.append(time.perf_counter() - t0)
    print(f"one-off setup (moment tables for gammas {PAPER_GAMMAS}, built in an empty cache):")
    print("  " + ", ".join(f"{d.spec} {t:.2f} s" for d, t in zip(dists, setups, strict=True)))
    finite = [g for g in PAPER_GAMMAS if 0 < g < float("inf")]
    scale = len(methods) * len(finite)
    print(
        f"per-c loop: timed on score-driven at gamma = 4 only, scaled x{scale} "
        f"({len(methods)} methods x {len(finite)} gammas in (0, inf)); exact: best of "
        f"{args.repeat}"
    )
    print(f"exact, {len(methods)} methods x 7 gammas, one run, per cost distribution (ms):")
    header = ["n", *(d.spec for d in dists), "per-c loop (scaled)", "speed-up"]
    widths = [8, *(max(10, len(d.spec)) for d in dists), 20, 9]
    print(" ".join(f"{h:>{w}}" for h, w in zip(header, widths, strict=True)))
    for n in args.sizes:
        y, s = scores(n, 1)
        ty, ts = scores(n, 2)
        runs = [best_run(y, s, ty, ts, LossSettings(cost_distribution=d), args.repeat, methods)
                for d in dists]
        t = time.perf_counter()
        per_c_loop(y, s, 4.0)
        loop = (time.perf_counter() - t) * scale
        cells = [f"{n:>8}", *(f"{r * 1e3:>{w}.1f}" for r, w in zip(runs, widths[1:], strict=False))]
        cells += [f"{loop:>18.2f} s", f"{loop / runs[0]:>8.0f}x"]
        print(" ".join(cells))
        if n == 2300:  # the target: a typical test set of the paper's datasets
            met = runs[0] < 0.020 and loop / runs[0] >= 1000
            print(f"{'':>8} target at n = 2300 (< 20 ms, >= 1000x): {'met' if met else 'NOT met'}")
    for g in (1e6, 1e15):
        t0 = time.perf_counter()
        for dist in dists:
            moment_table(g, None, dist)
        each = (time.perf_counter() - t0) / len(dists)
        print(f"setup of one table at gamma = {g:g} (windowed): {each:.2f} s on average")


if __name__ == "__main__":
    main()
