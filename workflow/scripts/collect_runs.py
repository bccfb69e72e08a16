"""Rule collect_runs: a thin wrapper over threshold_choice.pipeline.step_collect."""

from threshold_choice.pipeline import log_to, step_collect

with log_to(snakemake.log[0]):
    step_collect(list(snakemake.input), snakemake.output.runs)
