"""Rule tables: Tables 7 and 8 at each of the paper's gammas (and the extension's)."""

from threshold_choice.reproduction.scope import Extension
from threshold_choice.reproduction.steps import log_to, step_tables

with log_to(snakemake.log[0]):
    step_tables(
        snakemake.input.runs,
        snakemake.params.gammas,
        list(snakemake.output.table7),
        list(snakemake.output.table8),
        baselines=snakemake.params.baselines,
        published_dir=snakemake.params.published,
        formats=snakemake.params.formats,
        conditions=snakemake.params.conditions,
        methods=snakemake.params.methods,
        datasets=snakemake.params.datasets,
        extended_table7=list(snakemake.output.extended7),
        extended_table8=list(snakemake.output.extended8),
        extended_gammas=snakemake.params.extended_gammas,
        extension=Extension.of(**snakemake.params.scope),
    )
