"""Are the differences real? Statistical comparisons of the threshold choice methods and of
the model types across datasets, per certainty level gamma.

The paper compares methods by mean losses (Tables 7 and 8) and by counts of runs won
(``sc_vs_tr``, ``rd_vs_tr``); it tests nothing. Here, the tests this field uses for a
comparison of several learners over several datasets:

* **Friedman's test** on the ranks of the compared items (methods, or model types) within
  each block, with the Iman-Davenport F correction, and the **Nemenyi** post-hoc procedure:
  two items differ when their mean ranks differ by at least the critical difference
  ``CD = q_alpha * sqrt(k (k + 1) / (6 N))`` (Demšar, JMLR 7, 2006, Sect. 3.2.2), drawn as a
  critical-difference diagram (:mod:`threshold_choice.reproduction.significance_figures`);
* for pairs, the **sign test** on the blocks won (Demšar's test of counts of wins, the
  significance of a win count such as ``sc_vs_tr``), Wilcoxon's signed-rank test, and the
  **Bayesian signed-rank test** with a region of practical equivalence (ROPE) (Benavoli,
  Corani, Demšar and Zaffalon, JMLR 18, 2017): the posterior probabilities that the left
  item's loss is lower by more than the ROPE, that the two are within it, and that the right
  item's is lower by more than it.

**The unit of replication is the dataset.** The 10 splits of a dataset share its rows, and
the model types of a dataset share its splits: neither is an independent sample of the
population of problems the conclusions speak of. Every block is therefore one dataset, its
value the mean over the splits (and, where the methods are compared over the model types
pooled, over the non-baseline model types too: the cells of Table 8). A dataset without a
value for every compared item is left out of that comparison.

Conventions: values are losses (lower is better); ranks are 1 for the lowest loss, ties get
their average rank; ``left``/``right`` are the first and second item of a pair.

The statistics come from :mod:`scipy.stats` (``friedmanchisquare``, ``studentized_range``,
``binomtest``, ``wilcoxon``); the Bayesian signed-rank test is the computation of
``baycomp.SignedRankTest`` (its authors' reference implementation) vectorised, from the same
random stream: it gives the same probabilities (``tests/reproduction/test_significance.py``
checks both against the published numbers and the libraries). docs/significance.md says why.
"""

from __future__ import annotations

import functools
import itertools
import logging
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from threshold_choice.errors import UserError

#: the defaults of the configuration's ``significance`` keys (the schema's, tested equal)
ALPHA: float = 0.05
#: half-width of the region of practical equivalence, in expected loss (losses lie in
#: [0, 1]; 0.01 = one point of error rate, the ROPE Benavoli et al. use for accuracies)
ROPE: float = 0.01
#: Monte Carlo samples of the Bayesian signed-rank test's posterior (baycomp's default)
SAMPLES: int = 50_000
#: weight of the Dirichlet process's pseudo-observation at 0 (baycomp's default)
PRIOR: float = 0.5
#: two losses of a block closer than this are a tie (the tables' ``TIE_TOLERANCE``)
TIE_TOLERANCE: float = 1e-12


# -- Friedman, Nemenyi ---------------------------------------------------------------------------


def mean_ranks(values: np.ndarray) -> np.ndarray:
    """The mean over blocks (rows) of the ranks of the items (columns) of ``values``, rank 1
    for the lowest value, ties sharing their average rank."""
    from scipy.stats import rankdata

    values = np.asarray(values, dtype=float)
    return rankdata(values, axis=1).mean(axis=0)


def nemenyi_q(k: int, alpha: float = ALPHA) -> float:
    """The critical value ``q_alpha`` of the Nemenyi test for ``k`` items: the studentized
    range statistic's ``1 - alpha`` quantile for ``k`` groups and infinite degrees of
    freedom, divided by sqrt(2) (Demšar 2006, Table 5a: 2.569 for k = 4 at 0.05)."""
    from scipy.stats import studentized_range

    if k < 2:
        raise UserError(f"the Nemenyi test compares at least 2 items, got {k}")
    return float(studentized_range.ppf(1 - alpha, k, np.inf) / math.sqrt(2))


