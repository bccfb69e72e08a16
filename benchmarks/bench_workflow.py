"""Time a whole workflow run, cold and then warm (on demand; not part of the test suite).

    python benchmarks/bench_workflow.py                       # the default (paper) configuration
    python benchmarks/bench_workflow.py --configfile config/sklearn.yaml
    python benchmarks/bench_workflow.py --no-warm             # the cold run only

**Cold** (the first figure): ``snakemake --cores N`` with the given configuration into a fresh
folder that holds every cache of the run (the score cache, the moment tables and the authors'
Weka jar: config ``cache``; the download cache: ``data: cache``), so nothing of an earlier run
is reused; only the dataset mirror (``data: mirror``, read-only source files) is shared.
**Warm** (the second figure): the same configuration again into a new results folder with the
cold run's caches, so every model's scores come from the score cache: what a run under other
evaluation settings, or a second checkout, costs.

For each run it prints: the wall time, the number of jobs, the CPU seconds of every process of
the run (``getrusage``), of Snakemake's own process (its scheduling) and of the jobs (the
difference); the work in it, in CPU seconds as the jobs' (wall-clock seconds count waiting on
a busy machine): fitting and predicting (the score jobs' timings, of the models fitted in this
run, not those read from the cache) and loss evaluation (the evaluate jobs' timings), and
their share of the jobs' CPU; then the jobs' CPU by script (each job process read from /proc
every 0.1 s, so the last fraction of a second of each is missed: the row ``unattributed``),
with the work in it and the rest (imports, the JVM's start, reading and writing, drawing
figures); the machine's load average before, during and after. Snakemake's per-job
``benchmark:`` files give the wall time by rule and the largest memory (their CPU times,
sampled every 0.5 s at first and every 30 s later, undercount and are not used).
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import pandas as pd
import yaml

REPO = Path(__file__).resolve().parents[1]
#: the line of the score step's log for a model whose scores came from the score cache
_FROM_CACHE = re.compile(r"model (\S+) on (\S+): scores from the cache")
#: the workflow script whose timings hold the work of its processes, and which work
_WORK_OF_SCRIPT = {"score": ("fit", "predict"), "evaluate": ("evaluate",)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--configfile", action="append", default=[],
                        help="configuration file(s) on top of config/config.yaml")
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--out", type=Path, default=None,
                        help="folder of the runs and their caches (must not exist or be empty; "
                             "default: a new temporary one)")
    parser.add_argument("--no-warm", action="store_true",
                        help="the cold run only (no second run on its caches)")
    parser.add_argument("snakemake_args", nargs="*", help="more snakemake arguments")
    args = parser.parse_args(argv)
    root = args.out or Path(tempfile.mkdtemp(prefix="bench-workflow-"))
    if root.exists() and any(root.iterdir()):
        parser.error(f"{root} is not empty: give a fresh folder")
    root = root.resolve()
    root.mkdir(parents=True, exist_ok=True)
    cache = root / "cache"  # the runs' shared caches: empty before the cold run
    measured = {"cold": _run(root / "cold", cache, args)}
    if measured["cold"] is None:
        return 1
    if not args.no_warm:
        measured["warm"] = _run(root / "warm", cache, args)
        if measured["warm"] is None:
            return 1
    _report(measured, args.cores)
    summary = root / "cold" / "comparison" / "summary.csv"
    if summary.is_file():
        print("\ncomparison (cold run):\n" + pd.read_csv(summary).to_string(index=False))
    return 0


def _run(out: Path, cache: Path, args: argparse.Namespace) -> dict[str, Any] | None:
    """One workflow run into ``out`` with the caches in ``cache``: its measurements."""
    data = yaml.safe_load((REPO / "config" / "config.yaml").read_text())["data"]
    for extra in args.configfile:
        data.update((yaml.safe_load(Path(extra).read_text()) or {}).get("data", {}))
    # the configuration's relative mirror is read from the checkout, where snakemake runs
    data["cache"] = str(out / "cache" / "downloads")  # as config.yaml's: inside the results
    override = out.parent / f"{out.name}.bench.yaml"
    override.write_text(yaml.safe_dump({"results": str(out), "cache": str(cache),
                                        "data": data}))
    cmd = [sys.executable, "-m", "snakemake", "--cores", str(args.cores), "--configfile",
           *[str(Path(c).resolve()) for c in args.configfile], str(override),
           *args.snakemake_args]
    print("$", " ".join(cmd), flush=True)
    # nothing of the environment points the run at another cache or jar
    env = {k: v for k, v in os.environ.items()
           if k not in ("THRESHOLD_CHOICE_CACHE", "THRESHOLD_CHOICE_WEKA_JAR")}
    load_before = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env)
    own: dict[str, float] = {"cpu": 0.0}
    children: dict[int, tuple[str, float]] = {}
    loads: list[float] = []
    watcher = threading.Thread(target=_watch_cpu, args=(proc.pid, own, children, loads),
                               daemon=True)
    watcher.start()
    stdout, stderr = proc.communicate()
    wall = time.perf_counter() - start
    watcher.join()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    run_cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    if proc.returncode != 0:
        print(stdout[-3000:], stderr[-5000:], sep="\n")
        return None

    benchmarks = sorted((out / "benchmarks").rglob("*.tsv"))
    jobs = pd.concat([pd.read_csv(p, sep="\t").assign(job=str(p.relative_to(out)),
                                                       rule=p.relative_to(out).parts[1])
                      for p in benchmarks], ignore_index=True)
    jobs["rule"] = jobs["rule"].str.removesuffix(".tsv")
    cached = {match.groups()[::-1] for log in (out / "logs").rglob("*.log")
              for match in _FROM_CACHE.finditer(log.read_text(errors="replace"))}
    scores = pd.concat([pd.read_csv(p) for p in (out / "scores").rglob("*.timings.csv")],
                       ignore_index=True)
    fitted = ~pd.Series(list(zip(scores["dataset"], scores["model"], strict=True))).isin(cached)
    by_script = pd.DataFrame(list(children.values()), columns=["script", "cpu_s"])
    by_script = by_script.groupby("script").agg(processes=("cpu_s", "size"),
                                                cpu_s=("cpu_s", "sum"))
    work = {
        # CPU seconds, like the jobs' (wall-clock seconds count waiting on a busy machine)
        "fit": float(scores.loc[fitted.to_numpy(), "fit_cpu_seconds"].sum()),
        "predict": float(scores.loc[fitted.to_numpy(), "predict_cpu_seconds"].sum()),
        "evaluate": float(sum(pd.read_csv(p)["evaluate_cpu_seconds"].sum()
                              for p in (out / "runs").glob("*.timings.csv"))),
    }
    return {"wall": wall, "jobs": len(benchmarks), "run_cpu": run_cpu, "own_cpu": own["cpu"],
            "work": work, "by_script": by_script, "jobs_table": jobs,
            "models": (len(set(zip(scores.loc[fitted.to_numpy(), "dataset"],
                                   scores.loc[fitted.to_numpy(), "model"], strict=True))),
                       len(cached)),
            "load": (load_before, sum(loads) / max(len(loads), 1), os.getloadavg()[0]),
            "out": out}


def _report(measured: dict[str, dict[str, Any]], cores: int) -> None:
    """Print the runs side by side, then each run's CPU by script and wall time by rule."""
    rows: dict[str, dict[str, str]] = {}
    for name, m in measured.items():
        job_cpu = m["run_cpu"] - m["own_cpu"]
        work = m["work"]
        total = sum(work.values())
        rows[name] = {
            "results": str(m["out"]),
            "wall time": f"{m['wall']:.1f} s (--cores {cores})",
            "jobs": str(m["jobs"]),
            "models fitted / from the score cache": "{} / {}".format(*m["models"]),
            "CPU of every process of the run": f"{m['run_cpu']:.1f} s",
            "Snakemake's own process": f"{m['own_cpu']:.1f} s",
            "job CPU (the run's less Snakemake's)": f"{job_cpu:.1f} s",
            "fit (CPU)": f"{work['fit']:.1f} s",
            "predict (CPU)": f"{work['predict']:.1f} s",
            "loss evaluation (CPU)": f"{work['evaluate']:.1f} s",
            "job CPU that is not work": f"{job_cpu - total:.1f} s",
            "share of job CPU in fit + predict + evaluate":
                f"{total / job_cpu:.1%} (of the run's CPU: {total / m['run_cpu']:.1%})",
            "largest job RSS": f"{m['jobs_table']['max_rss'].max():.0f} MB",
            "load average (1 min): before, mean during, after":
                "{:.2f}, {:.2f}, {:.2f}".format(*m["load"]),
        }
    print("\n" + pd.DataFrame(rows).to_string())
    for name, m in measured.items():
        print(f"\n{name} run: job CPU by script (read from /proc), the work in it and the rest:")
        print(_by_script(m).round(1).to_string())
        jobs = m["jobs_table"]
        by_rule = jobs.groupby("rule").agg(jobs=("s", "size"), wall_s=("s", "sum"))
        print(f"{name} run: job wall time by rule (benchmark files):\n"
              + by_rule.round(1).to_string())
        print(f"{name} run: slowest jobs:\n"
              + jobs.nlargest(5, "s")[["job", "s"]].to_string(index=False))


