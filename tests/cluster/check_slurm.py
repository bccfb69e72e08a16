"""The tiny workflow through a real SLURM, checked against a local run (issue 16).

Run by ``tests/cluster/run_slurm.sh``, which starts the cluster and sets ``SLURM_CONF``; not
collected by pytest (no ``test_`` prefix). Three runs of the suite's tiny configuration
(``tests/workflow/test_workflow.py``: 2 datasets x 3 scikit-learn models, datasets from the
offline mirror):

1. local (``--cores 2``): the reference outputs and the local time per job;
2. ``--profile profiles/slurm`` as shipped: every job that is not a local rule must go through
   ``sbatch`` (one submission each, found COMPLETED under the run's SLURM job name in the
   controller's job log, and in ``sacct`` when the cluster has accounting), and the outputs
   must be byte-identical to the local run's;
3. the same with the per-dataset jobs grouped (``--groups`` / ``--group-components``): they
   must go through fewer submissions, each group job must have run its member jobs, and the
   outputs must again be identical.

Rule names are read from Snakemake's own log (local rules are printed as ``localrule``), so
the check holds whatever the workflow's rules are called. Every Snakemake run is bounded: it
is killed (its whole process group) at its time limit, as soon as the SLURM plugin falls back
to ``sacct`` on a cluster without accounting (it would then poll forever), or when one of its
jobs waits for resources no node has. Prints the measured overhead per job and writes it to
``<work>/measurements.json``. Exit status: 0 passed, 1 failed.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO))

from tests.workflow.test_workflow import TINY, write_config  # noqa: E402  (the suite's tiny config)

# Outputs that legitimately differ between two runs: logs and wall-clock measurements, the
# download cache, the pointer to the Weka jar in each run's own cache (weka/authors.json: a
# path on this machine; the jar itself is named by its hash in the report), and PDF / SVG
# figures (they hold their creation date; PNGs and the figures' CSV files are compared).
NOT_COMPARED_DIRS = {"logs", "benchmarks", "cache", "weka"}
NOT_COMPARED_SUFFIXES = (".timings.csv", ".pdf", ".svg")
# squeue reasons of a pending job that no waiting resolves on this cluster
HOPELESS_REASONS = {"PartitionConfig", "PartitionNodeLimit", "PartitionTimeLimit",
                    "BadConstraints", "ReqNodeNotAvail", "InvalidAccount", "InvalidQOS"}
SNAKEMAKE_TIME_LIMIT = 420  # seconds, per run
ONE_JOB_PER_DATASET = {"small_dataset_cells": 0, "datasets_per_job": 1}
LOCAL_CORES = 2


class Failure(Exception):
    """A check that failed: the message says what was expected and what was found."""


@dataclass
class Job:
    """One Snakemake job as printed in the log of the main Snakemake process."""

    jobid: int
    rule: str
    local: bool
    grouped: bool
    wildcards: str = ""
    benchmark: str | None = None
    finished_at: float | None = None  # when the main process saw it finish (epoch s)


@dataclass
class Run:
    """What one Snakemake run did, parsed from its log."""

    name: str
    seconds: float
    log: Path
    results: Path
    jobs: dict[int, Job] = field(default_factory=dict)
    blocks: list[Job] = field(default_factory=list)
    submissions: list[tuple[str, str]] = field(default_factory=list)  # (snakemake id, slurm id)
    run_id: str | None = None

    @property
    def remote_jobs(self) -> list[Job]:
        return [job for job in self.jobs.values() if not job.local]


# --- running Snakemake, bounded ---------------------------------------------------------------

def squeue_hopeless(run_id: str) -> str | None:
    """A pending job of this run that waits for what no node offers, or None."""
    try:
        out = subprocess.run(["squeue", "-h", "--name", run_id, "-o", "%i|%T|%r"],
                             capture_output=True, text=True, timeout=10).stdout
    except subprocess.TimeoutExpired:
        return None
    for line in out.splitlines():
        jobid, state, reason = [*line.split("|"), "", ""][:3]
        if state == "PENDING" and reason in HOPELESS_REASONS:
            return f"SLURM job {jobid} pending with reason {reason}"
    return None


def run_snakemake(name: str, args: list[str], work: Path, *, accounting: bool) -> Run:
    """Run ``snakemake ARGS`` from the repository, its output in ``work/NAME.log``; raise
    Failure if it fails, outlives its time limit or starts polling ``sacct`` on a cluster
    without accounting (which never ends)."""
    log = work / f"{name}.log"
    cmd = [sys.executable, "-m", "snakemake", *args]
    start = time.monotonic()
    with log.open("w") as out:
        proc = subprocess.Popen(cmd, cwd=REPO, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
    problem = None
    hopeless_since: dict[str, float] = {}
    try:
        while proc.poll() is None:
            time.sleep(1)
            elapsed = time.monotonic() - start
            text = log.read_text(errors="replace")
            if elapsed > SNAKEMAKE_TIME_LIMIT:
                problem = f"did not finish within {SNAKEMAKE_TIME_LIMIT} s"
            elif not accounting and "Falling back to 'sacct'" in text:
                problem = ("the SLURM plugin fell back to sacct on a cluster without accounting "
                           "(it would poll forever): check slurm-status-command and MinJobAge")
            elif (match := re.search(r"SLURM run ID: (\S+)", text)) and int(elapsed) % 5 == 0:
                reason = squeue_hopeless(match.group(1))
                if reason:
                    first = hopeless_since.setdefault(reason, elapsed)
                    if elapsed - first > 15:
                        problem = f"{reason}: no node can run it (resources too large?)"
            if problem:
                break
    finally:
        if proc.poll() is None:
            stop_group(proc)
    seconds = time.monotonic() - start
    if problem is None and proc.returncode != 0:
        problem = f"exited with status {proc.returncode}"
    if problem:
        tail = "\n".join(log.read_text(errors="replace").splitlines()[-40:])
        raise Failure(f"snakemake run '{name}' {problem}; last lines of {log}:\n{tail}")
    config = args[args.index("--configfile") + 1]
    return parse_log(Run(name, seconds, log, Path(config).parent / "results"))


def stop_group(proc: subprocess.Popen) -> None:
    """SIGTERM then SIGKILL to a process group we started (Snakemake may ignore SIGTERM)."""
    for sig, grace in ((signal.SIGTERM, 10), (signal.SIGKILL, 10)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(grace)
            return
        except subprocess.TimeoutExpired:
            continue


# --- reading what happened ---------------------------------------------------------------------

STAMP = re.compile(r"^\s*\[(\w{3} \w{3} +\d+ \d\d:\d\d:\d\d \d{4})\]")
BLOCK = re.compile(r"^(\s*)(localrule|rule) ([\w-]+):$")


def parse_log(run: Run) -> Run:
    """Fill ``run`` from a Snakemake log: that of the main process or of a group job (whose
    Snakemake prints each member twice, as it starts it and as srun runs it, and numbers
    jobs anew each time, so that ``run.blocks`` has them all and ``run.jobs`` the first
    printed under each id)."""
    current: Job | None = None
    pending: dict = {}
    stamp = None
    for line in run.log.read_text(errors="replace").splitlines():
        if match := STAMP.match(line):
            stamp = datetime.strptime(match.group(1), "%a %b %d %H:%M:%S %Y").timestamp()
        elif match := BLOCK.match(line):
            pending = {"rule": match.group(3), "local": match.group(2) == "localrule",
                       "grouped": bool(match.group(1))}
            current = None
        elif (match := re.match(r"^\s+jobid: (\d+)$", line)) and pending:
            current = Job(int(match.group(1)), **pending)
            run.blocks.append(current)
            run.jobs.setdefault(current.jobid, current)
            pending = {}
        elif current is not None and (match := re.match(r"^\s+wildcards: (.*)$", line)):
            current.wildcards = match.group(1)
        elif current is not None and (match := re.match(r"^\s+benchmark: (.*)$", line)):
            current.benchmark = match.group(1)
        elif match := re.match(r"^Finished jobid: (\d+) ", line):
            for job in reversed(run.blocks):  # the latest job of that id not yet finished
                if job.jobid == int(match.group(1)) and job.finished_at is None:
                    job.finished_at = stamp
                    break
        elif match := re.match(r"^Job (\S+) has been submitted with SLURM jobid (\d+)", line):
            run.submissions.append((match.group(1), match.group(2)))
        elif match := re.match(r"^SLURM run ID: (\S+)", line):
            run.run_id = match.group(1)
    return run


def completed_jobs(jobcomp: Path) -> dict[str, dict[str, str]]:
    """The controller's job log (jobcomp/filetxt): ``{slurm job id: fields}``."""
    jobs = {}
    for line in jobcomp.read_text().splitlines() if jobcomp.is_file() else []:
        fields = dict(item.split("=", 1) for item in line.split() if "=" in item)
        if "JobId" in fields:
            jobs[fields["JobId"]] = fields
    return jobs


