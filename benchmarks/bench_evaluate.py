"""Benchmark: the workflow's loss evaluation (rule ``evaluate``) over a finished run.

Run on demand (not part of the test suite), from the repository:

    THRESHOLD_CHOICE_CACHE=.cache/moments \\
        python benchmarks/bench_evaluate.py [--results results] [--config config/config.yaml]
        [--datasets bupa vote ...] [--check]

For each dataset of the configuration it runs ``steps.step_evaluate`` on the scores in
``<results>/scores/<dataset>/`` in a fresh Python process (as the workflow's job does), into a
temporary folder, and prints the evaluation CPU seconds (``evaluate_cpu_seconds`` of the
timings file: the evaluation proper, without reading, writing and imports) per dataset and in
total. With the moment-table cache of that run (``THRESHOLD_CHOICE_CACHE``) the tables are read,
not built. ``--check``: each new per-run table must equal ``<results>/runs/<dataset>.parquet``
byte for byte (the evaluation is deterministic given the scores and the tables).
"""

from __future__ import annotations

import argparse
import filecmp
import subprocess
import sys
import tempfile
from pathlib import Path

import pandas as pd
import yaml

_JOB = """
import sys, yaml
from threshold_choice.reproduction.steps import step_evaluate
config, results, dataset, out = sys.argv[1:5]
cfg = yaml.safe_load(open(config))
ev = dict(cfg["evaluation"])
methods, gammas = ev.pop("methods"), [str(g) for g in ev.pop("gammas")]
paths = [f"{results}/scores/{dataset}/{m}.parquet" for m in cfg["models"]["use"]]
step_evaluate(paths, dataset, f"{out}/{dataset}.parquet", methods=methods, gammas=gammas,
              settings=ev, out_timings=f"{out}/{dataset}.timings.csv")
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--results", default="results")
    parser.add_argument("--config", default="config/config.yaml")
    parser.add_argument("--datasets", nargs="*")
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    config = yaml.safe_load(Path(args.config).read_text())
    datasets = args.datasets or config["datasets"]
    total, differ = 0.0, []
    with tempfile.TemporaryDirectory() as out:
        for dataset in datasets:
            subprocess.run([sys.executable, "-c", _JOB, args.config, args.results, dataset, out],
                           check=True)
            cpu = float(pd.read_csv(f"{out}/{dataset}.timings.csv")["evaluate_cpu_seconds"].sum())
            total += cpu
            line = f"{dataset:<16} {cpu:7.2f} s"
            if args.check:
                reference = Path(args.results) / "runs" / f"{dataset}.parquet"
                same = filecmp.cmp(f"{out}/{dataset}.parquet", reference, shallow=False)
                line += "  identical" if same else "  DIFFERS"
                if not same:
                    differ.append(dataset)
            print(line, flush=True)
    print(f"{'total':<16} {total:7.2f} s evaluation CPU ({len(datasets)} datasets)")
    if differ:
        print(f"differ from {args.results}/runs: {', '.join(differ)}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
