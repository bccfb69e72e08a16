"""Bootstrap confidence intervals for expected losses and metrics of one set of test scores.

The model (and so the training scores of train-optimal) is held fixed and the *test set* is
resampled with replacement, within each class by default (stratified: the class counts, and
so ``pi0``/``pi1``, stay those of the test set). Each replicate is evaluated exactly as
:func:`~threshold_choice.evaluation.expected_losses` and
:func:`~threshold_choice.metrics.compute_metrics` evaluate the resampled labels and scores;
intervals are percentile intervals of the replicates. Replicates are drawn from the labels,
``n_boot`` and ``seed`` only, so two models scored on the same test set get the *same*
resamples: :func:`paired_difference` then gives intervals for the difference between them,
and :meth:`Bootstrap.difference` for the difference between two methods of one model.

Memory. Replicates are drawn and evaluated in chunks of about :data:`CHUNK_CELLS` counts
(``n`` examples x replicates), each replicate from its own random stream (derived from
``seed`` and its number, so the resamples do not depend on the chunking): memory is
``O(n x chunk)`` plus the replicates' results (``n_boot x methods x gammas`` floats), whatever
``n_boot``; ``n_boot`` is at most :data:`MAX_REPLICATES`.

Speed. A replicate is a vector of counts per test example. For the methods whose break points
in ``c_hat`` do not depend on the test labels (score-driven and its skew/aware/uniform
variants, train-optimal and its aware variant) the exact expected loss is linear in the cost
lines, so for the ``exact`` estimator all replicates are evaluated at once: per (method,
gamma) the moment table of the engine is evaluated once at the method's break points, and the
replicates are a matrix product with their cost-line heights. The other methods (test-optimal,
rate-driven and their variants), other estimators and settings the fast path does not know
run the engine on each replicate.

Names. ``from threshold_choice import bootstrap`` gives this module, which Python binds to
the package's attribute of that name once it is imported; the module is callable, so
``bootstrap(y, s, ...)`` calls the function :func:`bootstrap` either way, and
``threshold_choice.bootstrap.Bootstrap`` and the other names stay reachable.
"""

from __future__ import annotations

import hashlib
import sys
import types
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, fields
from typing import Any, NamedTuple

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike, NDArray

from threshold_choice._typing import FloatArray
from threshold_choice.costlines import CostLines, binary_labels, validate_scores
from threshold_choice.costs import Costs
from threshold_choice.errors import UserError
from threshold_choice.evaluation import (
    LossSettings,
    as_loss_settings,
    expected_losses,
    with_belief,
)
from threshold_choice.expected_loss import (
    _segment_edges,
    expected_loss,
    segment_integrals,
)
from threshold_choice.methods import (
    GAMMA_AWARE,
    PAPER_METHODS,
    Selection,
    make_selection,
    method_spec,
)
from threshold_choice.metrics import METRICS, compute_metrics
from threshold_choice.moment_tables import moment_table
from threshold_choice.uncertainty import PAPER_GAMMAS, check_seed, parse_gamma

#: the metrics with bootstrap intervals: those of the tables and Hand's H (whose Beta belief
#: is its own, whatever the settings); not the bounded scores, which depend on the settings'
#: cost distribution
BOOTSTRAP_METRICS: tuple[str, ...] = (*METRICS, "H")
#: counts (examples x replicates) drawn and evaluated at once: about 2 MB per int64 array
CHUNK_CELLS = 262_144
#: the most replicates one call draws (their results alone take n_boot x methods x gammas
#: floats: 616 MB for 10^6 replicates of 11 methods at 7 gammas)
MAX_REPLICATES = 1_000_000

#: the LossSettings fields the fast path understands (any other field must keep its default)
_FAST_FIELDS = frozenset({"estimator", "grid_size", "seed", "rate_threshold_offset",
                          "tie_breaking", "fixed_threshold", "fixed_rate"})


def check_n_boot(n_boot: Any) -> int:
    """``n_boot`` as an int after checking it is a whole number in 1..:data:`MAX_REPLICATES`."""
    if isinstance(n_boot, bool) or not isinstance(n_boot, int | np.integer):
        raise UserError(f"the number of bootstrap replicates must be a whole number, got "
                        f"{n_boot!r}")
    if not 1 <= n_boot <= MAX_REPLICATES:
        raise UserError(
            f"the number of bootstrap replicates must be in 1..{MAX_REPLICATES} (each keeps its "
            f"losses in memory; 1000 give percentile intervals to about 0.1%), got {n_boot}"
        )
    return int(n_boot)


