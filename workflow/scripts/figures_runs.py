"""Rule figures_runs: Figs 5 and 6 from the per-run results."""

from pathlib import Path

from threshold_choice.pipeline import log_to, step_figures_runs

with log_to(snakemake.log[0]):
    step_figures_runs(
        snakemake.input.runs,
        Path(snakemake.output.fig5).parent,
        methods=snakemake.params.methods,
        baselines=snakemake.params.baselines,
        formats=snakemake.params.formats,
        conditions=snakemake.params.conditions,
    )