def sacct_states(run_id: str) -> dict[str, str]:
    out = subprocess.run(["sacct", "-X", "-n", "-P", "--name", run_id, "-o", "JobIDRaw,State"],
                         capture_output=True, text=True, timeout=30, check=True).stdout
    return dict(line.split("|", 1) for line in out.splitlines() if "|" in line)


def epoch(slurm_time: str) -> float:
    return datetime.strptime(slurm_time, "%Y-%m-%dT%H:%M:%S").timestamp()


def benchmark_seconds(path: str | None) -> float:
    """The job's own wall time, from its benchmark file (first column, last row)."""
    if not path or not Path(path).is_file():
        return math.nan
    return float(Path(path).read_text().splitlines()[-1].split("\t")[0])


# --- the checks ----------------------------------------------------------------------------------

def check_went_through_sbatch(run: Run, jobcomp: Path, *, accounting: bool) -> dict:
    """Every remote job ran inside a SLURM job of this run that COMPLETED; returns timings."""
    if not run.run_id:
        raise Failure(f"{run.name}: no 'SLURM run ID' in {run.log}: did it use the SLURM plugin?")
    remote = run.remote_jobs
    if not remote:
        raise Failure(f"{run.name}: no job ran through SLURM (all were local rules?)")
    unfinished = [f"{job.rule} {job.wildcards}" for job in run.jobs.values()
                  if job.finished_at is None]
    if unfinished:
        raise Failure(f"{run.name}: jobs never reported finished: {unfinished}")
    slurm_ids = [slurm for _, slurm in run.submissions]
    if len(set(slurm_ids)) != len(slurm_ids):
        raise Failure(f"{run.name}: a job was submitted twice (retried?): {run.submissions}")
    single = {int(job) for job, _ in run.submissions if job.isdigit()}
    ungrouped = {job.jobid for job in remote if not job.grouped}
    if single != ungrouped:
        raise Failure(f"{run.name}: submitted Snakemake jobs {sorted(single)} differ from the "
                      f"non-local, ungrouped jobs {sorted(ungrouped)}")
    controller = completed_jobs(jobcomp)
    ours = {jobid: fields for jobid, fields in controller.items()
            if fields.get("Name") == run.run_id}
    if set(ours) != set(slurm_ids):
        raise Failure(f"{run.name}: the controller's job log lists jobs {sorted(ours)} named "
                      f"{run.run_id}; Snakemake submitted {sorted(slurm_ids)}")
    failed = {jobid: f["JobState"] for jobid, f in ours.items() if f["JobState"] != "COMPLETED"}
    if failed:
        raise Failure(f"{run.name}: SLURM jobs not COMPLETED: {failed}")
    if accounting:
        states = sacct_states(run.run_id)
        if set(states) != set(slurm_ids) or set(states.values()) != {"COMPLETED"}:
            raise Failure(f"{run.name}: sacct reports {states}, expected {slurm_ids} COMPLETED")
    return ours


