"""Rule figures_credit_a: Figs 3, 4 and 7 (credit-a cost curves); each named output is a
figure's list of files."""

from threshold_choice.reproduction.steps import log_to, step_credit_a_figures

with log_to(snakemake.log[0]):
    step_credit_a_figures(
        list(snakemake.input.scores),
        {name: list(files) for name, files in snakemake.output.items()},
        gammas=snakemake.params.gammas,
        settings=snakemake.params.settings,
    )
