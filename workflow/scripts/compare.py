"""Rule compare: diff against the published numbers and check the paper's findings."""

from threshold_choice.reproduction.steps import log_to, step_compare

with log_to(snakemake.log[0]):
    step_compare(
        {
            "table5": snakemake.input.table5,
            "table7": snakemake.input.table7,
            "table8": snakemake.input.table8,
        },
        snakemake.input.runs,
        {
            "table5": snakemake.output.table5_diff,
            "table7": snakemake.output.table7_diff,
            "table8": snakemake.output.table8_diff,
            "summary": snakemake.output.summary,
            "findings": snakemake.output.findings,
        },
        published_dir=snakemake.params.published,
        tolerance=snakemake.params.tolerance,
        baselines=snakemake.params.baselines,
    )
