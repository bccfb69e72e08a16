"""The authors' draws of ``c_hat``, replayed from R's stream as their script drew them.

Their script (``Uncertainty/experiments_binomial_v72.R`` of ``ceferra/ThresholdChoiceMethods``,
run once per gamma) did, for each dataset and iteration ``i``:

1. ``set.seed(i)``; the split: ``sample(nrow)`` (``n`` uniforms) and caret's
   ``createDataPartition`` (one uniform per training row), see
   :class:`~threshold_choice.splits.RSplitter`;
2. for each of the 12 models in :data:`AUTHORS_MODELS` in turn: the Random model's scores
   (``runif(n_train)`` then ``runif(n_test)``; the Weka learners draw nothing from R's
   stream), then for each grid point ``c = it/1000, it = 1..1000``:

   * ``c_hat``: ``rbeta(1, alpha, beta)`` with ``alpha = gamma*c + 1`` and
     ``beta = gamma - alpha + 2`` (R's arithmetic, kept here); ``runif(1, 0, 1)`` at
     gamma = 0; ``c`` itself at gamma = inf (no draw);
   * score-uniform's threshold ``runif(1)``;
   * rate-uniform's ``sample(1:(n_test + 1), 1)``: one uniform (R 3.5's sampling).

   The four methods of the paper (and the skew variants) are evaluated at that ``c_hat``;
   score-uniform at its threshold, rate-uniform at its uniform.

So every draw is a function of the iteration, the split's sizes, the model's position and
gamma: :func:`replay_iteration` gives them. The Random model's scores differ from gamma to
gamma (their position in the stream follows the draws of the 11 models before it).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from threshold_choice._typing import FloatArray
from threshold_choice.errors import UserError
from threshold_choice.splits.rng_r import RMersenneTwister

__all__ = ["AUTHORS_MODELS", "DatasetReplay", "GridDraws", "IterationDraws", "replay_dataset",
           "replay_iteration"]

#: the authors' models in their script's order (their names J48, J48Unp, logist, NB, Stump,
#: IBK, IBK1, SMV, SMVp, PART, Major, Random), under this project's names
AUTHORS_MODELS: tuple[str, ...] = ("J48", "J48Unp", "Logist", "NB", "Stump", "IBK10", "IBK1",
                                   "SVM", "SVMp", "PART", "Prior", "Random")
#: the model whose scores are R's uniforms
RANDOM_MODEL = "Random"


@dataclass(frozen=True)
class GridDraws:
    """One model's draws over the grid ``c = i/grid_size`` (one value per grid point)."""

    #: the presumed cost proportion the methods were given
    c_hat: FloatArray
    #: score-uniform's threshold (its ``runif(1)``)
    score_uniform: FloatArray
    #: the uniform of rate-uniform's ``sample(1:(n + 1), 1)`` (cut ``floor((n + 1) u)``)
    rate_uniform: FloatArray


@dataclass(frozen=True)
class IterationDraws:
    """Everything the authors' script drew after the split of one iteration, at one gamma."""

    #: by model, in :data:`AUTHORS_MODELS` order
    grid: dict[str, GridDraws]
    #: the Random model's training and test scores
    random_train: FloatArray
    random_test: FloatArray


def _grid_draws(stream: RMersenneTwister, gamma: float, grid_size: int) -> GridDraws:
    c = np.arange(1, grid_size + 1, dtype=np.float64) / grid_size  # R: it/km
    if math.isinf(gamma):
        u = stream.unif_rand(2 * grid_size)
        return GridDraws(c, u[0::2], u[1::2])
    if gamma == 0:
        u = stream.unif_rand(3 * grid_size)
        return GridDraws(u[0::3], u[1::3], u[2::3])
    alphas = gamma * c + 1.0  # R: alphabeta*creal + 1; beta: alphabeta - alpha + 2
    c_hat, after = stream.rbeta_each(alphas, gamma - alphas + 2.0, then=2)
    score_u, rate_u = after[:, 0], after[:, 1]
    return GridDraws(c_hat, score_u, rate_u)


