"""Rules evaluate_<n>: a thin wrapper over threshold_choice.reproduction.steps.step_evaluate,
run for each dataset of the job in turn, each with its own log; a dataset that fails does not
stop the others (steps.for_each_dataset)."""

from threshold_choice.reproduction.steps import for_each_dataset, step_evaluate

models = snakemake.params.models


def evaluate(i, dataset):
    mine = slice(i * len(models), (i + 1) * len(models))  # inputs are dataset-major
    step_evaluate(
        list(snakemake.input.scores)[mine],
        dataset,
        snakemake.output.runs[i],
        methods=snakemake.params.methods,
        gammas=snakemake.params.gammas,
        settings=snakemake.params.settings,
        out_timings=snakemake.output.timings[i],
    )


for_each_dataset(snakemake.params.datasets, snakemake.log, evaluate)
