"""The facts of the reproduced paper (Ferri, Hernández-Orallo & Flach, DMKD 2019), in one place.

The reproduction (tables, figures, comparison, the config check) and the workflow's rules read
them from here: which threshold choice methods and certainty levels the paper evaluates, which
model types are baselines, the published tables' columns, and which figures exist with the
dataset and model types each shows. The paper's methods and certainty levels are the
library's defaults, so they are defined with the methods (``methods.PAPER_METHODS``) and the
uncertainty model (``uncertainty.PAPER_GAMMAS``) and read here.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

# the paper's methods and certainty levels are the library's defaults, defined with the methods
# and the uncertainty model
from threshold_choice.methods import PAPER_METHODS
from threshold_choice.uncertainty import PAPER_GAMMAS

#: the baseline model types of Table 6, left out of Table 8 and of Fig. 5
BASELINES: tuple[str, ...] = ("Prior", "Random")

# -- the published tables' columns ---------------------------------------------------------------

#: method name -> column name in Tables 7 and 8
METHOD_COLUMNS: dict[str, str] = {m: m.replace("-", "_") for m in PAPER_METHODS}
METRIC_COLUMNS: tuple[str, ...] = ("AUC", "BS", "CL", "RL")
LOSS_COLUMNS: tuple[str, ...] = tuple(METHOD_COLUMNS.values())
#: the shares of runs where score-driven / rate-driven beat train-optimal
SHARE_COLUMNS: tuple[str, ...] = ("sc_vs_tr", "rd_vs_tr")
VALUE_COLUMNS: tuple[str, ...] = (*METRIC_COLUMNS, *LOSS_COLUMNS, *SHARE_COLUMNS)
TABLE5_COLUMNS: tuple[str, ...] = ("number", "dataset", "instances", "attributes", "majority")
TABLE7_COLUMNS: tuple[str, ...] = ("model", *VALUE_COLUMNS)
TABLE8_COLUMNS: tuple[str, ...] = ("number", "dataset", *VALUE_COLUMNS)

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
    "PAPER_GAMMAS",
    "PAPER_METHODS",
    "SHARE_COLUMNS",
    "TABLE5_COLUMNS",
    "TABLE7_COLUMNS",
    "TABLE8_COLUMNS",
    "VALUE_COLUMNS",
    "FigureSpec",
    "figure_models",
    "figures_drawn",
]