def replay_iteration(iteration: int, n_train: int, n_test: int, gamma: float, *,
                     grid_size: int = 1000,
                     models: Sequence[str] = AUTHORS_MODELS) -> IterationDraws:
    """The authors' draws after the split of ``iteration`` at ``gamma`` (module docstring).

    ``n_train``, ``n_test``: the split's sizes (all rows of the dataset, the rows with
    missing values included, as R's data frames). The split itself consumed
    ``n_train + n_test`` uniforms (``sample``) and ``n_train`` more (``createDataPartition``
    takes ``ceiling(n_level / 2)`` rows of each class, one uniform each).
    """
    stream = RMersenneTwister(iteration)
    stream.skip(2 * n_train + n_test)
    grid: dict[str, GridDraws] = {}
    random_train = random_test = np.empty(0)
    for model in models:
        if model == RANDOM_MODEL:
            random_train = stream.unif_rand(n_train)
            random_test = stream.unif_rand(n_test)
        grid[model] = _grid_draws(stream, float(gamma), grid_size)
    return IterationDraws(grid, random_train, random_test)


@dataclass(frozen=True)
class DatasetReplay:
    """The authors' draws for every split of one dataset at each gamma
    (:func:`replay_dataset`)."""

    #: the Random model's scores table (its stored scores are the gamma = inf run's)
    random: pd.DataFrame
    #: per split: its training and test rows' index in ``random``
    parts: dict[int, tuple[pd.Index, pd.Index]]
    #: per (split, gamma)
    replays: dict[tuple[int, float], IterationDraws]

    def draws(self, model: str, gammas: Sequence[float]) -> dict[int, Any]:
        """Per split, the :class:`~threshold_choice.evaluation.RunDraws` of ``model`` at
        ``gammas``."""
        from threshold_choice.evaluation import RunDraws

        out = {}
        for split in self.parts:
            grids = [self.replays[(split, g)].grid[model] for g in gammas]
            out[split] = RunDraws([d.c_hat for d in grids], [d.score_uniform for d in grids],
                                  [d.rate_uniform for d in grids])
        return out

    def random_scores(self, gamma: float) -> pd.DataFrame:
        """The Random model's scores table with the scores R drew at ``gamma``."""
        redrawn = self.random.copy()
        for split, (train, test) in self.parts.items():
            replay = self.replays[(split, gamma)]
            redrawn.loc[train, "score"] = replay.random_train
            redrawn.loc[test, "score"] = replay.random_test
        return redrawn


def replay_dataset(scores: Mapping[str, pd.DataFrame], dataset: str, gammas: Sequence[float],
                   *, grid_size: int = 1000) -> DatasetReplay:
    """The authors' draws for one dataset's models (``scores``: every model of
    :data:`AUTHORS_MODELS`, each a scores table of the R splits; their draws follow one
    another in R's stream) at each of ``gammas``. The Random model's stored scores (the
    gamma = inf run's) are checked against the replay, which fails for splits that are not
    the authors'."""
    missing = [m for m in AUTHORS_MODELS if m not in scores]
    extra = [m for m in scores if m not in AUTHORS_MODELS]
    if missing or extra:
        raise UserError(
            f"dataset {dataset}: the authors estimator replays the stream of the authors' 12 "
            f"models ({', '.join(AUTHORS_MODELS)}); "
            + (f"missing {', '.join(missing)}" if missing else f"not theirs: {', '.join(extra)}")
            + " (set models.use to their 12, or choose another estimator)")
    random = scores[RANDOM_MODEL]
    parts = {int(split): (frame.index[(frame["part"] == "train").to_numpy()],
                          frame.index[(frame["part"] == "test").to_numpy()])
             for split, frame in random.groupby("split", sort=True)}
    replays = {(split, g): replay_iteration(split, len(train), len(test), g,
                                            grid_size=grid_size)
               for split, (train, test) in parts.items() for g in (*gammas, math.inf)}
    for split, (train, test) in parts.items():
        inf = replays[(split, math.inf)]
        if not (np.array_equal(random.loc[train, "score"].to_numpy(), inf.random_train)
                and np.array_equal(random.loc[test, "score"].to_numpy(), inf.random_test)):
            raise UserError(
                f"dataset {dataset}, split {split}: the Random model's scores are not R's "
                "uniforms where the authors' script drew them, so the draws cannot be replayed "
                "(use splits.splitter: r and the authors' Random), or choose another estimator")
    return DatasetReplay(random, parts, replays)


