"""Rule tables: Tables 7 and 8 at one gamma."""

from pathlib import Path

from threshold_choice.pipeline import log_to, step_tables

with log_to(snakemake.log[0]):
    step_tables(
        snakemake.input.runs,
        snakemake.wildcards.gamma,
        Path(snakemake.output.table7).with_suffix(""),
        Path(snakemake.output.table8).with_suffix(""),
        baselines=snakemake.params.baselines,
        published_dir=snakemake.params.published,
        formats=snakemake.params.formats,
    )
