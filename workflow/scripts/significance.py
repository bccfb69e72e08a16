"""Rules significance_<scope>: the statistical comparisons of one scope's runs."""

from threshold_choice.reproduction import layout
from threshold_choice.reproduction.steps import log_to, step_significance

with log_to(snakemake.log[0]):
    step_significance(
        snakemake.input.runs,
        {name: snakemake.output[name] for name in layout.SIGNIFICANCE_TABLES},
        snakemake.params.figures,
        verdict_page=snakemake.output.verdict_page,
        scope=snakemake.params.scope,
        methods=snakemake.params.methods,
        model_methods=snakemake.params.model_methods,
        gammas=snakemake.params.gammas,
        baselines=snakemake.params.baselines,
        published_dir=snakemake.params.published,
        settings=snakemake.params.settings,
        formats=snakemake.params.formats,
        conditions=snakemake.params.conditions,
    )
