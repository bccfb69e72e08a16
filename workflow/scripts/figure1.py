"""Rule figure1: Fig. 1 (J48Unp on spambase)."""

from threshold_choice.reproduction.steps import log_to, step_figure1

with log_to(snakemake.log[0]):
    step_figure1(
        snakemake.input.scores,
        list(snakemake.output.fig1),
        estimator=snakemake.params.estimator,
    )
