"""How the workflow packs datasets into jobs.

Every Snakemake job is a new process. A score job pays, before it fits anything, about 3.5
CPU seconds: Python imports (scikit-learn's pulls in ``scipy.stats``), the JVM's start and the
JIT compilation of Weka's learners. That is more than the 12 models of a small dataset take
to fit and predict (1 to 3 s); a preparation or an evaluation pays about 1 s of imports for
0.1-0.5 s of work. So the small datasets are prepared, scored and evaluated several to a job,
one after another in one process (and one JVM); a large dataset keeps jobs of its own, so
that the long jobs still run side by side. Results do not depend on the packing: each model is
fitted from its own seed, and a warm JVM computes what a cold one does (the workflow's
outputs are byte-identical with one job per dataset; tested).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from threshold_choice.errors import UserError

__all__ = ["dataset_jobs"]


def dataset_jobs(
    datasets: Sequence[str],
    sizes: Mapping[str, int],
    *,
    small_below: int,
    per_job: int,
) -> list[tuple[str, ...]]:
    """The datasets of each job of the per-dataset steps, in the order of ``datasets``.

    A dataset of at least ``small_below`` cells (``sizes[name]``: rows x columns) has a job of
    its own; the others, in the order given, fill jobs of up to ``per_job`` datasets each
    (``per_job=1``: one job per dataset). Adding a dataset at the end of the list changes the
    last job only. Jobs are ordered by their first dataset's position.
    """
    if isinstance(per_job, bool) or not isinstance(per_job, int) or per_job < 1:
        raise UserError(f"jobs.datasets_per_job must be an integer >= 1, got {per_job!r}.")
    if isinstance(small_below, bool) or not isinstance(small_below, int) or small_below < 0:
        raise UserError(
            f"jobs.small_dataset_cells must be an integer >= 0, got {small_below!r}."
        )
    if len(set(datasets)) != len(datasets):
        raise UserError("each dataset may be listed once only.")
    jobs: list[list[str]] = []
    open_job: list[str] | None = None
    for name in datasets:
        if sizes.get(name, 0) >= small_below:
            jobs.append([name])
            continue
        if open_job is None or len(open_job) == per_job:
            open_job = []
            jobs.append(open_job)
        open_job.append(name)
    return [tuple(job) for job in jobs]
