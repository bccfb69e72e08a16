"""Time a whole workflow run from scratch (on demand; not part of the test suite).

    python benchmarks/bench_workflow.py                       # the default (paper) configuration
    python benchmarks/bench_workflow.py --configfile config/sklearn.yaml --cores 2

Runs ``snakemake --cores N`` with the given configuration into a fresh results folder (its
download, moment and score caches included, so nothing is reused) and prints: wall time,
number of jobs, the CPU seconds of every process of the run (``getrusage``), of Snakemake's
own process (its scheduling) and of the jobs (the difference), the jobs' CPU by script (each
job process read from /proc every 0.2 s, so the last fraction of a second of each is missed),
the seconds spent in model fitting + predicting (the score jobs' timings) and in loss
evaluation proper (the evaluate jobs' timings; CPU seconds, as the jobs'), and their share of
the jobs' CPU; then the comparison summary. Snakemake's per-job ``benchmark:`` files give the
wall time by rule and the largest memory (their CPU times, sampled every 0.5 s at first and
every 30 s later, undercount and are not used).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pandas as pd
import yaml

REPO = Path(__file__).resolve().parents[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--configfile", action="append", default=[],
                        help="configuration file(s) on top of config/config.yaml")
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--out", type=Path, default=None,
                        help="results folder (must not exist; default: a new temporary one)")
    parser.add_argument("snakemake_args", nargs="*", help="more snakemake arguments")
    args = parser.parse_args(argv)
    out = args.out or Path(tempfile.mkdtemp(prefix="bench-workflow-")) / "results"
    if out.exists() and any(out.iterdir()):
        parser.error(f"{out} is not empty: give a fresh folder")
    out = out.resolve()
    override = out.parent / f"{out.name}.bench.yaml"
    out.parent.mkdir(parents=True, exist_ok=True)
    override.write_text(yaml.safe_dump({"results": str(out)}))
    # the data cache of config.yaml lives under results/ too; keep it inside the fresh folder
    data = yaml.safe_load((REPO / "config" / "config.yaml").read_text())["data"]
    for extra in args.configfile:
        data.update((yaml.safe_load(Path(extra).read_text()) or {}).get("data", {}))
    data["cache"] = str(out / "cache" / "downloads")
    override.write_text(yaml.safe_dump({"results": str(out), "data": data}))

    cmd = [sys.executable, "-m", "snakemake", "--cores", str(args.cores), "--configfile",
           *[str(Path(c).resolve()) for c in args.configfile], str(override),
           *args.snakemake_args]
    print("$", " ".join(cmd), flush=True)
    env = {k: v for k, v in os.environ.items()
           if k not in ("THRESHOLD_CHOICE_CACHE", "THRESHOLD_CHOICE_WEKA_JAR")}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env)
    own: dict[str, float] = {"cpu": 0.0}
    children: dict[int, tuple[str, float]] = {}
    watcher = threading.Thread(target=_watch_cpu, args=(proc.pid, own, children), daemon=True)
    watcher.start()
    stdout, stderr = proc.communicate()
    wall = time.perf_counter() - start
    watcher.join()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    run_cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    if proc.returncode != 0:
        print(stdout[-3000:], stderr[-5000:], sep="\n")
        return proc.returncode

    benchmarks = sorted((out / "benchmarks").rglob("*.tsv"))
    jobs = pd.concat([pd.read_csv(p, sep="\t").assign(job=str(p.relative_to(out)),
                                                       rule=p.relative_to(out).parts[1])
                      for p in benchmarks], ignore_index=True)
    jobs["rule"] = jobs["rule"].str.removesuffix(".tsv")
    job_cpu = run_cpu - own["cpu"]
    scores = pd.concat([pd.read_csv(p) for p in (out / "scores").rglob("*.timings.csv")],
                       ignore_index=True)
    # CPU seconds, like the jobs' (wall-clock seconds count waiting on a busy machine)
    fit = float(scores["fit_cpu_seconds"].sum())
    predict = float(scores["predict_cpu_seconds"].sum())
    evaluation = float(sum(pd.read_csv(p)["evaluate_cpu_seconds"].sum()
                           for p in (out / "runs").glob("*.timings.csv")))
    work = fit + predict + evaluation
    print(f"results:               {out}")
    print(f"wall time:             {wall:.1f} s  (--cores {args.cores})")
    print(f"jobs:                  {len(benchmarks)}")
    print(f"run CPU:               {run_cpu:.1f} s  (every process of the run)")
    print(f"Snakemake's own CPU:   {own['cpu']:.1f} s  (its main process, read every 0.2 s)")
    print(f"job CPU:               {job_cpu:.1f} s  (the run's less Snakemake's own)")
    print(f"fit + predict (CPU):   {fit:.1f} + {predict:.1f} s")
    print(f"loss evaluation (CPU): {evaluation:.1f} s")
    print(f"share of job CPU:      {work / job_cpu:.1%}  (of the run's CPU: {work / run_cpu:.1%})")
    print(f"largest job RSS:       {jobs['max_rss'].max():.0f} MB")
    by_script = pd.DataFrame(list(children.values()), columns=["script", "cpu_s"])
    by_script = by_script.groupby("script").agg(processes=("cpu_s", "size"),
                                                cpu_s=("cpu_s", "sum"))
    print("job CPU by script (read from /proc):\n" + by_script.round(1).to_string())
    by_rule = jobs.groupby("rule").agg(jobs=("s", "size"), wall_s=("s", "sum"))
    print("job wall time by rule (benchmark files):\n" + by_rule.round(1).to_string())
    slowest = jobs.nlargest(5, "s")[["job", "s"]]
    print("slowest jobs:\n" + slowest.to_string(index=False))
    summary = out / "comparison" / "summary.csv"
    if summary.is_file():
        print("comparison:\n" + pd.read_csv(summary).to_string(index=False))
    return 0


def _cpu_of(pid: int, tick: int) -> tuple[str, int, float] | None:
    """``(state, parent pid, CPU seconds)`` of process ``pid`` from /proc, or None if gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return fields[0], int(fields[1]), (int(fields[11]) + int(fields[12])) / tick


def _script_of(pid: int) -> str:
    """The workflow script a job process runs (Snakemake's copy is ``tmpXXXX.<script>.py``),
    else its program's name."""
    try:
        args = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return "?"
    for arg in args:
        name = Path(arg.decode(errors="replace")).name
        if name.endswith(".py") and name.count(".") >= 2:
            return name.split(".", 1)[1].removesuffix(".py")
    return Path(args[0].decode(errors="replace")).name if args else "?"


def _watch_cpu(pid: int, own: dict[str, float],
               children: dict[int, tuple[str, float]]) -> None:
    """Until process ``pid`` exits, keep ``own["cpu"]`` at its own CPU seconds (its threads,
    not its children) and ``children[child]`` at ``(script, CPU seconds)`` of each of its
    child processes, read from /proc every 0.2 s (Linux only; stays empty elsewhere)."""
    tick = os.sysconf("SC_CLK_TCK")
    while True:
        mine = _cpu_of(pid, tick)
        if mine is None or mine[0] == "Z":  # exited (not yet reaped): the last reading stands
            return
        own["cpu"] = mine[2]
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            child_pid = int(entry)
            child = _cpu_of(child_pid, tick)
            if child is not None and child[1] == pid:
                known = children.get(child_pid)
                script = known[0] if known else _script_of(child_pid)
                children[child_pid] = (script, child[2])
        time.sleep(0.2)


if __name__ == "__main__":
    sys.exit(main())
