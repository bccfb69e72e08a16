"""The steps of the reproduction workflow, one function per Snakemake rule, by concern:
:mod:`.prepare`, :mod:`.score` (the only one in the score cache's key), :mod:`.weka`,
:mod:`.evaluate`, :mod:`.report` and :mod:`.significance`; :mod:`._io` holds what they share
(logs, one-line errors, atomic writers).

The Snakemake scripts in ``workflow/scripts/`` only unpack ``snakemake.input/output/params``
and call these functions, so every step can also be run and tested without Snakemake.
All outputs are written atomically (temporary file, then rename): an interrupted step leaves
no half-written file behind. Heavy modules (scipy, scikit-learn) are imported inside the
steps that need them: every Snakemake job is a fresh process, and imports are most of a
small job's time.
"""

from threshold_choice.reproduction.steps._io import (
    for_each_dataset,
    log_to,
    one_line,
    write_csv,
    write_parquet,
)
from threshold_choice.reproduction.steps.evaluate import (
    evaluate_scores,
    step_collect,
    step_evaluate,
)
from threshold_choice.reproduction.steps.prepare import (
    step_prepare,
    step_prepare_and_split,
    step_splits,
)
from threshold_choice.reproduction.steps.report import (
    FigureFiles,
    step_compare,
    step_credit_a_figures,
    step_extension,
    step_figure1,
    step_figures_runs,
    step_figures_toy,
    step_report_page,
    step_stale_outputs,
    step_table5,
    step_tables,
)
from threshold_choice.reproduction.steps.score import read_splits, step_score
from threshold_choice.reproduction.steps.significance import step_significance
from threshold_choice.reproduction.steps.weka import (
    retry_authors_weka,
    step_authors_weka,
    weka_jar_of,
    weka_jar_override,
)

__all__ = [
    "FigureFiles",
    "evaluate_scores",
    "for_each_dataset",
    "log_to",
    "one_line",
    "read_splits",
    "retry_authors_weka",
    "step_authors_weka",
    "step_collect",
    "step_compare",
    "step_credit_a_figures",
    "step_evaluate",
    "step_extension",
    "step_figure1",
    "step_figures_runs",
    "step_figures_toy",
    "step_prepare",
    "step_prepare_and_split",
    "step_report_page",
    "step_score",
    "step_significance",
    "step_splits",
    "step_stale_outputs",
    "step_table5",
    "step_tables",
    "weka_jar_of",
    "weka_jar_override",
    "write_csv",
    "write_parquet",
]
