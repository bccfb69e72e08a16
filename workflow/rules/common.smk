# Shared helpers of the rules: paths, wildcards and the configuration check.
import os

from threshold_choice.config import check_config
from threshold_choice.errors import UserError
from threshold_choice.pipeline import gamma_label

try:
    check_config(config)
except UserError as exc:
    raise WorkflowError(str(exc)) from None

R = config["results"]
DATASETS = config["datasets"]
MODELS = config["models"]["use"]
GAMMAS = [gamma_label(g) for g in config["evaluation"]["gammas"]]
FIGURE_FORMATS = config.get("figures", {}).get("formats", ["png", "pdf"])
# moment tables of the exact estimator are cached on disk across jobs
os.environ.setdefault("THRESHOLD_CHOICE_CACHE", os.path.join(R, "cache", "moments"))


wildcard_constraints:
    dataset=r"[A-Za-z0-9_.-]+",
    model=r"[A-Za-z0-9_.-]+",
    gamma=r"inf|[0-9]+(\.[0-9]+)?",



def all_outputs():
    return [
        f"{R}/runs.parquet",
        *table_outputs(),
        *figure_outputs(),
        *comparison_outputs(),
    ]


def table_outputs():
    return [f"{R}/tables/table5.csv"]


def figure_outputs():
    return []


def comparison_outputs():
    return []
