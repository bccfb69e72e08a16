"""Rule compare_authors_runs: every mean of the run against the authors' per-run results."""

from threshold_choice.reproduction.authors_results import step_compare_authors_runs
from threshold_choice.reproduction.steps import log_to

with log_to(snakemake.log[0]):
    step_compare_authors_runs(
        snakemake.input.runs, snakemake.params.checkout, snakemake.output.authors_runs
    )