def _chunks(n_boot: int, n: int) -> Iterator[slice]:
    """Consecutive replicate ranges of about :data:`CHUNK_CELLS` counts each."""
    size = max(1, CHUNK_CELLS // max(n, 1))
    for lo in range(0, n_boot, size):
        yield slice(lo, min(lo + size, n_boot))


def _draw_counts(y: NDArray[Any], rows: slice, seed: int | None,
                 stratified: bool) -> NDArray[np.int32]:
    """The count vectors of replicates ``rows`` (see :func:`resample_counts`): replicate ``r``
    from its own stream ``default_rng([seed, r])``, so any chunking draws the same ones."""
    groups = [np.flatnonzero(y == k) for k in (0, 1)] if stratified else [np.arange(y.size)]
    checked = check_seed(seed)
    base = 0 if checked is None else checked
    counts = np.zeros((rows.stop - rows.start, y.size), dtype=np.int32)
    for i, r in enumerate(range(rows.start, rows.stop)):
        rng = np.random.default_rng([base, r])
        for members in groups:
            draws = rng.integers(0, members.size, size=members.size)
            counts[i, members] = np.bincount(draws, minlength=members.size)
    if not stratified:
        ones = counts @ (y == 1).astype(np.int64)
        if np.any((ones == 0) | (ones == y.size)):
            raise UserError(
                "a bootstrap replicate drew a single class; use the stratified bootstrap"
            )
    return counts


def resample_counts(
    y: ArrayLike, n_boot: int, seed: int | None = 0, *, stratified: bool = True
) -> NDArray[np.int32]:
    """``(n_boot, n)`` matrix: how many times each example is drawn in each replicate (``n``
    draws with replacement; ``stratified``: ``n_c`` draws within each class ``c``). Replicate
    ``r`` comes from the stream ``numpy.random.default_rng([seed, r])``. (The whole matrix:
    :func:`bootstrap` draws it chunk by chunk instead.)"""
    y_arr = np.asarray(y)
    n_boot = check_n_boot(n_boot)
    return _draw_counts(y_arr, slice(0, n_boot), seed, stratified)


def _labels_key(y: NDArray[np.int8], n_boot: int, seed: int | None, stratified: bool) -> str:
    digest = hashlib.sha256(np.ascontiguousarray(y, dtype=np.int8).tobytes()).hexdigest()[:16]
    return f"{digest}:{n_boot}:{seed}:{stratified}"


@dataclass(frozen=True)
class Bootstrap:
    """Bootstrap replicates of expected losses and metrics (see the module docstring).

    Attributes
    ----------
    methods, gammas, metrics:
        What was evaluated.
    estimate:
        ``(M, G)`` expected losses on the test set itself (``expected_losses``).
    replicates:
        ``(n_boot, M, G)`` expected losses of the replicates.
    metric_estimate, metric_replicates:
        ``(K,)`` and ``(n_boot, K)``: the metrics.
    key:
        Identifies the resamples (labels, ``n_boot``, seed, stratification); equal keys mean
        the same resamples, as :func:`paired_difference` requires.
    costs:
        The costs given to :func:`bootstrap`, or ``None``: with them :meth:`intervals` adds
        the expected cost and its interval in their units.
    """

    methods: tuple[str, ...]
    gammas: tuple[float, ...]
    metrics: tuple[str, ...]
    estimate: FloatArray
    replicates: FloatArray
    metric_estimate: FloatArray
    metric_replicates: FloatArray
    key: str
    costs: Costs | None = None

    @property
    def n_boot(self) -> int:
        return int(self.replicates.shape[0])

    def intervals(self, confidence: float = 0.95) -> pd.DataFrame:
        """``method, gamma, expected_loss, lower, upper``: the estimate and the percentile
        interval of each (method, gamma); with costs also ``expected_cost, cost_lower,
        cost_upper``, the same in their units per example."""
        lo, hi = percentile_bounds(self.replicates, confidence)
        m, g = np.meshgrid(np.arange(len(self.methods)), np.arange(len(self.gammas)),
                           indexing="ij")
        frame = pd.DataFrame(
            {
                "method": np.asarray(self.methods, dtype=object)[m.ravel()],
                "gamma": np.asarray(self.gammas)[g.ravel()],
                "expected_loss": self.estimate.ravel(),
                "lower": lo.ravel(),
                "upper": hi.ravel(),
            }
        )
        if self.costs is not None:
            for name, col in (("expected_cost", "expected_loss"), ("cost_lower", "lower"),
                              ("cost_upper", "upper")):
                frame[name] = self.costs.in_units(frame[col])
        return frame

    def metric_intervals(self, confidence: float = 0.95) -> pd.DataFrame:
        """``metric, value, lower, upper``."""
        lo, hi = percentile_bounds(self.metric_replicates, confidence)
        return pd.DataFrame(
            {"metric": list(self.metrics), "value": self.metric_estimate, "lower": lo,
             "upper": hi}
        )

    def difference(self, method_a: str, method_b: str, confidence: float = 0.95) -> pd.DataFrame:
        """Paired difference ``loss(method_a) - loss(method_b)`` per gamma on the same
        replicates: ``gamma, difference, lower, upper, share_a_lower`` (the share of
        replicates where ``method_a`` has the lower loss); with costs also
        ``cost_difference, cost_lower, cost_upper`` in their units."""
        a, b = self._method_index(method_a), self._method_index(method_b)
        frame = _difference_frame(
            self.gammas, self.estimate[a] - self.estimate[b],
            self.replicates[:, a] - self.replicates[:, b], confidence,
        )
        return _with_costs(frame, self.costs)

    def _method_index(self, method: str) -> int:
        if method not in self.methods:
            raise UserError(f"method {method} was not bootstrapped; have {', '.join(self.methods)}")
        return self.methods.index(method)


def percentile_bounds(values: FloatArray, confidence: float) -> tuple[FloatArray, FloatArray]:
    """Lower and upper percentile bounds over the first axis (the replicates)."""
    if not 0 < confidence < 1:
        raise UserError(f"confidence must be in (0, 1), got {confidence}")
    tail = (1.0 - confidence) / 2.0
    lo, hi = np.quantile(values, [tail, 1.0 - tail], axis=0)
    return lo, hi


def _difference_frame(
    gammas: Sequence[float], estimate: FloatArray, reps: FloatArray, confidence: float
) -> pd.DataFrame:
    lo, hi = percentile_bounds(reps, confidence)
    return pd.DataFrame(
        {
            "gamma": list(gammas),
            "difference": estimate,
            "lower": lo,
            "upper": hi,
            "share_a_lower": np.mean(reps < 0, axis=0),
        }
    )


class PairedDifference(NamedTuple):
    """The result of :func:`paired_difference`: two frames, unpacked as a pair
    (``losses, metrics = paired_difference(a, b)``) or read by name.

    Attributes
    ----------
    losses : pandas.DataFrame
        ``method, gamma, difference, lower, upper, share_a_lower`` for the methods and gammas
        both bootstraps have (``share_a_lower``: the share of replicates where ``a`` has the
        lower loss; with costs on both, ``cost_difference, cost_lower, cost_upper`` in their
        units too); empty when they share no method.
    metrics : pandas.DataFrame
        ``metric, difference, lower, upper, share_a_lower`` for the metrics both have.
    """

    losses: pd.DataFrame
    metrics: pd.DataFrame


def paired_difference(
    a: Bootstrap, b: Bootstrap, confidence: float = 0.95
) -> PairedDifference:
    """Compare two models bootstrapped on the same test set with the same resamples.

    Paired differences ``a - b``: each replicate resamples the same test examples for both
    models, so the interval is that of the difference itself (narrower than two separate
    intervals when the models' losses move together).

    Parameters
    ----------
    a : Bootstrap
        The replicates of the first model (:func:`~threshold_choice.bootstrap.bootstrap`).
    b : Bootstrap
        Those of the second, on the same test labels with the same ``n_boot``, ``seed``
        and stratification.
    confidence : float, default=0.95
        The level of the percentile intervals, in (0, 1).

    Returns
    -------
    PairedDifference
        A named pair ``(losses, metrics)``: ``losses`` has ``method, gamma, difference,
        lower, upper, share_a_lower`` for the methods and gammas both have
        (``share_a_lower``: the share of replicates where ``a`` has the lower loss; with the
        same costs on both, ``cost_difference, cost_lower, cost_upper`` in their units);
        empty when they share no method. ``metrics`` has ``metric, difference, lower,
        upper, share_a_lower`` for the metrics both have (``share_a_lower``: the share of
        replicates where ``a``'s value is lower).

    Raises
    ------
    UserError
        If the two bootstraps did not use the same resamples, or ``confidence`` is not in
        (0, 1).

    See Also
    --------
    threshold_choice.bootstrap.bootstrap : The replicates of one model.
    threshold_choice.bootstrap.Bootstrap.difference : Two methods of one model.

    Examples
    --------
    >>> import math
    >>> from threshold_choice import paired_difference
    >>> from threshold_choice.bootstrap import bootstrap
    >>> y = [0, 0, 1, 0, 1, 1, 0, 1, 0, 1]
    >>> first = [0.1, 0.3, 0.35, 0.4, 0.6, 0.8, 0.7, 0.9, 0.2, 0.55]
    >>> second = [0.3, 0.2, 0.6, 0.5, 0.4, 0.9, 0.45, 0.7, 0.35, 0.8]
    >>> options = dict(methods=["score-driven"], gammas=[math.inf], metrics=["AUC"],
    ...                n_boot=200, seed=0)
    >>> result = paired_difference(bootstrap(y, first, **options),
    ...                            bootstrap(y, second, **options))
    >>> losses, metrics = result  # or result.losses, result.metrics
    >>> losses[["method", "gamma", "difference"]].round(4)
             method  gamma  difference
    0  score-driven    inf       0.026
    >>> bool((losses["lower"] <= losses["difference"]).all()), list(metrics["metric"])
    (True, ['AUC'])
    """
    if a.key != b.key:
        raise UserError(
            "the two bootstraps did not use the same resamples: bootstrap both models on the "
            "same test labels with the same n_boot and seed"
        )
    parts = []
    for i, method in enumerate(a.methods):
        if method not in b.methods:
            continue
        j = b.methods.index(method)
        common = [g for g in a.gammas if g in b.gammas]
        ia = [a.gammas.index(g) for g in common]
        ib = [b.gammas.index(g) for g in common]
        frame = _difference_frame(
            common, a.estimate[i, ia] - b.estimate[j, ib],
            a.replicates[:, i, ia] - b.replicates[:, j, ib], confidence,
        )
        frame.insert(0, "method", method)
        parts.append(frame)
    metrics = [k for k in a.metrics if k in b.metrics]
    ka = [a.metrics.index(k) for k in metrics]
    kb = [b.metrics.index(k) for k in metrics]
    mframe = _difference_frame(
        metrics, a.metric_estimate[ka] - b.metric_estimate[kb],
        a.metric_replicates[:, ka] - b.metric_replicates[:, kb], confidence,
    ).rename(columns={"gamma": "metric"})
    losses = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()
    if a.costs == b.costs and parts:
        losses = _with_costs(losses, a.costs)
    return PairedDifference(losses, mframe)


def _with_costs(frame: pd.DataFrame, costs: Costs | None) -> pd.DataFrame:
    """A frame of differences with ``cost_difference, cost_lower, cost_upper`` in the units
    of ``costs`` (unchanged without)."""
    if costs is not None:
        for name, col in (("cost_difference", "difference"), ("cost_lower", "lower"),
                          ("cost_upper", "upper")):
            frame[name] = costs.in_units(frame[col])
    return frame


# -- evaluation of the replicates --------------------------------------------------------------


def _fast_path(settings: LossSettings) -> bool:
    if settings.estimator != "exact":
        return False
    default = LossSettings()
    return all(
        getattr(settings, f.name) == getattr(default, f.name)
        for f in fields(LossSettings)
        if f.name not in _FAST_FIELDS
    )


def _class_counts(
    counts: NDArray[np.int32], y: NDArray[np.int8], inverse: NDArray[np.intp], m: int
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Per replicate and distinct test score: the number of class-0 and class-1 draws."""
    order = np.argsort(inverse, kind="stable")
    starts = np.searchsorted(inverse[order], np.arange(m))
    out = []
    for label in (0, 1):
        w = counts[:, order] * (y[order] == label)
        out.append(np.add.reduceat(w, starts, axis=1).astype(np.int64))
    return out[0], out[1]


def _probe_lines(lines: CostLines) -> CostLines:
    """Cost lines with the test scores whose line ``j`` has height ``j`` everywhere: a
    selection built on them names, in each segment's ``coef``, the index of its line."""
    j = np.arange(lines.scores.size + 1, dtype=np.float64)
    n = float(lines.n)
    return CostLines(lines.scores, lines.n0 - j * n / 2.0, j * n / 2.0, lines.n0, lines.n1)


def _fixed_break_matrix(
    pairs: list[tuple[str, float]],
    test: CostLines,
    train: CostLines | None,
    options: dict[str, Any],
) -> tuple[FloatArray, FloatArray]:
    """For each (method, gamma) of fixed-break methods, the weights ``E0, E1`` per test line
    such that the exact expected loss is ``sum_j left_j E0_j + slope_j E1_j``."""
    probe = _probe_lines(test)
    skew_pi0 = (train if train is not None else test).pi0
    e0 = np.zeros((test.scores.size + 1, len(pairs)))
    e1 = np.zeros_like(e0)
    for k, (method, gamma) in enumerate(pairs):
        kw = dict(train=train, gamma=gamma, skew_pi0=skew_pi0, **options)
        sel = make_selection(method, probe, **kw)
        idx = sel.coef[:, 0].astype(np.intp)
        real = make_selection(method, test, **kw)
        # the probe must have the real selection's breaks and lines
        if not (np.array_equal(real.breaks, sel.breaks)
                and np.array_equal(real.coef[:, 0], test.left[idx])):
            raise AssertionError(f"{method}: the line probe disagrees with the selection")
        dg = segment_integrals(sel, gamma)
        e0[:, k] = np.bincount(idx, dg[0], minlength=e0.shape[0])
        e1[:, k] = np.bincount(idx, dg[1], minlength=e0.shape[0])
    return e0, e1


def _replicate_lines(
    test: CostLines, c0: NDArray[np.int64], c1: NDArray[np.int64]
) -> CostLines:
    """The cost lines of one replicate from its draws per distinct score (scores not drawn
    left out, as ``CostLines.from_scores`` of the resampled scores would)."""
    keep = (c0 + c1) > 0
    n0_le = np.concatenate(([0], np.cumsum(c0[keep])))
    n1_le = np.concatenate(([0], np.cumsum(c1[keep])))
    return CostLines(test.scores[keep], n0_le, n1_le, int(n0_le[-1]), int(n1_le[-1]))


def _engine_losses(
    lines: CostLines,
    train: CostLines | None,
    methods: Sequence[str],
    gammas: Sequence[float],
    options: dict[str, Any],
) -> FloatArray:
    """``(len(methods), len(gammas))`` exact expected losses of one set of cost lines (as
    ``expected_losses`` with the exact estimator, without re-reading the scores)."""
    out = np.empty((len(methods), len(gammas)))
    for i, method in enumerate(methods):
        sel: Selection | None = None
        if method not in GAMMA_AWARE:
            sel = make_selection(method, lines, train=train, **options)
            if sel.ignores_c_hat:  # its loss is the gamma = 0 one whatever gamma
                out[i] = expected_loss(sel, 0.0)
                continue
        for k, gamma in enumerate(gammas):
            chosen = sel or make_selection(method, lines, train=train, gamma=gamma, **options)
            out[i, k] = expected_loss(chosen, gamma)
    return out


def _already_binary(y: ArrayLike, pos_label: Any) -> bool:
    """Whether ``y`` is 0/1 labels that ``pos_label`` is not one of (a classifier's
    ``train_labels_`` beside named test labels)."""
    values = set(np.unique(np.asarray(y)).tolist())
    return values <= {0, 1} and pos_label not in (0, 1)


def bootstrap(
    test_y: ArrayLike,
    test_s: ArrayLike,
    *,
    train_y: ArrayLike | None = None,
    train_s: ArrayLike | None = None,
    methods: Sequence[str] | str = PAPER_METHODS,
    gammas: Iterable[float | str] | float | str = PAPER_GAMMAS,
    metrics: Sequence[str] = METRICS,
    settings: LossSettings | None = None,
    n_boot: int = 1000,
    seed: int | None = 0,
    stratified: bool = True,
    pos_label: Any = None,
    costs: Costs | None = None,
) -> Bootstrap:
    """Bootstrap the expected losses and metrics of one set of test scores.

    The test set is resampled, the model held fixed (see the module docstring); each
    replicate is evaluated as :func:`~threshold_choice.evaluation.expected_losses` and
    :func:`~threshold_choice.metrics.compute_metrics` evaluate it.

    Parameters
    ----------
    test_y : array-like of shape (n,)
        The test labels: 0/1, or any two with ``pos_label``.
    test_s : array-like of shape (n,)
        The test scores, estimates of P(class 1).
    train_y : array-like of shape (n_train,), default=None
        The training labels, for train-optimal: as ``test_y``, or 0/1 (1 = ``pos_label``,
        as a :class:`~threshold_choice.estimators.ThresholdChoiceClassifier`'s
        ``train_labels_``).
    train_s : array-like of shape (n_train,), default=None
        The model's scores on its training data.
    methods : str or sequence of str, default=PAPER_METHODS
        The methods.
    gammas : float, str or iterable of them, default=PAPER_GAMMAS
        The certainties.
    metrics : sequence of str, default=METRICS
        The metrics (:data:`BOOTSTRAP_METRICS`).
    settings : LossSettings, Mapping or None, default=None
        The estimator and the operating conditions.
    n_boot : int, default=1000
        The number of replicates, 1 to :data:`MAX_REPLICATES`.
    seed : int or None, default=0
        The seed of the resamples.
    stratified : bool, default=True
        Resample within each class (the class counts kept).
    pos_label : object, default=None
        The label of class 1 in ``test_y`` and ``train_y``; ``None``: the costs', else the
        labels must be 0/1.
    costs : Costs or None, default=None
        The costs: :meth:`Bootstrap.intervals` then adds the expected cost and its interval
        in their units, their positive class is ``pos_label`` and their ``belief``, if any,
        the cost distribution.

    Returns
    -------
    Bootstrap
        The estimates and replicates.

    Raises
    ------
    UserError
        For invalid labels, scores, methods, gammas, metrics, settings, ``n_boot`` or seed,
        or costs naming another positive class or another belief than the settings.

    See Also
    --------
    paired_difference : Two models on the same resamples.

    Examples
    --------
    >>> import math
    >>> from threshold_choice import Costs, bootstrap
    >>> y = ["bad", "good", "bad", "good", "good", "bad", "good", "good", "bad", "good"]
    >>> s = [0.9, 0.3, 0.65, 0.4, 0.6, 0.8, 0.2, 0.1, 0.55, 0.35]  # P(bad)
    >>> boot = bootstrap(y, s, methods="score-driven", gammas=math.inf, metrics=["AUC"],
    ...                  n_boot=200, costs=Costs(1, 5, pos_label="bad", units="EUR"))
    >>> boot.intervals()[["expected_cost", "cost_lower", "cost_upper"]].round(2)
       expected_cost  cost_lower  cost_upper
    0           0.35        0.19        0.56
    """
    if costs is not None:
        pos_label = costs.check_pos_label(pos_label, "bootstrap")
        settings = with_belief(as_loss_settings(settings), costs, "bootstrap")
    # named labels without pos_label: refused with the message naming pos_label= (the fix
    # this function takes), not only y == label
    test_y = binary_labels(test_y, pos_label, "test_y")
    if train_y is not None and (pos_label is None or not _already_binary(train_y, pos_label)):
        train_y = binary_labels(train_y, pos_label, "train_y")
    settings = as_loss_settings(settings)
    n_boot = check_n_boot(n_boot)
    check_seed(seed)
    y, s = validate_scores(test_y, test_s, what="test scores")
    # one method or one gamma as expected_losses takes them (a string is not a sequence here)
    methods = (methods,) if isinstance(methods, str) else tuple(methods)
    if isinstance(gammas, str | int | float | np.integer | np.floating):
        gammas = [gammas]
    gammas = tuple(parse_gamma(g) for g in gammas)
    metrics = (metrics,) if isinstance(metrics, str) else tuple(metrics)  # as methods
    unknown = [k for k in metrics if k not in BOOTSTRAP_METRICS]
    if unknown:
        raise UserError(f"unknown metric(s) {', '.join(unknown)}; choose from "
                        f"{', '.join(BOOTSTRAP_METRICS)}")
    estimate_frame = expected_losses(
        y, s, train_y=train_y, train_s=train_s, methods=methods, gammas=gammas,
        settings=settings,
    )
    estimate = estimate_frame["expected_loss"].to_numpy().reshape(len(gammas), len(methods)).T
    train = None
    if train_y is not None and train_s is not None:
        train = CostLines.from_scores(train_y, train_s, what="training scores")

    reps = np.empty((n_boot, len(methods), len(gammas)))
    metric_values = compute_metrics(y, s)
    metric_reps = np.empty((n_boot, len(metrics)))
    shared: dict[str, Any] = {}  # what the fast path computes once for all chunks
    for rows in _chunks(n_boot, y.size):
        counts = _draw_counts(y, rows, seed, stratified)
        if _fast_path(settings):
            _fast_replicates(reps[rows], y, s, counts, train, methods, gammas, settings,
                             stratified, shared=shared)
        else:
            for r, count in enumerate(counts, start=rows.start):
                idx = np.repeat(np.arange(y.size), count)
                frame = expected_losses(
                    y[idx], s[idx], train_y=train_y, train_s=train_s, methods=methods,
                    gammas=gammas, settings=settings,
                )
                reps[r] = frame["expected_loss"].to_numpy().reshape(len(gammas), len(methods)).T
        for r, count in enumerate(counts if metrics else (), start=rows.start):
            idx = np.repeat(np.arange(y.size), count)
            values = compute_metrics(y[idx], s[idx])
            metric_reps[r] = [values[k] for k in metrics]
    return Bootstrap(
        methods=methods,
        gammas=gammas,
        metrics=tuple(metrics),
        estimate=estimate,
        replicates=reps,
        metric_estimate=np.array([metric_values[k] for k in metrics]),
        metric_replicates=metric_reps,
        key=_labels_key(y, n_boot, seed, stratified),
        costs=costs,
    )


class _BatchIntegrator:
    """The exact expected loss of many selections at one ``gamma`` in one pass: the engine's
    integral ``sum_s coef_s . dG_s`` over each selection's segments (as ``expected_loss``
    with the exact estimator), with the moment table evaluated once for all their break
    points.

    Rate-driven breaks lie on the lattice of rates ``k / n``: there the table is read at the
    ``n + 1`` lattice points once per gamma, and for rate-driven on the skew (interpolation in
    the mapped input ``z``) the engine's integrals of ``z dG`` are computed once per gamma on
    the lattice cells and summed over each replicate's segments."""

    def __init__(self, n: int, skew_pi0: float) -> None:
        self.n = n
        self.skew_pi0 = skew_pi0
        self._lattice: dict[tuple[float, int], FloatArray] = {}
        self._mapped: dict[float, FloatArray] = {}

    def _table(self, gamma: float, edges: FloatArray, rows: int) -> FloatArray:
        table = moment_table(gamma)
        k = np.rint(edges * self.n)
        if not np.array_equal(k / self.n, edges):
            return table(edges, rows=rows)
        key = (gamma, rows)
        if key not in self._lattice:
            self._lattice[key] = table(np.arange(self.n + 1) / self.n, rows=rows)
        return self._lattice[key][:, k.astype(np.intp)]

    def _mapped_cumulative(self, gamma: float) -> FloatArray:
        """``(4, n + 1)``: integrals of ``dG00, dG10, z dG00, z dG10`` from ``c_hat = 0`` to
        each lattice point ``z = k / n`` (the engine's quadrature, cell by cell)."""
        if gamma not in self._mapped:
            # one example per distinct score: rates, hence breaks, at every k / n
            j = np.arange(self.n + 1)
            lattice = CostLines(np.arange(self.n, dtype=np.float64), j - j // 2, j // 2,
                                self.n - self.n // 2, self.n // 2)
            sel = make_selection("rate-driven-z", lattice, skew_pi0=self.skew_pi0)
            cells = segment_integrals(sel, gamma)
            self._mapped[gamma] = np.hstack([np.zeros((4, 1)), np.cumsum(cells, axis=1)])
        return self._mapped[gamma]

    def losses(self, sels: Sequence[Selection], gamma: float) -> FloatArray:
        mapped = [sel.interpolating and sel.input_map is not None for sel in sels]
        if any(mapped):
            if not all(mapped):
                raise AssertionError("batch mapped and unmapped interpolation separately")
            ks = [np.concatenate(([0.0], sel.input_breaks * self.n, [self.n])) for sel in sels]
            k = np.concatenate(ks)
            lattice = np.rint(k)
            if np.max(np.abs(k - lattice)) > 1e-6:
                raise AssertionError("mapped interpolation off the lattice of rates")
            values = self._mapped_cumulative(gamma)[:, lattice.astype(np.intp)]
            return _segment_sums(values, [e.size for e in ks], sels)
        edges = [_segment_edges(sel) for sel in sels]
        rows = 4 if any(sel.interpolating for sel in sels) else 2
        values = self._table(gamma, np.concatenate(edges), rows)
        return _segment_sums(values, [e.size for e in edges], sels)


def _segment_sums(
    values: FloatArray, sizes: Sequence[int], sels: Sequence[Selection]
) -> FloatArray:
    """``sum_s coef_s . (values[:, s + 1] - values[:, s])`` for each selection, given the
    cumulative ``values`` at the concatenated segment edges of all selections (``sizes``:
    number of edges of each)."""
    ends = np.cumsum(sizes)
    dv = np.delete(np.diff(values, axis=1), ends[:-1] - 1, axis=1)  # not across selections
    coef = np.concatenate([sel.coef for sel in sels])
    per = np.einsum("sr,rs->s", coef[:, : dv.shape[0]], dv)
    return np.add.reduceat(per, np.concatenate(([0], np.cumsum(np.asarray(sizes) - 1)[:-1])))


def _fast_replicates(
    reps: FloatArray,
    y: NDArray[np.int8],
    s: FloatArray,
    counts: NDArray[np.int32],
    train: CostLines | None,
    methods: Sequence[str],
    gammas: Sequence[float],
    settings: LossSettings,
    stratified: bool,
    chunk: int = 50,
    shared: dict[str, Any] | None = None,
) -> None:
    """The replicates ``counts`` into ``reps`` (rows in the same order); ``shared``: a dict
    kept across the calls of one bootstrap, holding what depends on the test and training
    scores only (computed at the first call)."""
    shared = {} if shared is None else shared
    test = CostLines.from_scores(y, s, what="test scores")
    options = settings.selection_options()  # the fast path's distribution is uniform
    inverse = np.searchsorted(test.scores, s)
    c0, c1 = _class_counts(counts, y, inverse, test.scores.size)
    # without training scores the skew maps take the test pi0, the same in every replicate
    # only when the classes are resampled separately
    same_pi0 = stratified or train is not None
    specs = {m: method_spec(m) for m in methods}
    fixed = [m for m in methods
             if specs[m].label_free_breaks and (not specs[m].skew or same_pi0)]
    pairs = [(m, g) for m in fixed for g in gammas]
    if pairs:
        if "fixed" not in shared:
            shared["fixed"] = _fixed_break_matrix(pairs, test, train, options)
        e0, e1 = shared["fixed"]
        n = float(test.n)
        zeros = np.zeros((counts.shape[0], 1), dtype=np.int64)
        n0_le = np.concatenate((zeros, np.cumsum(c0, axis=1)), axis=1)
        n1_le = np.concatenate((zeros, np.cumsum(c1, axis=1)), axis=1)
        left = 2.0 * n1_le / n
        right = 2.0 * (n0_le[:, -1:] - n0_le) / n
        losses = left @ e0 + (right - left) @ e1
        for k, (m, _g) in enumerate(pairs):
            reps[:, methods.index(m), k % len(gammas)] = losses[:, k]
    # the lattice of an interpolation on the skew needs one pi0 for all replicates; else
    # the engine, one by one
    engine = [m for m in methods if specs[m].skew and specs[m].interpolates and not same_pi0]
    batched = [m for m in methods if m not in fixed and m not in engine]
    if "integrator" not in shared:
        shared["integrator"] = _BatchIntegrator(test.n, (train if train is not None else test).pi0)
    integrator = shared["integrator"]
    for lo in range(0, counts.shape[0], chunk):
        rows = range(lo, min(lo + chunk, counts.shape[0]))
        lines = [_replicate_lines(test, c0[r], c1[r]) for r in rows]
        for method in batched:
            i = methods.index(method)
            sels = None
            if method not in GAMMA_AWARE:
                sels = [make_selection(method, ln, train=train, **options) for ln in lines]
                if sels[0].ignores_c_hat:  # its loss is the gamma = 0 one whatever gamma
                    reps[rows, i, :] = integrator.losses(sels, 0.0)[:, None]
                    continue
            for k, gamma in enumerate(gammas):
                chosen = sels or [
                    make_selection(method, ln, train=train, gamma=gamma, **options)
                    for ln in lines
                ]
                reps[rows, i, k] = integrator.losses(chosen, gamma)
        if engine:
            i = methods.index(engine[0])
            for r, ln in zip(rows, lines, strict=True):
                reps[r, [i]] = _engine_losses(ln, train, engine, gammas, options)


def replicate_cost_lines(
    test_y: ArrayLike, test_s: ArrayLike, n_boot: int, seed: int | None = 0, *,
    stratified: bool = True,
) -> Iterator[CostLines]:
    """The cost lines of each bootstrap replicate of a test set (the resamples of
    :func:`bootstrap` with the same arguments), one at a time."""
    y, s = validate_scores(test_y, test_s, what="test scores")
    test = CostLines.from_scores(y, s)
    inverse = np.searchsorted(test.scores, s)
    for rows in _chunks(check_n_boot(n_boot), y.size):
        counts = _draw_counts(y, rows, seed, stratified)
        c0, c1 = _class_counts(counts, y, inverse, test.scores.size)
        for r in range(c0.shape[0]):
            yield _replicate_lines(test, c0[r], c1[r])


def add_intervals(
    losses: pd.DataFrame,
    metric_frame: pd.DataFrame,
    test_y: ArrayLike,
    test_s: ArrayLike,
    train_y: ArrayLike | None,
    train_s: ArrayLike | None,
    settings: LossSettings,
    *,
    n_boot: int,
    seed: int | None = 0,
    confidence: float = 0.95,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``losses`` (``method, gamma, expected_loss``) and ``metric_frame`` (``metric,
    value``) with ``lower, upper`` columns from :func:`bootstrap` (the ``loss`` command's
    ``--bootstrap N``). Metrics outside :data:`BOOTSTRAP_METRICS` (the bounded scores, which
    depend on the cost distribution) get no interval (NaN)."""
    methods = list(dict.fromkeys(losses["method"]))
    gammas = list(dict.fromkeys(losses["gamma"]))
    boot = bootstrap(
        test_y, test_s, train_y=train_y, train_s=train_s, methods=methods, gammas=gammas,
        metrics=[m for m in metric_frame["metric"] if m in BOOTSTRAP_METRICS], settings=settings,
        n_boot=n_boot, seed=seed,
    )
    bounds = boot.intervals(confidence)[["method", "gamma", "lower", "upper"]]
    metric_bounds = boot.metric_intervals(confidence)[["metric", "lower", "upper"]]
    return (
        losses.merge(bounds, on=["method", "gamma"], how="left"),
        metric_frame.merge(metric_bounds, on="metric", how="left"),
    )


class _CallableModule(types.ModuleType):
    """This module, callable as its function :func:`bootstrap` (see the module docstring)."""

    def __call__(self, *args: Any, **kwargs: Any) -> Bootstrap:
        return bootstrap(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
#: ``inspect.signature`` and ``help`` of the module called: the function's
__wrapped__ = bootstrap

__all__ = [
    "BOOTSTRAP_METRICS",
    "Bootstrap",
    "PairedDifference",
    "add_intervals",
    "bootstrap",
    "paired_difference",
    "percentile_bounds",
    "replicate_cost_lines",
    "resample_counts",
]

