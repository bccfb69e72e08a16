"""Rule figures_credit_a: Figs 3, 4 and 7 (credit-a cost curves)."""

from threshold_choice.pipeline import log_to, step_credit_a_figures

with log_to(snakemake.log[0]):
    step_credit_a_figures(
        list(snakemake.input.scores),
        list(snakemake.output.figures),
        gammas=snakemake.params.gammas,
        estimator=snakemake.params.estimator,
        formats=snakemake.params.formats,
    )