def critical_difference(k: int, n: int, alpha: float = ALPHA) -> float:
    """The Nemenyi critical difference of mean ranks of ``k`` items over ``n`` blocks:
    ``q_alpha * sqrt(k (k + 1) / (6 n))`` (Demšar 2006, Sect. 3.2.2)."""
    return nemenyi_q(k, alpha) * math.sqrt(k * (k + 1) / (6 * n))


def nemenyi_p_values(ranks: np.ndarray, n: int) -> np.ndarray:
    """The Nemenyi test's p-values of every pair of items with mean ranks ``ranks`` over
    ``n`` blocks (a symmetric matrix, 1 on the diagonal): the studentized range's tail at
    ``|R_i - R_j| / sqrt(k (k + 1) / (6 n)) * sqrt(2)``."""
    from scipy.stats import studentized_range

    ranks = np.asarray(ranks, dtype=float)
    k = ranks.size
    z = np.abs(ranks[:, None] - ranks[None, :]) / math.sqrt(k * (k + 1) / (6 * n))
    return np.clip(studentized_range.sf(z * math.sqrt(2), k, np.inf), 0.0, 1.0)


@dataclass(frozen=True)
class Friedman:
    """Friedman's test of ``k`` items over ``n`` blocks.

    ``statistic``, ``p_value``: scipy's chi-square statistic (corrected for ties) and its
    p-value; ``f``, ``p_value_f``: the Iman-Davenport statistic
    ``(n - 1) chi2 / (n (k - 1) - chi2)`` on ``k - 1`` and ``(k - 1)(n - 1)`` degrees of
    freedom (Demšar's recommendation: the chi-square is conservative); ``ranks``: the mean
    ranks; ``cd``: the Nemenyi critical difference at ``alpha``. NaN where undefined (fewer
    than 3 items, or one block)."""

    k: int
    n: int
    ranks: np.ndarray
    statistic: float
    p_value: float
    f: float
    p_value_f: float
    alpha: float
    cd: float


def friedman(values: np.ndarray, alpha: float = ALPHA) -> Friedman:
    """Friedman's test (:class:`Friedman`) of the columns (items) of ``values`` over its rows
    (blocks); scipy's ``friedmanchisquare`` needs at least 3 items."""
    from scipy.stats import f as f_dist
    from scipy.stats import friedmanchisquare

    values = np.asarray(values, dtype=float)
    n, k = values.shape
    if n < 1 or k < 2 or np.isnan(values).any():
        raise UserError(f"Friedman's test needs complete blocks of at least 2 items, got "
                        f"{n} block(s) of {k} item(s)")
    ranks = mean_ranks(values)
    stat = p = f = pf = math.nan
    if k >= 3 and n >= 2:
        if np.ptp(values, axis=1).max() > 0:  # scipy divides by zero when every block ties
            res = friedmanchisquare(*values.T)
            stat, p = float(res.statistic), float(res.pvalue)
        else:
            stat, p = 0.0, 1.0
        denominator = n * (k - 1) - stat
        f = math.inf if denominator <= 0 else (n - 1) * stat / denominator
        pf = float(f_dist.sf(f, k - 1, (k - 1) * (n - 1))) if math.isfinite(f) else 0.0
    return Friedman(k=k, n=n, ranks=ranks, statistic=stat, p_value=p, f=f, p_value_f=pf,
                    alpha=alpha, cd=critical_difference(k, n, alpha))


def cliques(ranks: Sequence[float], cd: float) -> list[tuple[int, int]]:
    """The groups of items not significantly different (mean ranks within less than ``cd``
    of each other), as Demšar's diagrams draw them: ``(first, last)`` positions in the
    ascending order of ``ranks``, each maximal (not inside another), of at least 2 items."""
    r = np.sort(np.asarray(ranks, dtype=float))
    groups: list[tuple[int, int]] = []
    for i in range(r.size):
        j = int(np.searchsorted(r, r[i] + cd, side="left")) - 1  # last within < cd
        if j > i and not (groups and groups[-1][1] >= j):
            groups.append((i, j))
    return groups


