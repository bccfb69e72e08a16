"""Rules prepare_<n>: a thin wrapper over
threshold_choice.reproduction.steps.step_prepare_and_split, run for each dataset of the job in
turn, each with its own log; a dataset that fails does not stop the others
(steps.for_each_dataset)."""

from threshold_choice.reproduction.steps import for_each_dataset, step_prepare_and_split

data = snakemake.config["data"]


def prepare(i, dataset):
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


for_each_dataset(snakemake.params.datasets, snakemake.log, prepare)
