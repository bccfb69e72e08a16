"""Rule figures_toy: Figs 2, 8 and 9 (no data needed)."""

from threshold_choice.reproduction.steps import log_to, step_figures_toy

with log_to(snakemake.log[0]):
    step_figures_toy(
        list(snakemake.output.fig2),
        list(snakemake.output.fig8),
        list(snakemake.output.fig9),
        settings=snakemake.params.settings,
    )