def check_groups(run: Run, slurm_logs: Path, groups_expected: int,
                 members: set[tuple[str, str]]) -> None:
    """The grouped run submitted ``groups_expected`` group jobs, its grouped jobs are
    ``members`` ((rule, wildcards) pairs) and their logs show every one finished inside."""
    group_ids = [(job, slurm) for job, slurm in run.submissions if not job.isdigit()]
    if len(group_ids) != groups_expected:
        raise Failure(f"{run.name}: {len(group_ids)} group submissions, expected "
                      f"{groups_expected}: {run.submissions}")
    grouped = {(job.rule, job.wildcards): job.jobid for job in run.remote_jobs if job.grouped}
    if set(grouped) != members:
        raise Failure(f"{run.name}: grouped jobs {sorted(grouped)}, expected {sorted(members)}")
    inside = set()
    for _, slurm in group_ids:
        logs = list(slurm_logs.glob(f"group_*/**/{slurm}.log"))
        if len(logs) != 1:
            raise Failure(f"{run.name}: no single SLURM log of group job {slurm} in {slurm_logs}")
        # the Snakemake inside the group job numbers its jobs anew: match by rule and wildcards
        group = parse_log(Run(f"group job {slurm}", 0.0, logs[0], run.results))
        inside |= {(job.rule, job.wildcards) for job in group.blocks
                   if job.finished_at is not None}
    outside = sorted(set(grouped) - inside)
    if outside:
        raise Failure(f"{run.name}: grouped jobs {outside} did not finish inside a group job")