def midpoint_collapses(scores: FloatArray) -> bool:
    """Whether two adjacent distinct scores have a midpoint that rounds onto the upper one
    (adjacent doubles), where the authors' test-optimal threshold
    (:func:`authors_test_optimal_losses`) is not the cut it chose."""
    u = np.unique(np.asarray(scores, dtype=np.float64))
    return bool(np.any((u[1:] + u[:-1]) / 2 == u[1:]))


def authors_test_optimal_losses(labels: FloatArray, scores: FloatArray, c_hat: FloatArray,
                                c: FloatArray) -> FloatArray:
    """The authors' test-optimal loss at each true cost ``c`` given ``c_hat``: their
    ``ThresMin`` then ``comp_cost_single`` (``Threshold_methods.R``, ``cost_functions.R``).

    ``ThresMin`` takes the first lowest cost line at ``c_hat`` (heights as their ``MinCost``
    computes them: ``(F1/n1)*pi1*2`` at ``c = 0``, ``((1 - F0/n0)*pi0)*2`` at ``c = 1``, line
    ``j`` predicting the ``j - 1`` lowest distinct scores 0) and thresholds at the midpoint of
    the distinct scores around it (``-0.1``, ``1.1`` at the ends); class 1 is predicted where
    ``score > threshold``. Where those two scores are adjacent doubles the midpoint rounds onto
    the upper one, predicted 0 too: the only case in which the loss differs from the chosen
    line's, and the reason to evaluate it here.
    """
    y = np.asarray(labels, dtype=np.float64)
    s = np.asarray(scores, dtype=np.float64)
    n = y.size
    n1 = float(y.sum())
    n0 = n - n1
    pi0, pi1 = n0 / n, n1 / n
    u, inverse = np.unique(s, return_inverse=True)
    # per line j = 0..len(u): class-1 / class-0 counts among the j lowest distinct scores
    f1 = np.concatenate([[0.0], np.cumsum(np.bincount(inverse, weights=y, minlength=u.size))])
    f0 = np.concatenate([[0.0], np.cumsum(np.bincount(inverse, weights=1 - y,
                                                      minlength=u.size))])
    y0 = (f1 / n1) * pi1 * 2
    y1 = ((1 - f0 / n0) * pi0) * 2
    c_hat = np.asarray(c_hat, dtype=np.float64)
    line = np.argmin(y0[None, :] + (y1 - y0)[None, :] * c_hat[:, None], axis=1)  # first min
    lower = u[np.maximum(line - 1, 0)]
    upper = u[np.minimum(line, u.size - 1)]
    threshold = np.where(line == 0, -0.1, np.where(line == u.size, 1.1, (upper + lower) / 2))
    order = np.sort(s)
    below = np.searchsorted(order, threshold, side="right")  # predicted 0: score <= threshold
    ones_below = np.concatenate([[0.0], np.cumsum(y[np.argsort(s, kind="stable")])])[below]
    zeros_above = n0 - (below - ones_below)
    c = np.asarray(c, dtype=np.float64)
    return 2 * (ones_below * (1 - c) + zeros_above * c) / n
