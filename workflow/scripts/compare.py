"""Rule compare: diff against the published numbers and check the paper's findings."""

from pathlib import Path

from threshold_choice.pipeline import log_to, step_compare

with log_to(snakemake.log[0]):
    step_compare(
        Path(snakemake.output.summary).parent.parent,
        published_dir=snakemake.params.published,
        tolerance=snakemake.params.tolerance,
    )
