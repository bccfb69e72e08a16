"""Rule figures_toy: Figs 2, 8 and 9 (no data needed)."""

from pathlib import Path

from threshold_choice.pipeline import log_to, step_figures_toy

with log_to(snakemake.log[0]):
    step_figures_toy(Path(snakemake.output.fig2).parent, formats=snakemake.params.formats)
