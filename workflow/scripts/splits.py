"""Rule splits: a thin wrapper over threshold_choice.pipeline.step_splits."""

from threshold_choice.pipeline import log_to, step_splits

with log_to(snakemake.log[0]):
    step_splits(
        snakemake.input.parquet,
        snakemake.wildcards.dataset,
        snakemake.output.csv,
        splitter=snakemake.params.splitter,
        iterations=snakemake.params.iterations,
    )
