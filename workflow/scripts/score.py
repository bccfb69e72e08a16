"""Rule score: a thin wrapper over threshold_choice.reproduction.steps.step_score."""

from threshold_choice.reproduction.steps import log_to, step_score

with log_to(snakemake.log[0]):
    step_score(
        snakemake.input.parquet,
        snakemake.input.splits,
        snakemake.params.models,
        entries=snakemake.params.entries,
        out_scores=list(snakemake.output.scores),
        out_timings=list(snakemake.output.timings),
        seed=snakemake.params.seed,
        weka_jar=snakemake.input.weka_jar or None,
        cache_dir=snakemake.params.cache,
    )
