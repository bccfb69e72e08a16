"""Time and peak memory of reading a scores CSV (``label,score``) of n rows, as the CLI does.

    python benchmarks/bench_read_scores.py [--rows 10000000]

Each reading runs in its own process; the file is written once into a temporary folder.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

_CHILD = """
import resource, sys, time
from threshold_choice.cli.inputs import read_scores_csv
start = time.perf_counter()
labels, scores = read_scores_csv(sys.argv[1], "test")
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(f"{time.perf_counter() - start:.2f} {peak:.0f}")
"""


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[1_000_000, 10_000_000])
    args = parser.parse_args(argv)
    print(f"{'rows':>10} {'file MB':>8} {'seconds':>8} {'peak MB':>8}")
    rng = np.random.default_rng(0)
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.rows:
            path = Path(tmp) / f"scores_{n}.csv"
            pd.DataFrame({"label": rng.integers(0, 2, n), "score": rng.random(n)}).to_csv(
                path, index=False, float_format="%.17g")
            out = subprocess.run([sys.executable, "-c", _CHILD, str(path)], capture_output=True,
                                 text=True, check=True).stdout.split()
            size = path.stat().st_size / 2**20
            print(f"{n:>10} {size:>8.0f} {out[0]:>8} {out[1]:>8}")


if __name__ == "__main__":
    main()
