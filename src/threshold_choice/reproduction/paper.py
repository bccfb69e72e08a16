"""The facts of the reproduced paper (Ferri, Hernández-Orallo & Flach, DMKD 2019), in one place.

The reproduction (tables, figures, comparison, the config check) and the workflow's rules read
them from here: which threshold choice methods and certainty levels the paper evaluates, which
model types are baselines, the published tables' columns, and which figures exist with the
dataset and model types each shows. The paper's methods and certainty levels are the
library's defaults, so they are defined with the methods (``methods.PAPER_METHODS``) and the
uncertainty model (``uncertainty.PAPER_GAMMAS``) and read here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from threshold_choice._repository import CONFIG_DIR

# the paper's methods and certainty levels are the library's defaults, defined with the methods
# and the uncertainty model
from threshold_choice.methods import PAPER_METHODS
from threshold_choice.uncertainty import PAPER_GAMMAS

#: the published tables print 3 decimals: a value within half a unit of the last digit is
#: "equal at the published precision" (the comparison's default tolerance; the config
#: schema's default is tested equal to it)
TOLERANCE: float = 0.0005

#: the folder of the published tables (Tables 5, 7, 8 as CSV; package data)
PUBLISHED_DIR = CONFIG_DIR / "published"

#: the baseline model types of Table 6, left out of Table 8 and of Fig. 5
BASELINES: tuple[str, ...] = ("Prior", "Random")

# -- the published tables' columns ---------------------------------------------------------------

def method_column(method: str) -> str:
    """The column of a method's loss in Tables 7 and 8: its name with ``-`` -> ``_``."""
    return method.replace("-", "_")


#: method name -> column name in Tables 7 and 8
METHOD_COLUMNS: dict[str, str] = {m: method_column(m) for m in PAPER_METHODS}
METRIC_COLUMNS: tuple[str, ...] = ("AUC", "BS", "CL", "RL")
LOSS_COLUMNS: tuple[str, ...] = tuple(METHOD_COLUMNS.values())
#: the shares of runs where score-driven / rate-driven beat train-optimal: share column ->
#: (the reference method, the method compared with it)
SHARE_METHODS: dict[str, tuple[str, str]] = {
    "sc_vs_tr": ("train-optimal", "score-driven"),
    "rd_vs_tr": ("train-optimal", "rate-driven"),
}
SHARE_COLUMNS: tuple[str, ...] = tuple(SHARE_METHODS)
VALUE_COLUMNS: tuple[str, ...] = (*METRIC_COLUMNS, *LOSS_COLUMNS, *SHARE_COLUMNS)


def value_columns(methods: Iterable[str] = PAPER_METHODS) -> tuple[str, ...]:
    """The value columns of Tables 7 and 8 showing ``methods``: the metrics, one loss column
    per method, and each share whose two methods are shown (:data:`VALUE_COLUMNS` for the
    paper's four)."""
    methods = tuple(methods)
    shares = tuple(s for s, pair in SHARE_METHODS.items() if set(pair) <= set(methods))
    return (*METRIC_COLUMNS, *map(method_column, methods), *shares)
TABLE5_COLUMNS: tuple[str, ...] = ("number", "dataset", "instances", "attributes", "majority")
TABLE7_COLUMNS: tuple[str, ...] = ("model", *VALUE_COLUMNS)
TABLE8_COLUMNS: tuple[str, ...] = ("number", "dataset", *VALUE_COLUMNS)

# -- the conditions of the published numbers ------------------------------------------------------

#: the evaluation settings that define what the published numbers measure: the true cost
#: proportion c uniform on [0, 1], the test set's class proportions, accuracy-based loss. A run
#: under other values measures something else: the published numbers do not apply to it.
PAPER_CONDITIONS: dict[str, Any] = {"cost_distribution": "uniform", "prior": None,
                                    "loss": "accuracy"}
#: how the paper estimated those numbers (its grid estimator and two conventions of the
#: authors' code). Another estimator measures the same quantity, so the comparison still
#: applies; its notes say which differ.
PAPER_ESTIMATION: dict[str, Any] = {"estimator": "grid", "grid_size": 1000,
                                    "rate_threshold_offset": 1.0e-7, "tie_breaking": "authors"}
_SAME_DISTRIBUTION = {"uniform", "uniform:0,1"}


def conditions_note(evaluation: Mapping[str, Any]) -> str:
    """The operating conditions of ``evaluation`` settings (the config's ``evaluation``
    mapping; absent keys take the paper's values) that differ from :data:`PAPER_CONDITIONS`,
    for captions and the comparison; ``""`` when they are the paper's."""
    notes = []
    distribution = str(evaluation.get("cost_distribution", "uniform")).strip()
    if distribution not in _SAME_DISTRIBUTION:
        notes.append(f"c ~ {distribution}")
    if evaluation.get("prior") is not None:
        notes.append(f"deployment class-0 proportion {evaluation['prior']}")
    if evaluation.get("loss", "accuracy") != "accuracy":
        notes.append(f"{evaluation['loss']} loss")
    return "; ".join(notes)


