# Reproduction of Ferri, Hernandez-Orallo & Flach (DMKD 2019): see README.md.
#   snakemake --cores 8                               (the paper: Weka, R splits)
#   snakemake --cores 8 --configfile config/sklearn.yaml (scikit-learn learners, no JVM)
from snakemake.utils import min_version, validate

from threshold_choice.errors import UserError
from threshold_choice.reproduction.config import validate_config

min_version("9.27")  # a priority given as a function (larger datasets first)


configfile: "config/config.yaml"


try:
    validate_config(
        config,
        lambda c: validate(c, "workflow/schemas/config.schema.yaml"),
        workflow.basedir,
    )
except UserError as exc:
    raise WorkflowError(str(exc)) from None


# the report's first page: the headline of the comparison (rule report_page)
report: "workflow/report/workflow.rst"


include: "workflow/rules/common.smk"
include: "workflow/rules/data.smk"
include: "workflow/rules/weka.smk"
include: "workflow/rules/scores.smk"
include: "workflow/rules/evaluate.smk"
include: "workflow/rules/tables.smk"
include: "workflow/rules/figures.smk"
include: "workflow/rules/compare.smk"
include: "workflow/rules/significance.smk"
include: "workflow/rules/extension.smk"


rule all:
    default_target: True
    input:
        all_outputs(),
