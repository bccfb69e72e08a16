"""Time the Weka models' predictions with the authors' Weka and the bundled one (on demand).

    python benchmarks/bench_weka_predict.py
    python benchmarks/bench_weka_predict.py --datasets spambase --models IBK1 IBK10 --repeats 2

For each dataset (prepared from the offline mirror with the authors' R splits into a temporary
folder) the score step of the given models (default: IBK1 and IBK10, the nearest-neighbour
learners, whose prediction is most of the default run's) runs in a fresh process, once with
the authors' Weka (Debian's weka 3.6.14, in its own class loader: ``models.weka_jar:
authors``) and once with the bundled Weka 3.9.6, alternating; it prints the fitting and
predicting CPU seconds of the score step's timings (the process's, all its threads: the JIT
compiler's and the garbage collector's included) and whether the two Wekas' scores are
byte-identical (they are for the learners that did not change between the versions).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pandas as pd
import yaml

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DATASETS = ("spambase", "chess-KRVKP", "ozone")

_SCORE = """
import sys, yaml
from threshold_choice.reproduction.steps import step_score
data, splits, registry, out, jar, *models = sys.argv[1:]
entries = {e["name"]: e for e in yaml.safe_load(open(registry))["models"]}
step_score(data, splits, models, entries=entries, seed=0, weka_jar=jar or None,
           out_scores=[f"{out}/{m}.parquet" for m in models],
           out_timings=[f"{out}/{m}.timings.csv" for m in models])
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", nargs="+", default=list(DEFAULT_DATASETS))
    parser.add_argument("--models", nargs="+", default=["IBK1", "IBK10"])
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--jar", default=None,
                        help="the authors' jar (default: fetched into the checkout's cache)")
    args = parser.parse_args(argv)

    from threshold_choice.models.weka_debian import authors_weka_jar
    from threshold_choice.reproduction.steps import step_prepare_and_split

    config = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    registry = REPO / "config" / "models_weka.yaml"
    mirror = str((REPO / config["data"]["mirror"]).resolve())
    jar = args.jar or str(authors_weka_jar(REPO / config["cache"] / "weka"))
    work = Path(tempfile.mkdtemp(prefix="bench-weka-predict-"))
    env = {k: v for k, v in os.environ.items() if k != "THRESHOLD_CHOICE_WEKA_JAR"}
    wekas = {"authors": jar, "bundled": ""}
    rows = []
    for name in args.datasets:
        data, splits = work / f"{name}.parquet", work / f"{name}.csv"
        step_prepare_and_split(name, data, splits, mirror=mirror, cache_dir=work / "cache",
                               registry=REPO / config["data"]["registry"], splitter="r",
                               iterations=config["splits"]["iterations"])
        for repeat in range(args.repeats):
            for weka, path in wekas.items():
                out = work / weka / name / str(repeat)
                out.mkdir(parents=True, exist_ok=True)
                subprocess.run([sys.executable, "-c", _SCORE, str(data), str(splits),
                                str(registry), str(out), path, *args.models],
                               check=True, env=env, capture_output=True)
                for model in args.models:
                    timings = pd.read_csv(out / f"{model}.timings.csv")
                    rows.append((name, model, weka, repeat,
                                 timings["fit_cpu_seconds"].sum(),
                                 timings["predict_cpu_seconds"].sum()))
    table = pd.DataFrame(rows, columns=["dataset", "model", "weka", "repeat", "fit_cpu_s",
                                        "predict_cpu_s"])
    mean = table.groupby(["dataset", "model", "weka"])[["fit_cpu_s", "predict_cpu_s"]].mean()
    wide = mean.unstack("weka")
    wide.columns = [f"{what} {weka}" for what, weka in wide.columns]
    wide["predict authors/bundled"] = (wide["predict_cpu_s authors"]
                                       / wide["predict_cpu_s bundled"])
    wide["scores"] = [
        "identical" if (work / "authors" / d / "0" / f"{m}.parquet").read_bytes()
        == (work / "bundled" / d / "0" / f"{m}.parquet").read_bytes() else "differ"
        for d, m in wide.index]
    print(f"CPU seconds per dataset (10 splits), mean of {args.repeats} process(es) each; "
          f"load average {os.getloadavg()[0]:.2f}")
    print(wide.round(2).to_string())
    totals = mean.groupby("weka").sum()
    print("total:\n" + totals.round(2).to_string())
    ratio = totals.loc["authors", "predict_cpu_s"] / totals.loc["bundled", "predict_cpu_s"]
    print(f"predict authors/bundled: {ratio:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