def estimation_note(evaluation: Mapping[str, Any]) -> str:
    """The estimation settings of ``evaluation`` that differ from :data:`PAPER_ESTIMATION`
    (e.g. ``"estimator exact (paper: grid)"``); ``""`` when they are the paper's."""
    notes = []
    for key, paper in PAPER_ESTIMATION.items():
        value = evaluation.get(key, paper)
        if key == "grid_size" and evaluation.get("estimator", "grid") == "exact":
            continue  # the exact estimator has no grid
        if value != paper:
            notes.append(f"{key} {value} (paper: {paper})")
    return "; ".join(notes)


# -- the figures ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class FigureSpec:
    """One figure of the paper: the dataset whose scores it plots (``None``: it plots the
    collected runs or the toy example) and the model types it needs (it is drawn only when
    the configuration runs all of them on that dataset)."""

    stem: str
    dataset: str | None = None
    models: tuple[str, ...] = ()


#: Figs 1-9 (captions and Sect. 6.3); Figs 3, 4 and 7 are the credit-a cost curves
FIGURES: dict[str, FigureSpec] = {
    f.stem: f
    for f in (
        FigureSpec("fig1", "spambase", ("J48Unp",)),
        FigureSpec("fig2"),
        FigureSpec("fig3", "credit-a", ("Prior", "Random")),
        FigureSpec("fig4", "credit-a", ("J48Unp", "NB")),
        FigureSpec("fig5"),
        FigureSpec("fig6"),
        FigureSpec("fig7", "credit-a", ("J48", "J48Unp", "IBK10", "IBK1", "SVMp", "SVM")),
        FigureSpec("fig8"),
        FigureSpec("fig9"),
    )
}
#: How the authors drew Fig. 1 (their ``Uncertainty/plot_example_noise.R``): ``set.seed(0)``,
#: the rows shuffled, caret's ``createDataPartition(p = 0.01)``: J48Unp trained on 1% of
#: spambase (47 rows: 28 of class 1, 19 of class 0) and tested on the other 99% (4554 rows).
#: That is the tree of Appendix B (its 5 leaves and training counts; Figs 8 and 9), whose text
#: gives these sizes; Fig. 1's caption says "trained with 99%", the parts swapped.
FIG1_PROTOCOL = {"train_fraction": 0.01, "seed": 0}
#: Sect. 1's worked example on Fig. 1: the cost proportion is estimated as 0.15 but is 0.4;
#: the line test-optimal chose for 0.15 rises from about 0.1 to above 0.3 (the green arrows),
#: train-optimal's falls slightly (the blue arrows)
FIG1_WORKED_EXAMPLE = {"c_hat": 0.15, "c": 0.4, "methods": ("test-optimal", "train-optimal")}

#: the figures of the credit-a cost curves, drawn by one step
CREDIT_A_FIGURES: tuple[str, ...] = ("fig3", "fig4", "fig7")


def figure_models(stems: Iterable[str]) -> tuple[str, ...]:
    """The model types the figures ``stems`` show, each once, in order of first appearance."""
    return tuple(dict.fromkeys(m for stem in stems for m in FIGURES[stem].models))


def figures_drawn(datasets: Iterable[str], models: Iterable[str]) -> list[str]:
    """The stems (sorted) of the figures a configuration running ``models`` on ``datasets``
    can draw: those without a dataset, and those whose dataset and model types it runs."""
    datasets, models = set(datasets), set(models)
    return sorted(
        f.stem for f in FIGURES.values()
        if f.dataset is None or (f.dataset in datasets and set(f.models) <= models)
    )


__all__ = [
    "BASELINES",
    "CREDIT_A_FIGURES",
    "FIGURES",
    "LOSS_COLUMNS",
    "METHOD_COLUMNS",
    "METRIC_COLUMNS",
    "PAPER_CONDITIONS",
    "PAPER_ESTIMATION",
    "PAPER_GAMMAS",
    "PAPER_METHODS",
    "PUBLISHED_DIR",
    "SHARE_COLUMNS",
    "SHARE_METHODS",
    "TABLE5_COLUMNS",
    "TABLE7_COLUMNS",
    "TABLE8_COLUMNS",
    "TOLERANCE",
    "VALUE_COLUMNS",
    "FigureSpec",
    "conditions_note",
    "estimation_note",
    "figure_models",
    "figures_drawn",
    "method_column",
    "value_columns",
]
