"""Rule figures_runs: Figs 5 and 6 from the per-run results."""

from threshold_choice.reproduction.steps import log_to, step_figures_runs

with log_to(snakemake.log[0]):
    step_figures_runs(
        snakemake.input.runs,
        list(snakemake.output.fig5),
        list(snakemake.output.fig6),
        methods=snakemake.params.methods,
        baselines=snakemake.params.baselines,
        conditions=snakemake.params.conditions,
    )
