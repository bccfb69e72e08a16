"""Rule extension: what was added, the findings re-judged on the extension, its report page."""

from threshold_choice.reproduction.scope import Extension
from threshold_choice.reproduction.steps import log_to, step_extension

with log_to(snakemake.log[0]):
    step_extension(
        snakemake.input.runs,
        {name: snakemake.input[name] for name in snakemake.params.tables},
        {name: snakemake.output[name] for name in ("added", "findings", "page")},
        extension=Extension.of(**snakemake.params.scope),
        baselines=snakemake.params.baselines,
        published_dir=snakemake.params.scope["published_dir"],
        figures=snakemake.params.figures,
    )
