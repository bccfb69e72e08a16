"""Rule figures_runs (extension_figures): Figs 5 and 6 of the paper's scope (the
extension's)."""

from threshold_choice.reproduction.steps import log_to, step_figures_runs

with log_to(snakemake.log[0]):
    step_figures_runs(
        snakemake.input.runs,
        list(snakemake.output.fig5),
        list(snakemake.output.fig6),
        methods=snakemake.params.methods,
        baselines=snakemake.params.baselines,
        conditions=snakemake.params.conditions,
        published_dir=snakemake.params.published,
        extended=snakemake.params.extended,
    )
