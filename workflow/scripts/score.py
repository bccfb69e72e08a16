"""Rules score_<n>: a thin wrapper over threshold_choice.reproduction.steps.step_score, run
for each dataset of the job in turn (one process, one JVM), each with its own log."""

from threshold_choice.reproduction.steps import log_to, step_score

models = snakemake.params.models
for i in range(len(snakemake.params.datasets)):
    mine = slice(i * len(models), (i + 1) * len(models))  # outputs are dataset-major
    with log_to(snakemake.log[i]):
        step_score(
            snakemake.input.parquet[i],
            snakemake.input.splits[i],
            models,
            entries=snakemake.params.entries,
            out_scores=list(snakemake.output.scores)[mine],
            out_timings=list(snakemake.output.timings)[mine],
            seed=snakemake.params.seed,
            weka_jar=snakemake.input.weka_jar or None,
            cache_dir=snakemake.params.cache,
        )