def _by_script(m: dict[str, Any]) -> pd.DataFrame:
    """The jobs' CPU by script with the work of each (fit + predict for ``score``, loss
    evaluation for ``evaluate``) and the rest; a last row for what /proc did not see."""
    table = m["by_script"].copy()
    table["work_s"] = [sum(m["work"][w] for w in _WORK_OF_SCRIPT.get(script, ()))
                       for script in table.index]
    table["rest_s"] = table["cpu_s"] - table["work_s"]
    job_cpu = m["run_cpu"] - m["own_cpu"]
    table.loc["unattributed"] = [0, job_cpu - table["cpu_s"].sum(), 0.0,
                                 job_cpu - table["cpu_s"].sum()]
    table.loc["Snakemake's own"] = [1, m["own_cpu"], 0.0, m["own_cpu"]]
    return table.astype({"processes": int})


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
    words = [arg.decode(errors="replace") for arg in args if arg]
    for word in words:
        name = Path(word).name
        if name.endswith(".py") and name.count(".") >= 2:
            return name.split(".", 1)[1].removesuffix(".py")
    if not words:
        return "?"
    program = Path(words[0]).name
    if len(words) > 2 and words[1] == "-m":
        return f"{program} -m {words[2]}"
    if len(words) > 2 and words[1] == "-c":  # e.g. the check of the Weka options at start
        found = re.search(r"from (\S+) import (\w+)", words[2])
        return f"{program} -c {'.'.join(found.groups()) if found else words[2][:30]}"
    return program


def _watch_cpu(pid: int, own: dict[str, float], children: dict[int, tuple[str, float]],
               loads: list[float]) -> None:
    """Until process ``pid`` exits, keep ``own["cpu"]`` at its own CPU seconds (its threads,
    not its children) and ``children[child]`` at ``(script, CPU seconds)`` of each of its
    child processes, read from /proc every 0.1 s (Linux only; stays empty elsewhere); the
    1-minute load average appended to ``loads`` every 5 s."""
    tick = os.sysconf("SC_CLK_TCK")
    last_load = 0.0
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
                # read again each time: a child seen between its fork and its exec still
                # has Snakemake's command line
                script = _script_of(child_pid)
                known = children.get(child_pid)
                if script == "?" and known:
                    script = known[0]
                children[child_pid] = (script, child[2])
        if time.monotonic() - last_load >= 5:
            loads.append(os.getloadavg()[0])
            last_load = time.monotonic()
        time.sleep(0.1)


if __name__ == "__main__":
    sys.exit(main())
