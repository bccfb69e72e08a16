"""Rule evaluate: a thin wrapper over threshold_choice.reproduction.steps.step_evaluate."""

from threshold_choice.reproduction.steps import log_to, step_evaluate

with log_to(snakemake.log[0]):
    step_evaluate(
        list(snakemake.input.scores),
        snakemake.wildcards.dataset,
        snakemake.output.runs,
        methods=snakemake.params.methods,
        gammas=snakemake.params.gammas,
        settings=snakemake.params.settings,
        out_timings=snakemake.output.timings,
    )
