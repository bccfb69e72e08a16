"""The authors' own per-run results, and every mean of a run against them.

The authors' repository (``ceferra/ThresholdChoiceMethods``, Aug 2017) holds their results of
``Uncertainty/experiments_binomial_v72.R`` at 13 gammas (0-10, 16, Inf):
``Uncertainty/Results/new2017bresults_binomial_iter10_p0.5_n<gamma>.Rdata``, each a data frame
``dades`` with one row per (iteration, dataset, model) and the loss of each threshold choice
method. :func:`read_authors_means` reads them (with ``pyreadr``, installed by the ``test``
extra) and averages over the 10 iterations; :func:`compare_means` diffs them with a run's
means (``threshold-choice compare --authors-results CHECKOUT``), naming the known cause of
each pair that differs (:data:`KNOWN_CAUSES`).
"""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

from threshold_choice.errors import UserError
from threshold_choice.reproduction.authors_draws import AUTHORS_MODELS

__all__ = ["GAMMAS", "KNOWN_CAUSES", "METHODS", "MODELS", "OTHER_METHODS", "compare_means",
           "read_authors_means", "read_authors_runs", "run_means", "step_compare_authors_runs"]

#: the authors' columns -> this project's methods (rtun, their rate-uniform, is a random cut
#: among the n + 1 midpoints of the sorted scores: this project's instance-uniform)
METHODS = {"optimal": "test-optimal", "trainoptimal": "train-optimal",
           "scored": "score-driven", "rated": "rate-driven"}
OTHER_METHODS = {"scoredz": "score-driven-z", "ratedz": "rate-driven-z",
                 "scdun": "score-uniform", "rtun": "instance-uniform"}
#: their models in their script's order (the Method column), under this project's names
MODELS = AUTHORS_MODELS
GAMMAS: tuple[float, ...] = (*map(float, range(11)), 16.0, math.inf)
RESULTS = "Uncertainty/Results/new2017bresults_binomial_iter10_p0.5_n{}.Rdata"


def read_authors_runs(checkout: Path, columns: dict[str, str] | None = None) -> pd.DataFrame:
    """Their per-run losses: columns dataset, model, split (their iteration), gamma, method,
    loss, as this project's runs tables (``columns``: theirs -> our methods; default
    :data:`METHODS`, the paper's four)."""
    try:
        import pyreadr
    except ImportError:
        raise UserError("reading the authors' .Rdata results needs pyreadr: pip install "
                        "pyreadr (or the test extra)") from None
    columns = METHODS if columns is None else columns
    checkout = Path(checkout)
    missing = [g for g in GAMMAS if not (checkout / RESULTS.format(_label(g))).is_file()]
    if missing or not (checkout / "data").is_dir():
        raise UserError(f"{checkout} is not a checkout of ceferra/ThresholdChoiceMethods (no "
                        f"{RESULTS.format(_label(missing[0]) if missing else 'Inf')} or data/); "
                        "clone it and give its folder")
    datasets = sorted(p.stem for p in (checkout / "data").glob("*.arff"))  # list.files order
    frames = []
    for gamma in GAMMAS:
        dades = pyreadr.read_r(checkout / RESULTS.format(_label(gamma)))["dades"]
        long = dades.melt(id_vars=["iter", "Dataset", "Method"], value_vars=list(columns),
                          var_name="column", value_name="loss")
        frames.append(pd.DataFrame({
            "dataset": [datasets[int(i) - 1] for i in long["Dataset"]],
            "model": [MODELS[int(i) - 1] for i in long["Method"]],
            "split": long["iter"].astype(int), "gamma": gamma,
            "method": long["column"].map(columns), "loss": long["loss"],
        }))
    return pd.concat(frames, ignore_index=True)


def read_authors_means(checkout: Path, columns: dict[str, str] | None = None) -> pd.DataFrame:
    """Their means over the iterations: columns dataset, model, gamma, method, loss
    (:func:`read_authors_runs` averaged)."""
    runs = read_authors_runs(checkout, columns)
    keys = ["dataset", "model", "gamma", "method"]
    return runs.groupby(keys, sort=False)["loss"].mean().reset_index()


def run_means(paths: list[Path]) -> pd.DataFrame:
    """Our means over the splits: columns dataset, model, gamma, method, loss."""
    runs = pd.concat([pd.read_parquet(p) for p in paths], ignore_index=True)
    keys = ["dataset", "model", "gamma", "method"]
    return runs.groupby(keys, sort=False)["loss"].mean().reset_index()


def compare_means(authors: pd.DataFrame, ours: pd.DataFrame,
                  tolerance: float = 5e-7) -> pd.DataFrame:
    """Every pair both hold, with ``difference`` (ours - theirs), ``agree`` and, for a pair
    that differs, its known ``cause`` (empty when none is known)."""
    keys = ["dataset", "model", "gamma", "method"]
    both = authors.merge(ours, on=keys, suffixes=("_authors", "_ours"))
    both["difference"] = both["loss_ours"] - both["loss_authors"]
    both["agree"] = both["difference"].abs() <= tolerance
    both["cause"] = ""
    for (dataset, model, method), cause in KNOWN_CAUSES.items():
        hit = ~both["agree"] & (both["model"] == model) & (both["method"] == method)
        if dataset != "*":
            hit &= both["dataset"] == dataset
        both.loc[hit, "cause"] = cause
    return both


def step_compare_authors_runs(runs_path: Path | str, checkout: Path | str,
                              out: Path | str) -> pd.DataFrame:
    """Every mean of the runs table ``runs_path`` against the authors' results in
    ``checkout``, written to ``out`` (CSV: :func:`compare_means`' columns); returned too."""
    from threshold_choice.reproduction.steps._io import write_csv

    both = compare_means(read_authors_means(Path(checkout)), run_means([Path(runs_path)]))
    write_csv(both, out)
    return both


def _label(gamma: float) -> str:
    return "Inf" if math.isinf(gamma) else str(int(gamma))


_NB_TIES = ("the authors' test-optimal thresholds at the midpoint of the two distinct scores "
            "around the chosen line; where they are adjacent doubles (NB's scores near 1) the "
            "midpoint rounds onto the upper one, which is then predicted 0 too: their loss is "
            "another line's (evaluation.estimator authors reproduces it)")
_RATE_CUT = ("the authors' rate-uniform thresholds at the midpoint of two sorted scores, which "
             "for tied scores is the score itself (the whole tie predicted 0); "
             "instance-uniform mixes the adjacent cuts' lines instead")
#: (dataset or "*", model or "*", method) -> why the pairs differ
KNOWN_CAUSES: dict[tuple[str, str, str], str] = {
    **{(d, "NB", "test-optimal"): _NB_TIES for d in ("musk1", "ozone", "sonar")},
    **{("*", m, "instance-uniform"): _RATE_CUT for m in MODELS},
}
