"""Rule figure1: Fig. 1 (J48Unp on spambase)."""

from threshold_choice.reproduction.steps import log_to, step_figure1, weka_jar_of

with log_to(snakemake.log[0]):
    step_figure1(
        snakemake.input.source,
        list(snakemake.output.fig1),
        settings=snakemake.params.settings,
        entry=snakemake.params.entry,
        seed=snakemake.params.seed,
        weka_jar=weka_jar_of(snakemake.input.weka_jar or None),
    )
