"""Rule report_page: the first page of the report (the headline of the comparison)."""

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
        list(snakemake.input.timings),
        snakemake.output[0],
        tolerance=snakemake.params.tolerance,
    )
