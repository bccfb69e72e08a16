"""Rule stale_outputs: remove the tables and figures of an earlier configuration."""

from threshold_choice.reproduction.steps import log_to, step_stale_outputs

with log_to(snakemake.log[0]):
    step_stale_outputs(snakemake.params.results, list(snakemake.params.current),
                       snakemake.output[0])
