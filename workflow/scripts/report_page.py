"""Rule report_page: the first page of the report (the headline of the comparison) and
Tables 7 and 8 at every gamma as pages of the report."""

from threshold_choice.reproduction.layout import table_gamma
from threshold_choice.reproduction.steps import log_to, step_report_page

with log_to(snakemake.log[0]):
    step_report_page(
        {
            "summary": snakemake.input.summary,
            "findings": snakemake.input.findings,
            "table5": snakemake.input.table5_diff,
            "table7": snakemake.input.table7_diff,
            "table8": snakemake.input.table8_diff,
        },
        {"table7": snakemake.input.table7, "table8": snakemake.input.table8},
        list(snakemake.params.timings),
        snakemake.output.page,
        tolerance=snakemake.params.tolerance,
        gamma_tables={
            name: {table_gamma(path): path for path in snakemake.input[name + "_all"]}
            for name in ("table7", "table8")
        },
        pages={"table7": snakemake.output.table7, "table8": snakemake.output.table8},
    )
