"""Rule collect_runs: a thin wrapper over threshold_choice.reproduction.steps.step_collect."""

from threshold_choice.reproduction.steps import log_to, step_collect

with log_to(snakemake.log[0]):
    step_collect(
        list(snakemake.input),
        snakemake.output.runs,
        snakemake.params.settings,
        learners=snakemake.params.learners,
    )
