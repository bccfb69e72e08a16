"""Rule prepare_dataset: a thin wrapper over
threshold_choice.reproduction.steps.step_prepare_and_split."""

from threshold_choice.reproduction.steps import log_to, step_prepare_and_split

data = snakemake.config["data"]
with log_to(snakemake.log[0]):
    step_prepare_and_split(
        snakemake.wildcards.dataset,
        snakemake.output.parquet,
        snakemake.output.splits,
        mirror=data["mirror"],
        cache_dir=data["cache"],
        registry=data["registry"],
        splitter=snakemake.params.splits["splitter"],
        iterations=snakemake.params.splits["iterations"],
    )
