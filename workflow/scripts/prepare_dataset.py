"""Rules prepare_<n>: a thin wrapper over
threshold_choice.reproduction.steps.step_prepare_and_split, run for each dataset of the job in
turn, each with its own log."""

from threshold_choice.reproduction.steps import log_to, step_prepare_and_split

data = snakemake.config["data"]
for i, dataset in enumerate(snakemake.params.datasets):
    with log_to(snakemake.log[i]):
        step_prepare_and_split(
            dataset,
            snakemake.output.parquet[i],
            snakemake.output.splits[i],
            mirror=data["mirror"],
            cache_dir=data["cache"],
            registry=data["registry"],
            splitter=snakemake.params.splits["splitter"],
            iterations=snakemake.params.splits["iterations"],
        )
