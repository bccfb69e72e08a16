"""Fit and predict times of the scikit-learn model types on synthetic data.

Run on demand (not part of the test suite):

    python benchmarks/bench_models.py [--n 4600] [--features 57] [--repeat 3]

The default size is spambase's (4 601 rows, 57 numeric attributes), the largest of the
paper's datasets; one model per Table 6 type, built from ``config/models.yaml``, fitted on
half of the rows and scored on both halves as the pipeline does. Times are the best of
``--repeat`` runs on one core.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # one core (before numpy is imported)

import argparse  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from threshold_choice.models.registry import build_model, load_model_registry  # noqa: E402
from threshold_choice.reproduction.scores import scores_for  # noqa: E402

REGISTRY = Path(__file__).resolve().parents[1] / "config" / "models.yaml"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=4600)
    parser.add_argument("--features", type=int, default=57)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rng = np.random.default_rng(1)
    columns = [f"x{j}" for j in range(args.features)]
    X = pd.DataFrame(rng.random((args.n, args.features)), columns=columns)
    y = ((X["x0"] + 0.3 * X["x1"] + 0.2 * rng.standard_normal(args.n)) > 0.6).to_numpy(int)
    half = args.n // 2
    registry = load_model_registry(REGISTRY)
    print(f"{'model':>8} {'fit (s)':>9} {'predict both halves (s)':>24}")
    for name, spec in registry.items():
        fits, preds = [], []
        for _ in range(args.repeat):
            est = build_model(spec, seed=0)
            t0 = time.perf_counter()
            est.fit(X.iloc[:half], y[:half])
            t1 = time.perf_counter()
            for part in (X.iloc[:half], X.iloc[half:]):
                scores_for(est, part, crisp=spec.crisp, model=name)
            t2 = time.perf_counter()
            fits.append(t1 - t0)
            preds.append(t2 - t1)
        print(f"{name:>8} {min(fits):>9.3f} {min(preds):>24.3f}")


if __name__ == "__main__":
    main()
