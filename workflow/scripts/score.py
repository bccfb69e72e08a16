"""Rules score_<n>: a thin wrapper over threshold_choice.reproduction.steps.step_score, run
for each dataset of the job in turn (one process, one JVM), each with its own log; a dataset
that fails does not stop the others (steps.for_each_dataset)."""

from threshold_choice.reproduction.steps import for_each_dataset, step_score, weka_jar_of

models = snakemake.params.models
weka_jar = weka_jar_of(snakemake.input.weka_jar or None)


def score(i, dataset):
    mine = slice(i * len(models), (i + 1) * len(models))  # outputs are dataset-major
    step_score(
        snakemake.input.parquet[i],
        snakemake.input.splits[i],
        models,
        entries=snakemake.params.entries,
        out_scores=list(snakemake.output.scores)[mine],
        out_timings=list(snakemake.output.timings)[mine],
        seed=snakemake.params.seed,
        weka_jar=weka_jar,
        cache_dir=snakemake.params.cache,
    )


for_each_dataset(snakemake.params.datasets, snakemake.log, score)
