"""Rule table5: Table 5 (datasets) from the prepared data, and the extension's."""

from pathlib import Path

from threshold_choice.reproduction.scope import Extension
from threshold_choice.reproduction.steps import log_to, step_table5

with log_to(snakemake.log[0]):
    extended = list(snakemake.output.extended)
    step_table5(
        list(snakemake.input.parquet),
        Path(snakemake.output.csv).with_suffix(""),
        formats=snakemake.params.formats,
        published_dir=snakemake.params.published,
        extended_stem=Path(extended[0]).with_suffix("") if extended else None,
        extension=Extension(datasets=tuple(snakemake.params.added)),
    )