def compared_files(results: Path) -> list[Path]:
    files = []
    for path in sorted(results.rglob("*")):
        rel = path.relative_to(results)
        if path.is_file() and rel.parts[0] not in NOT_COMPARED_DIRS \
                and not path.name.endswith(NOT_COMPARED_SUFFIXES):
            files.append(rel)
    return files


def check_same_outputs(reference: Run, run: Run) -> int:
    ours, theirs = compared_files(reference.results), compared_files(run.results)
    if ours != theirs:
        raise Failure(f"{run.name}: output files differ from the local run's: only local "
                      f"{sorted(set(ours) - set(theirs))}, only {run.name} "
                      f"{sorted(set(theirs) - set(ours))}")
    different = [str(rel) for rel in ours
                 if (reference.results / rel).read_bytes() != (run.results / rel).read_bytes()]
    if different:
        raise Failure(f"{run.name}: outputs not byte-identical to the local run's: {different}")
    for needed in ("tables", "comparison", "figures"):
        if not any(rel.parts[0] == needed for rel in ours):
            raise Failure(f"{run.name}: no {needed}/ output compared")
    return len(ours)


# --- measurements -----------------------------------------------------------------------------

def mean(values: list[float]) -> float:
    values = [v for v in values if not math.isnan(v)]
    return sum(values) / len(values) if values else math.nan


def local_measurements(run: Run) -> dict:
    work = sum(benchmark_seconds(job.benchmark) for job in run.jobs.values() if job.benchmark)
    n = sum(1 for job in run.jobs.values() if job.benchmark)
    return {"wall_seconds": round(run.seconds, 1), "jobs": n,
            "job_seconds_mean": round(work / n, 2),
            # what the cores spent beyond the jobs' own time, per job
            "overhead_per_job_seconds": round((LOCAL_CORES * run.seconds - work) / n, 2)}


def slurm_measurements(run: Run, controller: dict[str, dict[str, str]]) -> dict:
    """Per SLURM job: queue wait (start - submit), time in the allocation beyond the jobs' own
    time (Snakemake start-ups, srun), and the delay until Snakemake saw the end (polling)."""
    by_snakemake = dict(run.submissions)
    queue, inside, seen, per_job_inside = [], [], [], []
    for sm_id, slurm_id in by_snakemake.items():
        fields = controller[slurm_id]
        start, end = epoch(fields["StartTime"]), epoch(fields["EndTime"])
        queue.append(start - epoch(fields["SubmitTime"]))
        if sm_id.isdigit():
            members = [run.jobs[int(sm_id)]]
        else:  # a group: its members are the grouped jobs (one group in our runs)
            members = [job for job in run.remote_jobs if job.grouped]
        own = sum(benchmark_seconds(job.benchmark) for job in members)
        inside.append(end - start - own)
        per_job_inside.append((end - start - own) / len(members))
        seen.append(max(job.finished_at for job in members) - end)
    return {"wall_seconds": round(run.seconds, 1), "sbatch_jobs": len(by_snakemake),
            "snakemake_jobs_remote": len(run.remote_jobs),
            "queue_wait_mean_seconds": round(mean(queue), 1),
            "in_allocation_overhead_mean_seconds": round(mean(inside), 1),
            "in_allocation_overhead_per_snakemake_job_seconds": round(mean(per_job_inside), 1),
            "status_delay_mean_seconds": round(mean(seen), 1)}


# --- main -------------------------------------------------------------------------------------

