"""Rule prepare_dataset: a thin wrapper over threshold_choice.pipeline.step_prepare."""

from threshold_choice.pipeline import log_to, step_prepare

with log_to(snakemake.log[0]):
    step_prepare(
        snakemake.wildcards.dataset,
        snakemake.output.parquet,
        mirror=snakemake.params.mirror,
        cache_dir=snakemake.params.cache,
        registry=snakemake.params.registry,
    )
