"""Rule weka_authors: a thin wrapper over threshold_choice.reproduction.steps.step_authors_weka."""

from threshold_choice.reproduction.steps import log_to, step_authors_weka

with log_to(snakemake.log[0]):
    step_authors_weka(snakemake.params.cache, snakemake.output[0])
