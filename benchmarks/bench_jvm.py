"""Time the Weka score step with and without the JVM options (on demand; not in the tests).

    python benchmarks/bench_jvm.py
    python benchmarks/bench_jvm.py --datasets bupa ozone --repeats 2
    python benchmarks/bench_jvm.py --datasets all --weka-jar JAR --against "-XX:+UseSerialGC"

For each dataset (prepared from the offline mirror with the authors' R splits into a temporary
folder) the score step of the default configuration's Weka models runs in a fresh process,
once with :data:`threshold_choice.models.jvm.JVM_OPTIONS` and once with the JVM's own defaults
(``THRESHOLD_CHOICE_JVM_OPTIONS`` set but empty) or the options of ``--against``, alternating;
it prints each process's CPU seconds (all its threads: the JIT compiler's and the garbage
collector's included) and checks that both give byte-identical scores. The Weka models run
the bundled Weka, or the jar of ``--weka-jar`` (e.g. the authors' 3.6.14 from a run's cache).
"""

from __future__ import annotations

import argparse
import filecmp
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
DEFAULT_DATASETS = ("bupa", "sonar", "credit-a", "tic-tac-toe", "musk1", "cylinder-bands")

_SCORE = """
import sys, yaml
from threshold_choice.reproduction.steps import step_score
data, splits, registry, out, jar = sys.argv[1:6]
entries = {e["name"]: e for e in yaml.safe_load(open(registry))["models"]}
models = list(entries)
step_score(data, splits, models, entries=entries, seed=0, weka_jar=jar or None,
           out_scores=[f"{out}/{m}.parquet" for m in models],
           out_timings=[f"{out}/{m}.timings.csv" for m in models])
"""


def _cpu_of(cmd: list[str], env: dict[str, str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, check=True, env=env, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", nargs="+", default=list(DEFAULT_DATASETS),
                        help="datasets, or 'all': the default configuration's")
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--against", default="",
                        help="JVM options to compare with (default: none, the JVM's defaults)")
    parser.add_argument("--weka-jar", default="", help="a weka.jar (default: the bundled Weka)")
    args = parser.parse_args(argv)

    from threshold_choice.models.jvm import JVM_OPTIONS, JVM_OPTIONS_ENV
    from threshold_choice.reproduction.steps import step_prepare_and_split

    config = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    registry = REPO / "config" / "models_weka.yaml"  # the Weka learners (a list in config)
    mirror = str((REPO / config["data"]["mirror"]).resolve())
    if args.datasets == ["all"]:
        args.datasets = config["datasets"]
    work = Path(tempfile.mkdtemp(prefix="bench-jvm-"))
    base_env = {k: v for k, v in os.environ.items() if k != JVM_OPTIONS_ENV}
    variants = {"options": base_env, "defaults": {**base_env, JVM_OPTIONS_ENV: args.against}}
    print(f"JVM_OPTIONS: {' '.join(JVM_OPTIONS)}")
    print(f"against: {args.against or 'the JVM defaults'}; Weka: {args.weka_jar or 'bundled'}")
    against = "against" if args.against else "JVM defaults"
    print(f"{'dataset':16s} {'with options':>13s} {against:>13s}  scores")
    totals = dict.fromkeys(variants, 0.0)
    for name in args.datasets:
        data, splits = work / f"{name}.parquet", work / f"{name}.csv"
        step_prepare_and_split(name, data, splits, mirror=mirror, cache_dir=work / "cache",
                               registry=REPO / config["data"]["registry"], splitter="r",
                               iterations=config["splits"]["iterations"])
        cpu = dict.fromkeys(variants, 0.0)
        for _ in range(args.repeats):
            for variant, env in variants.items():
                out = work / variant / name
                out.mkdir(parents=True, exist_ok=True)
                command = [sys.executable, "-c", _SCORE, str(data), str(splits),
                           str(registry), str(out), args.weka_jar]
                cpu[variant] += _cpu_of(command, env) / args.repeats
        files = sorted(p.name for p in (work / "options" / name).glob("*.parquet"))
        same = all(filecmp.cmp(work / "options" / name / f, work / "defaults" / name / f,
                               shallow=False) for f in files)
        print(f"{name:16s} {cpu['options']:12.1f}s {cpu['defaults']:12.1f}s  "
              f"{'identical' if same else 'DIFFER'}")
        for variant in variants:
            totals[variant] += cpu[variant]
    print(f"{'total':16s} {totals['options']:12.1f}s {totals['defaults']:12.1f}s  "
          f"({totals['options'] / totals['defaults']:.2f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