def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, required=True, help="scratch folder")
    parser.add_argument("--jobcomp", type=Path, required=True,
                        help="the controller's job log (JobCompType=jobcomp/filetxt)")
    parser.add_argument("--accounting", action="store_true",
                        help="the cluster has slurmdbd accounting: check sacct too")
    options = parser.parse_args()
    # SIGTERM (timeout, the calling script's clean-up) unwinds like Ctrl-C, so that the
    # Snakemake run under way is stopped with its process group
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    work = options.work.resolve()
    work.mkdir(parents=True, exist_ok=True)
    measurements: dict = {"datasets": TINY["datasets"], "models": TINY["models"]["use"],
                          "accounting": options.accounting}
    try:
        configs = {}
        for name in ("local", "slurm", "grouped"):
            (work / name).mkdir(exist_ok=True)
            # a job per dataset of each per-dataset step (the workflow's own packing would
            # put both tiny datasets in one job): what --groups then packs
            configs[name] = str(write_config(work / name, jobs=ONE_JOB_PER_DATASET))
        print(f"== local run ({LOCAL_CORES} cores)", flush=True)
        local = run_snakemake("local", ["--cores", str(LOCAL_CORES), "--configfile",
                                        configs["local"]], work, accounting=options.accounting)
        measurements["local"] = local_measurements(local)

        print("== through SLURM: --profile profiles/slurm", flush=True)
        slurm_args = ["--profile", "profiles/slurm", "--slurm-keep-successful-logs"]
        slurm = run_snakemake("slurm", [*slurm_args, "--slurm-logdir", str(work / "slurm_logs"),
                                        "--configfile", configs["slurm"]],
                              work, accounting=options.accounting)
        ours = check_went_through_sbatch(slurm, options.jobcomp, accounting=options.accounting)
        compared = check_same_outputs(local, slurm)
        measurements["slurm"] = slurm_measurements(slurm, ours)
        print(f"   {len(ours)} sbatch jobs COMPLETED ({len(slurm.remote_jobs)} remote, "
              f"{len(slurm.jobs) - len(slurm.remote_jobs)} local Snakemake jobs); "
              f"{compared} output files byte-identical to the local run", flush=True)

        # group every remote rule whose jobs are per dataset (score_<n>, evaluate_<n>), and
        # pack all datasets' jobs into one group job (--group-components); the jobs of a group
        # run one after another in its allocation (slurm-jobstep), so the group asks for one
        # core (--cores 1)
        per_dataset = sorted({job.rule for job in slurm.remote_jobs
                              if re.fullmatch(r"[a-z]+_\d+", job.rule)})
        if not per_dataset:
            raise Failure("no remote rule runs per dataset: nothing to group")
        members = {(job.rule, job.wildcards) for job in slurm.remote_jobs
                   if job.rule in per_dataset}
        group_args = ["--groups", *[f"{rule}=per_dataset" for rule in per_dataset],
                      "--group-components", f"per_dataset={len(TINY['datasets'])}",
                      "--cores", "1"]
        print(f"== through SLURM, grouped: {' '.join(group_args)}", flush=True)
        grouped = run_snakemake("grouped", [*slurm_args, *group_args, "--slurm-logdir",
                                            str(work / "slurm_logs_grouped"),
                                            "--configfile", configs["grouped"]],
                                work, accounting=options.accounting)
        ours_grouped = check_went_through_sbatch(grouped, options.jobcomp,
                                                 accounting=options.accounting)
        check_groups(grouped, work / "slurm_logs_grouped", 1, members)
        check_same_outputs(local, grouped)
        measurements["grouped"] = slurm_measurements(grouped, ours_grouped)
        measurements["grouped"]["group_args"] = " ".join(group_args)
        print(f"   {len(ours_grouped)} sbatch jobs COMPLETED ({len(members)} jobs in 1 group "
              "job); outputs byte-identical to the local run", flush=True)
    except Failure as failure:
        print(f"FAIL: {failure}", flush=True)
        return 1
    finally:
        (work / "measurements.json").write_text(json.dumps(measurements, indent=2))
    print(json.dumps(measurements, indent=2))
    print("PASS: cluster path (sbatch submissions, byte-identical outputs, grouping)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
