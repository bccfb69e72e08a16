"""Benchmark: the ``authors`` estimator (the replay of the authors' draws, then the losses).

Run on demand (not part of the test suite), from the repository, after a run that fitted the
scores:

    python benchmarks/bench_authors_replay.py [--results results] [--datasets bupa musk1 ...]
        [--gammas inf 16 10 9 8 7 6 5 4 3 2 1 0]    (--datasets all: every dataset scored)

Prints, per dataset: the CPU seconds of the replay alone (R's stream after each of the 10
splits at every gamma: 12 x 1000 ``rbeta`` draws and 24 000 uniforms per split and finite
gamma) and of the whole evaluation with the ``authors`` and the ``grid`` estimators (the
paper's 11 methods; the moment tables of ``grid`` read from the run's cache when
``THRESHOLD_CHOICE_CACHE`` names it).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import pandas as pd

from threshold_choice.evaluation import LossSettings
from threshold_choice.reproduction.authors_draws import AUTHORS_MODELS, replay_iteration
from threshold_choice.reproduction.steps.evaluate import evaluate_as_authors, evaluate_scores
from threshold_choice.uncertainty import parse_gamma

METHODS = ["test-optimal", "train-optimal", "score-driven", "rate-driven", "score-uniform",
           "rate-uniform", "score-driven-z", "rate-driven-z", "test-optimal-aware",
           "train-optimal-aware", "score-driven-aware"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", type=Path, default=Path("results"))
    parser.add_argument("--datasets", nargs="*", default=["bupa", "musk1", "spambase"])
    parser.add_argument("--gammas", nargs="*",
                        default=["inf", "16", *map(str, range(10, -1, -1))])
    args = parser.parse_args()
    if args.datasets == ["all"]:  # every dataset the results folder has scores of
        args.datasets = sorted(d.name for d in (args.results / "scores").iterdir() if d.is_dir())
    gammas = [parse_gamma(g) for g in args.gammas]
    options = {"rate_threshold_offset": 1e-7, "tie_breaking": "authors"}
    rows = []
    for dataset in args.datasets:
        scores = {m: pd.read_parquet(args.results / "scores" / dataset / f"{m}.parquet")
                  for m in AUTHORS_MODELS}
        random = scores["Random"]
        sizes = [(int(s), int((f["part"] == "train").sum()), int((f["part"] == "test").sum()))
                 for s, f in random.groupby("split")]
        start = time.process_time()
        for split, n_train, n_test in sizes:
            for gamma in gammas:
                replay_iteration(split, n_train, n_test, gamma)
        replay = time.process_time() - start
        start = time.process_time()
        evaluate_as_authors(scores, dataset, methods=METHODS, gammas=gammas,
                            settings=LossSettings(estimator="authors", **options))
        authors = time.process_time() - start
        start = time.process_time()
        for model, table in scores.items():
            evaluate_scores(table, dataset, model, methods=METHODS, gammas=gammas,
                            settings=LossSettings(estimator="grid", **options))
        grid = time.process_time() - start
        rows.append((dataset, len(random), replay, authors, grid))
    table = pd.DataFrame(rows, columns=["dataset", "score rows", "replay CPU s",
                                        "authors CPU s", "grid CPU s"])
    if len(table) > 1:
        total = table.drop(columns="dataset").sum()
        table.loc[len(table)] = ["total", *total.to_numpy()]
    print(table.to_string(index=False, float_format="%.2f"))


if __name__ == "__main__":
    main()