# -- pairs ---------------------------------------------------------------------------------------


def signed_rank_posterior(x: np.ndarray, y: np.ndarray, rope: float = ROPE, *,
                          prior: float = PRIOR, samples: int = SAMPLES,
                          seed: int | None = 0) -> tuple[float, float, float]:
    """The Bayesian signed-rank test of paired values ``x`` and ``y`` (one per block):
    ``(p_left, p_rope, p_right)``, the shares of ``samples`` posterior draws in which
    ``x - y > rope``, ``|x - y| <= rope`` and ``y - x > rope`` respectively are the most
    probable (Benavoli et al. 2017, Sect. 5; baycomp's ``SignedRankTest.probs(x, y, rope,
    prior=prior, nsamples=samples, random_state=seed)``, which this computes without its
    Python loop over the draws, from the same draws).

    Conventions as baycomp's: larger is better for ``left`` (pass negated losses for losses);
    the Dirichlet process has a pseudo-observation of weight ``prior`` at 0; a Walsh average
    exactly at a boundary counts a half each side.
    """
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    if x.ndim != 1 or x.shape != y.shape or x.size == 0:
        raise UserError("the Bayesian signed-rank test needs two 1-d arrays of equal length")
    if rope < 0 or prior < 0 or samples < 1:
        raise UserError("the Bayesian signed-rank test needs rope >= 0, prior >= 0, samples > 0")
    diff = np.concatenate(([0.0], y - x))
    sums = diff[:, None] + diff[None, :]  # twice the Walsh averages

    def heaviside(a: np.ndarray, threshold: float) -> np.ndarray:
        return (a > threshold).astype(float) + 0.5 * (a == threshold).astype(float)

    above = heaviside(sums, 2 * rope)
    below = heaviside(-sums, 2 * rope)
    draws = _dirichlet_draws(diff.size, prior, samples, seed)
    p_below = np.empty(samples)
    p_above = np.empty(samples)
    chunk = max(1, 2_000_000 // diff.size)  # bounded memory with many blocks
    for start in range(0, samples, chunk):
        w = draws[start:start + chunk]
        p_below[start:start + chunk] = np.einsum("si,ij,sj->s", w, below, w, optimize=True)
        p_above[start:start + chunk] = np.einsum("si,ij,sj->s", w, above, w, optimize=True)
    posterior = np.column_stack([p_below, 1 - p_below - p_above, p_above])
    if rope == 0:
        posterior[:, 1] = 0.0  # exactly: below + above = 1 at rope 0
    winners = np.bincount(np.argmax(posterior, axis=1), minlength=3) / samples
    return float(winners[0]), float(winners[1]), float(winners[2])


def _dirichlet_draws(size: int, prior: float, samples: int, seed: int | None) -> np.ndarray:
    """The posterior's Dirichlet draws (weight ``prior`` first, then 1 per block), as baycomp
    draws them. Every pair of a study is tested with the same seed and, mostly, the same
    number of blocks, so their draws are the same array: it is drawn once
    (:func:`_seeded_draws`; drawing took three quarters of a test's time)."""
    if seed is None:
        return _draw(size, prior, samples, None)
    return _seeded_draws(size, prior, samples, seed)


def _draw(size: int, prior: float, samples: int, seed: int | None) -> np.ndarray:
    weights = np.ones(size)
    weights[0] = prior
    return np.random.RandomState(seed).dirichlet(weights, samples)


@functools.lru_cache(maxsize=4)  # 50 000 x 27 draws: 11 MB each
def _seeded_draws(size: int, prior: float, samples: int, seed: int) -> np.ndarray:
    draws = _draw(size, prior, samples, seed)
    draws.flags.writeable = False  # shared by every caller
    return draws


@dataclass(frozen=True)
class Pair:
    """Two items' losses compared over ``n`` blocks: ``left_wins``/``right_wins``/``ties``
    (blocks where the left/right loss is lower, or both are within ``TIE_TOLERANCE``), the
    two-sided sign test's and Wilcoxon signed-rank test's p-values (NaN when every block
    ties) and the Bayesian signed-rank test's ``p_left``, ``p_rope``, ``p_right``
    (left's loss lower by more than ``rope``, within it, right's lower by more)."""

    n: int
    mean_left: float
    mean_right: float
    left_wins: int
    right_wins: int
    ties: int
    sign_p: float
    wilcoxon_p: float
    rope: float
    p_left: float
    p_rope: float
    p_right: float


def compare_pair(left: np.ndarray, right: np.ndarray, *, rope: float = ROPE,
                 samples: int = SAMPLES, prior: float = PRIOR, seed: int = 0) -> Pair:
    """The pairwise tests (:class:`Pair`) of the losses ``left`` and ``right`` of two items
    on the same blocks."""
    from scipy.stats import binomtest, wilcoxon

    left = np.asarray(left, dtype=float)
    right = np.asarray(right, dtype=float)
    diff = right - left  # > 0: left lower (better)
    tie = np.abs(diff) <= TIE_TOLERANCE
    lw, rw = int((diff > 0)[~tie].sum()), int((diff < 0)[~tie].sum())
    sign_p = float(binomtest(lw, lw + rw, 0.5).pvalue) if lw + rw else math.nan
    wilcoxon_p = math.nan
    if lw + rw:
        wilcoxon_p = float(wilcoxon(np.where(tie, 0.0, diff), zero_method="wilcox").pvalue)
    # losses negated: baycomp's "left" is the larger value, here the lower loss
    pl, pr, prr = signed_rank_posterior(-left, -right, rope, prior=prior, samples=samples,
                                        seed=seed)
    return Pair(n=int(left.size), mean_left=float(left.mean()), mean_right=float(right.mean()),
                left_wins=lw, right_wins=rw, ties=int(tie.sum()), sign_p=sign_p,
                wilcoxon_p=wilcoxon_p, rope=rope, p_left=pl, p_rope=pr, p_right=prr)


def bayesian_verdict(pair: Pair, left: str, right: str, threshold: float) -> str:
    """The Bayesian test's reading: which is better by more than the ROPE, or practically
    equivalent, when its posterior probability is at least ``threshold``; else
    ``inconclusive``."""
    if pair.p_left >= threshold:
        return f"{left} better"
    if pair.p_right >= threshold:
        return f"{right} better"
    if pair.p_rope >= threshold:
        return "practically equivalent"
    return "inconclusive"


# -- blocks from the runs ------------------------------------------------------------------------


def _at_gamma(runs: pd.DataFrame, gamma: float) -> pd.DataFrame:
    g = runs["gamma"].astype(float).to_numpy()
    return runs[(g == gamma) | (np.isinf(g) & math.isinf(gamma))]


def blocks(runs: pd.DataFrame, gamma: float, *, items: str, methods: Sequence[str],
           models: Sequence[str]) -> pd.DataFrame:
    """The blocks of a comparison at ``gamma``: one row per dataset (sorted), one column per
    compared item, each value the mean loss over the dataset's splits and, for
    ``items="method"``, over ``models`` (for ``items="model"``: ``methods`` has one method).
    Only datasets with a value for every item are kept; items are the columns in the order
    of ``methods`` / ``models``, those without runs left out."""
    at = _at_gamma(runs, gamma)
    at = at[at["method"].isin(list(methods)) & at["model"].isin(list(models))]
    per_split = at.groupby(["dataset", "model", "method"], sort=True)["loss"].mean()
    if items == "method":
        # every dataset's model types in every method's mean: complete (model, method) cells
        cells = per_split.unstack("method").dropna()
        wide = cells.groupby(level="dataset").mean()
        order = [m for m in methods if m in wide.columns]
    elif items == "model":
        wide = per_split.unstack("model").droplevel("method") if len(methods) == 1 else None
        if wide is None:
            raise UserError("a comparison of model types is under one method")
        order = [m for m in models if m in wide.columns]
    else:
        raise UserError(f"items are 'method' or 'model', not {items!r}")
    return wide.reindex(columns=order).dropna()


def method_pairs(methods: Sequence[str]) -> list[tuple[str, str]]:
    """Every pair of ``methods``, in their order (left first)."""
    return list(itertools.combinations(methods, 2))



# -- the study: a scope's comparisons at each gamma ----------------------------------------------

#: the label of the methods' comparison over the non-baseline model types pooled
POOLED = "non-baseline model types"


@dataclass(frozen=True)
class Settings:
    """The tests' settings (the configuration's ``significance``): ``alpha`` (the tests'
    level; a Bayesian probability of at least ``1 - alpha`` decides), ``rope`` (half-width of
    the region of practical equivalence, in expected loss), ``samples`` and ``seed`` of the
    Bayesian test's Monte Carlo posterior, ``prior`` (its Dirichlet pseudo-observation)."""

    alpha: float = ALPHA
    rope: float = ROPE
    samples: int = SAMPLES
    seed: int = 0
    prior: float = PRIOR

    @property
    def threshold(self) -> float:
        return 1 - self.alpha


@dataclass(frozen=True)
class Study:
    """A scope's statistical comparisons, per gamma: ``ranks`` (mean rank and mean loss of
    each compared item), ``friedman`` (one row per comparison), ``pairs`` (the pairwise
    tests) and ``verdict`` (the paper's conclusions, tested)."""

    ranks: pd.DataFrame
    friedman: pd.DataFrame
    pairs: pd.DataFrame
    verdict: pd.DataFrame


def _share_pairs(methods: Sequence[str]) -> list[tuple[str, str, str]]:
    """``(share column, left, right)`` of the paper's shares whose methods are compared:
    ``sc_vs_tr`` is score-driven (left) against train-optimal (right)."""
    from threshold_choice.reproduction.paper import SHARE_METHODS

    return [(share, other, reference) for share, (reference, other) in SHARE_METHODS.items()
            if reference in methods and other in methods]


def _pair_row(gamma: float, under: str, left: str, right: str, pair: Pair, nemenyi: float,
              settings: Settings) -> dict[str, object]:
    return {"gamma": gamma, "under": under, "left": left, "right": right, "n_datasets": pair.n,
            "mean_left": pair.mean_left, "mean_right": pair.mean_right,
            "left_wins": pair.left_wins, "right_wins": pair.right_wins, "ties": pair.ties,
            "sign_p": pair.sign_p, "wilcoxon_p": pair.wilcoxon_p, "nemenyi_p": nemenyi,
            "rope": pair.rope, "p_left": pair.p_left, "p_rope": pair.p_rope,
            "p_right": pair.p_right,
            "bayesian": bayesian_verdict(pair, left, right, settings.threshold)}


def _friedman_row(comparison: str, gamma: float, under: str, values: pd.DataFrame,
                  settings: Settings, ranks: list[dict[str, object]]
                  ) -> tuple[dict[str, object], Friedman]:
    test = friedman(values.to_numpy(), settings.alpha)
    for item, rank, loss in zip(values.columns, test.ranks, values.mean(), strict=True):
        ranks.append({"comparison": comparison, "gamma": gamma, "under": under, "item": item,
                      "mean_rank": float(rank), "mean_loss": float(loss),
                      "n_datasets": test.n})
    return {"comparison": comparison, "gamma": gamma, "under": under, "k": test.k,
            "n_datasets": test.n, "chi2": test.statistic, "p_value": test.p_value,
            "iman_davenport_f": test.f, "p_value_f": test.p_value_f, "alpha": settings.alpha,
            "critical_difference": test.cd,
            "significant": bool(test.p_value_f < settings.alpha)}, test


def study(runs: pd.DataFrame, *, gammas: Sequence[float], methods: Sequence[str],
          models: Sequence[str], baselines: Sequence[str],
          model_methods: Sequence[str] | None = None,
          settings: Settings = Settings()) -> Study:
    """The statistical comparisons of ``runs`` (one scope's) at each of ``gammas``:

    * the methods over the non-baseline model types of ``models`` pooled (blocks: datasets,
      values: the cells of Table 8): Friedman and Nemenyi, and every pair of ``methods``;
    * the model types ``models`` (baselines included, as in Table 7) under each method of
      ``model_methods`` (default ``methods``): Friedman and Nemenyi;
    * per model type, the pairs behind the paper's shares (score-driven and rate-driven
      against train-optimal; blocks: datasets, values: the means over splits);

    and the verdict on the paper's conclusions (:func:`verdict`). A comparison with fewer
    than 2 items or no complete block is left out."""
    ranks: list[dict[str, object]] = []
    tests: list[dict[str, object]] = []
    pairs: list[dict[str, object]] = []
    pooled_models = [m for m in models if m not in set(baselines)]
    for gamma in gammas:
        at = _at_gamma(runs, gamma)  # taken once: the comparisons below filter it again
        if at.empty:  # e.g. a scope without runs
            logging.getLogger(__name__).warning("no runs at gamma = %s: nothing to compare",
                                                gamma)
            continue
        values = blocks(at, gamma, items="method", methods=methods, models=pooled_models)
        if values.shape[1] >= 2 and len(values):
            row, test = _friedman_row("methods", gamma, POOLED, values, settings, ranks)
            tests.append(row)
            p_nemenyi = nemenyi_p_values(test.ranks, test.n)
            names = list(values.columns)
            for left, right in method_pairs(names):
                pair = compare_pair(values[left].to_numpy(), values[right].to_numpy(),
                                    rope=settings.rope, samples=settings.samples,
                                    prior=settings.prior, seed=settings.seed)
                nemenyi = float(p_nemenyi[names.index(left), names.index(right)])
                pairs.append(_pair_row(gamma, POOLED, left, right, pair, nemenyi, settings))
        for method in (methods if model_methods is None else model_methods):
            values = blocks(at, gamma, items="model", methods=[method], models=models)
            if values.shape[1] >= 2 and len(values):
                tests.append(_friedman_row("models", gamma, method, values, settings,
                                           ranks)[0])
        for model in models:
            values = blocks(at, gamma, items="method", methods=methods, models=[model])
            for _, left, right in _share_pairs(list(values.columns)):
                if not len(values):
                    continue
                pair = compare_pair(values[left].to_numpy(), values[right].to_numpy(),
                                    rope=settings.rope, samples=settings.samples,
                                    prior=settings.prior, seed=settings.seed)
                pairs.append(_pair_row(gamma, model, left, right, pair, math.nan, settings))
    out = Study(ranks=pd.DataFrame(ranks, columns=RANK_COLUMNS),
                friedman=pd.DataFrame(tests, columns=FRIEDMAN_COLUMNS),
                pairs=pd.DataFrame(pairs, columns=PAIR_COLUMNS),
                verdict=pd.DataFrame(columns=VERDICT_COLUMNS))
    return Study(out.ranks, out.friedman, out.pairs,
                 verdict(runs, out.pairs, gammas=gammas, methods=methods, models=models,
                         settings=settings))


RANK_COLUMNS = ("comparison", "gamma", "under", "item", "mean_rank", "mean_loss", "n_datasets")
FRIEDMAN_COLUMNS = ("comparison", "gamma", "under", "k", "n_datasets", "chi2", "p_value",
                    "iman_davenport_f", "p_value_f", "alpha", "critical_difference",
                    "significant")
PAIR_COLUMNS = ("gamma", "under", "left", "right", "n_datasets", "mean_left", "mean_right",
                "left_wins", "right_wins", "ties", "sign_p", "wilcoxon_p", "nemenyi_p", "rope",
                "p_left", "p_rope", "p_right", "bayesian")
VERDICT_COLUMNS = ("gamma", "conclusion", "under", "claim", "counted", "n_datasets",
                   "datasets_for", "datasets_against", "sign_p", "significant", "p_claim",
                   "p_rope", "p_opposite", "bayesian")


def _run_shares(runs: pd.DataFrame, gamma: float, methods: Sequence[str]) -> pd.DataFrame:
    """Per model type at ``gamma``: the paper's shares (Table 7's ``sc_vs_tr`` and
    ``rd_vs_tr``: runs where the method is better than or equal to train-optimal) and the
    number of runs they count."""
    from threshold_choice.reproduction.tables import runs_at_gamma

    at = _at_gamma(runs, gamma)
    wide = runs_at_gamma(at[at["method"].isin(list(methods))], gamma)
    shares = [s for s, _, _ in _share_pairs(methods)]
    return wide.groupby("model")[shares].agg(["mean", "count"])


def verdict(runs: pd.DataFrame, pairs: pd.DataFrame, *, gammas: Sequence[float],
            methods: Sequence[str], models: Sequence[str],
            settings: Settings = Settings()) -> pd.DataFrame:
    """The paper's conclusions at each gamma, tested on the datasets (columns
    :data:`VERDICT_COLUMNS`):

    * ``sc_vs_tr`` / ``rd_vs_tr`` (Table 7): per model type, the share of runs where
      score-driven (rate-driven) is better than or equal to train-optimal; the paper reads a
      share above 0.5 as that method preferred, below 0.5 as train-optimal preferred;
    * ``table8`` (Table 8): over the non-baseline model types, on how many datasets
      train-optimal's mean loss is lower than score-driven's (and every other pair of methods:
      which is lower on more datasets).

    ``claim``: the conclusion as the counts draw it (the winner named first);
    ``datasets_for`` / ``datasets_against``: datasets (means over splits) won by the claimed
    winner and by the other; ``significant``: the two-sided sign test on those datasets,
    ``sign_p < alpha``, in the claim's direction; ``p_claim``, ``p_rope``, ``p_opposite``: the
    Bayesian signed-rank test's probabilities (claimed winner better by more than the ROPE,
    within it, the other better); ``bayesian``: its reading at ``1 - alpha``."""
    rows: list[dict[str, object]] = []
    share_of = {(left, right): share for share, left, right in _share_pairs(methods)}
    for gamma in gammas:
        at = pairs[pairs["gamma"] == gamma]
        if at.empty:
            continue
        shares = _run_shares(runs, gamma, methods) if share_of else None
        for pair in at.itertuples(index=False):
            share = share_of.get((pair.left, pair.right))
            if pair.under == POOLED:
                conclusion = "table8"
                left_first = pair.left_wins >= pair.right_wins
                n_for = max(pair.left_wins, pair.right_wins)
                counted = (f"{pair.left if left_first else pair.right} lower on {n_for} of "
                           f"{pair.n_datasets} datasets")
            elif share is not None and shares is not None and pair.under in shares.index:
                conclusion = share
                value = float(shares.loc[pair.under, (share, "mean")])
                count = int(shares.loc[pair.under, (share, "count")])
                if value == 0.5:
                    continue  # the paper reads no preference from an even share
                left_first = value > 0.5
                counted = f"{share} = {value:.3f} of {count} runs"
            else:
                continue
            winner, loser = (pair.left, pair.right) if left_first else (pair.right, pair.left)
            n_for, n_against = ((pair.left_wins, pair.right_wins) if left_first
                                else (pair.right_wins, pair.left_wins))
            p_claim, p_opposite = ((pair.p_left, pair.p_right) if left_first
                                   else (pair.p_right, pair.p_left))
            significant = bool(pair.sign_p < settings.alpha and n_for > n_against)
            rows.append({
                "gamma": gamma, "conclusion": conclusion, "under": pair.under,
                "claim": f"{winner} better than {loser}", "counted": counted,
                "n_datasets": pair.n_datasets, "datasets_for": n_for,
                "datasets_against": n_against, "sign_p": pair.sign_p,
                "significant": significant, "p_claim": p_claim, "p_rope": pair.p_rope,
                "p_opposite": p_opposite, "bayesian": pair.bayesian,
            })
    return pd.DataFrame(rows, columns=VERDICT_COLUMNS)


def scope_of(runs: pd.DataFrame, scope: str, *, methods: Sequence[str],
             gammas: Sequence[float], published_dir: Path | str | None = None
             ) -> tuple[pd.DataFrame, list[str], list[float], list[str]]:
    """``(runs, methods, gammas, model types)`` of ``scope``: ``paper`` (the paper's datasets
    and model types, :func:`~threshold_choice.reproduction.tables.paper_part`, and those of
    ``methods`` and ``gammas`` the paper evaluates) or ``extended`` (everything configured).
    Gammas from certainty down; model types in the published Table 7's order, then the
    others alphabetically."""
    from threshold_choice.reproduction.paper import PAPER_GAMMAS, PAPER_METHODS, PUBLISHED_DIR
    from threshold_choice.reproduction.tables import paper_models, paper_part

    published = Path(published_dir) if published_dir is not None else PUBLISHED_DIR
    gammas = sorted({float(g) for g in gammas}, reverse=True)
    methods = list(methods)
    if scope == "paper":
        runs = paper_part(runs, published)
        methods = [m for m in methods if m in PAPER_METHODS]
        gammas = [g for g in gammas if g in PAPER_GAMMAS]
    elif scope != "extended":
        raise UserError(f"a scope is 'paper' or 'extended', not {scope!r}")
    order = paper_models(published)
    present = set(runs["model"])
    models = [m for m in order if m in present] + sorted(present - set(order))
    return runs, methods, gammas, models


def verdict_summary(verdicts: pd.DataFrame, settings: Settings = Settings()) -> list[str]:
    """One paragraph per gamma: for each of the paper's shares, the model types whose win count
    is significant over the datasets (with the winner) and those whose is not, and what the
    Bayesian test says of them; then Table 8's count of train-optimal against score-driven."""
    from threshold_choice.uncertainty import format_gamma

    def names(rows: pd.DataFrame, winner: str = "") -> str:
        """The model types of ``rows``, each with the winner its ``winner`` column names."""
        if rows.empty:
            return "none"
        return ", ".join(
            f"{r.under} ({getattr(r, winner).split(' better')[0]})" if winner else r.under
            for r in rows.itertuples(index=False))

    lines = []
    for gamma, group in verdicts.groupby("gamma", sort=False):
        parts = [f"gamma = {format_gamma(float(gamma))}:"]
        for share in ("sc_vs_tr", "rd_vs_tr"):
            rows = group[group["conclusion"] == share]
            if rows.empty:
                continue
            yes = rows[rows["significant"]]
            beyond = rows[rows["bayesian"].str.endswith("better")]
            equal = rows[rows["bayesian"] == "practically equivalent"]
            parts.append(
                f"{share} significant for {len(yes)} of {len(rows)} model types: "
                f"{names(yes, winner='claim')}; not for {names(rows[~rows['significant']])}. "
                f"Bayesian: a winner beyond the ROPE for {names(beyond, winner='bayesian')}; "
                f"practically equivalent for {names(equal)}.")
        key = group[(group["conclusion"] == "table8")
                    & group["claim"].str.contains("train-optimal")
                    & group["claim"].str.contains("score-driven")]
        for row in key.itertuples(index=False):
            parts.append(
                f"Table 8: {row.counted}: sign test p = {row.sign_p:.2g} "
                f"({'significant' if row.significant else 'not significant'}); Bayesian "
                f"P(claim) = {row.p_claim:.2f}, P(rope) = {row.p_rope:.2f}: {row.bayesian}.")
        lines.append(" ".join(parts))
    return lines

__all__ = [
    "ALPHA",
    "FRIEDMAN_COLUMNS",
    "PAIR_COLUMNS",
    "POOLED",
    "PRIOR",
    "RANK_COLUMNS",
    "ROPE",
    "SAMPLES",
    "TIE_TOLERANCE",
    "VERDICT_COLUMNS",
    "Friedman",
    "Pair",
    "Settings",
    "Study",
    "bayesian_verdict",
    "blocks",
    "cliques",
    "compare_pair",
    "critical_difference",
    "friedman",
    "mean_ranks",
    "method_pairs",
    "nemenyi_p_values",
    "nemenyi_q",
    "scope_of",
    "signed_rank_posterior",
    "study",
    "verdict",
    "verdict_summary",
]
