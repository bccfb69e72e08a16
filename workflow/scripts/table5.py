"""Rule table5: Table 5 (datasets) from the prepared data."""

from pathlib import Path

from threshold_choice.reproduction.steps import log_to, step_table5

with log_to(snakemake.log[0]):
    step_table5(list(snakemake.input.parquet), Path(snakemake.output.csv).with_suffix(""),
                formats=snakemake.params.formats, published_dir=snakemake.params.published)
