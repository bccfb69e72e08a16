"""Benchmark: the engine against the sort, scikit-learn, the peers and a per-c loop, 10^3..10^7.

Run on demand (not part of the test suite):

    python benchmarks/bench_peers.py [--sizes 1e3 1e4 1e5 1e6 1e7] [--markdown]

Every (size, task) runs in a child process of its own, pinned to one thread, so that its
peak resident memory (interpreter and libraries included) is its own; each child times its
task once after a warm-up on 1 000 scores (imports, moment tables). The tasks, on n test
scores (and n training scores where a method needs them):

* ``argsort``: ``np.argsort`` of the scores (the sort every method starts with);
* ``roc_curve``: scikit-learn's ``roc_curve`` (a sort and cumulative counts);
* ``engine, 1 x 1``: ``expected_losses`` of score-driven at gamma = 4 (one method, one gamma);
* ``engine, all x 7``: ``expected_losses`` of every method at the paper's 7 gammas;
* ``per-c loop, 1 x 1``: the same one quantity as ``engine, 1 x 1`` by Lemma 1 at each of
  1 000 true costs (Beta CDF differences times the cost lines' heights, vectorised over the
  lines, a loop over c) -- the estimator without the engine;
* ``h_measure`` / ``hmeasure``: the H-measure, this package's and the ``hmeasure`` package's;
* ``decision_curve`` / ``dcurves``: net benefit at the 100 thresholds 0, 0.01, ..., 0.99, this
  package's and the ``dcurves`` package's ``dca``;
* ``method curve``: ``expected_net_benefit`` of rate-driven at gamma = 4 at those thresholds
  (the decision curve of a threshold choice method under uncertainty).

A task whose time at the previous size, scaled by the size ratio to the power 1.5, would
exceed ``--budget`` seconds is left out ("-"). It prints one CSV row per (size, task) and,
with ``--markdown``, a table of seconds and peak MB per size and the ratio of each task to
``argsort``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

_SETUP = r"""
import json, sys, time, resource
import numpy as np
n = int(float(sys.argv[1]))
task = sys.argv[2]
def data(seed, size):
    r = np.random.default_rng(seed)
    y = (r.random(size) < 0.5).astype(np.int8)
    return y, np.clip(0.3 * y + 0.7 * r.random(size), 0, 1)
"""

_TASKS: dict[str, str] = {
    "argsort": "run = lambda y, s, ty, ts: np.argsort(s)",
    "roc_curve": "from sklearn.metrics import roc_curve\n"
                 "run = lambda y, s, ty, ts: roc_curve(y, s)",
    "engine, 1 x 1": "from threshold_choice import expected_losses\n"
                     "run = lambda y, s, ty, ts: expected_losses(y, s, methods=['score-driven'],"
                     " gammas=[4.0])",
    "engine, all x 7": "from threshold_choice import expected_losses\n"
                      "from threshold_choice.methods import METHODS\n"
                      "run = lambda y, s, ty, ts: expected_losses(y, s, train_y=ty, train_s=ts,"
                      " methods=METHODS, gammas=[np.inf, 16, 8, 4, 2, 1, 0])",
    "per-c loop, 1 x 1": r"""
from scipy.special import betainc
from threshold_choice.costlines import CostLines
from threshold_choice.methods import make_selection
def run(y, s, ty, ts):
    sel = make_selection("score-driven", CostLines.from_scores(y, s))
    edges = np.concatenate(([0.0], np.clip(sel.breaks, 0.0, 1.0), [1.0]))
    total = 0.0
    for c in np.arange(1, 1001) / 1000:  # Lemma 1 at each true cost
        dv = np.diff(betainc(4.0 * c + 1.0, 4.0 * (1.0 - c) + 1.0, edges))
        total += (sel.coef[:, 0] + sel.coef[:, 1] * c) @ dv
    return total / 1000
""",
    "h_measure": "from threshold_choice.costlines import CostLines\n"
                 "from threshold_choice.metrics import h_measure\n"
                 "run = lambda y, s, ty, ts: h_measure(CostLines.from_scores(y, s))",
    "hmeasure": "import hmeasure\n"
                "run = lambda y, s, ty, ts: hmeasure.h_score(y.astype(int), s)",
    "decision_curve": "from threshold_choice.decision_curves import decision_curve\n"
                      "run = lambda y, s, ty, ts: decision_curve(y, s)",
    "dcurves": "import pandas as pd, dcurves\n"
               "run = lambda y, s, ty, ts: dcurves.dca(data=pd.DataFrame({'outcome': y,"
               " 'model': s}), outcome='outcome', modelnames=['model'],"
               " thresholds=np.arange(100) / 100)",
    "method curve": r"""
from threshold_choice.costlines import CostLines
from threshold_choice.decision_curves import expected_net_benefit
from threshold_choice.methods import make_selection
def run(y, s, ty, ts):
    lines = CostLines.from_scores(y, s)
    sel = make_selection("rate-driven", lines)
    return expected_net_benefit(sel, 4.0, np.arange(100) / 100, pi1=lines.pi1)
""",
}

_RUN = r"""
y, s = data(1, 1000); ty, ts = data(2, 1000)
run(y, s, ty, ts)  # warm-up: imports, moment tables
y, s = data(1, n); ty, ts = data(2, n)
start = time.perf_counter()
run(y, s, ty, ts)
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"seconds": seconds, "peak_mb": peak}))
"""


def _child(n: int, task: str) -> dict[str, float]:
    env = {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1",
           "MKL_NUM_THREADS": "1"}
    code = _SETUP + _TASKS[task] + "\n" + _RUN
    done = subprocess.run([sys.executable, "-c", code, str(n), task], env=env,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", type=float, default=[1e3, 1e4, 1e5, 1e6, 1e7])
    parser.add_argument("--tasks", nargs="+", choices=list(_TASKS), default=list(_TASKS))
    parser.add_argument("--budget", type=float, default=120.0,
                        help="leave out a task expected to take longer (seconds)")
    parser.add_argument("--markdown", action="store_true", help="also print a Markdown table")
    args = parser.parse_args()
    sizes = [int(n) for n in args.sizes]
    results: dict[tuple[int, str], dict[str, float]] = {}
    print("n,task,seconds,peak_mb")
    for task in args.tasks:
        previous: tuple[int, float] | None = None
        for n in sizes:
            if previous is not None and previous[1] * (n / previous[0]) ** 1.5 > args.budget:
                print(f"{n},{task},,", flush=True)
                continue
            result = _child(n, task)
            results[n, task] = result
            previous = (n, result["seconds"])
            print(f"{n},{task},{result['seconds']:.4g},{result['peak_mb']:.0f}", flush=True)
    if args.markdown:
        print()
        print("| task | " + " | ".join(f"n = {n:.0e}".replace("e+0", "e") for n in sizes) + " |")
        print("|---|" + "---|" * len(sizes))
        for task in args.tasks:
            cells = []
            for n in sizes:
                r = results.get((n, task))
                base = results.get((n, "argsort"))
                if r is None:
                    cells.append("-")
                    continue
                ratio = f", {r['seconds'] / base['seconds']:,.0f}x sort" if base else ""
                cells.append(f"{_fmt(r['seconds'])} / {r['peak_mb']:,.0f} MB{ratio}")
            print(f"| {task} | " + " | ".join(cells) + " |")
    return 0


def _fmt(seconds: float) -> str:
    return f"{seconds * 1e3:.3g} ms" if seconds < 1 else f"{seconds:.3g} s"


if __name__ == "__main__":
    raise SystemExit(main())
