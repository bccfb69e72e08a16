"""Rules evaluate_<n>: a thin wrapper over threshold_choice.reproduction.steps.step_evaluate,
run for each dataset of the job in turn, each with its own log."""

from threshold_choice.reproduction.steps import log_to, step_evaluate

models = snakemake.params.models
for i, dataset in enumerate(snakemake.params.datasets):
    mine = slice(i * len(models), (i + 1) * len(models))  # inputs are dataset-major
    with log_to(snakemake.log[i]):
        step_evaluate(
            list(snakemake.input.scores)[mine],
            dataset,
            snakemake.output.runs[i],
            methods=snakemake.params.methods,
            gammas=snakemake.params.gammas,
            settings=snakemake.params.settings,
            out_timings=snakemake.output.timings[i],
        )
