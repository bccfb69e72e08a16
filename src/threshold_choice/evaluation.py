"""Everything the paper reports for one run (one model, one split): expected losses of the
threshold choice methods for each certainty ``gamma``, and the test-set metrics.

The ``threshold-choice loss`` command is :mod:`threshold_choice.cli.loss`.
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from functools import cached_property
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from threshold_choice._typing import FloatArray
from threshold_choice.cost_distributions import CostDistribution, parse_cost_distribution
from threshold_choice.costlines import CostLines, binary_labels, check_prior
from threshold_choice.costs import Costs
from threshold_choice.errors import UserError
from threshold_choice.expected_loss import (
    ESTIMATORS,
    GIVEN_DRAWS,
    Estimator,
    draw_c_hat,
    expected_cost_curve,
    losses_at_gammas,
)
from threshold_choice.fmeasure import loss_context
from threshold_choice.methods import (
    GAMMA_AWARE,
    METHODS,
    NEEDS_TRAIN,
    PAPER_METHODS,
    TIE_BREAKING,
    Selection,
    TieBreaking,
    derive_selection,
    make_selection,
    method_spec,
    probability_problem,
    uncertainty_aware_many,
)
from threshold_choice.uncertainty import (
    PAPER_GAMMAS,
    PAPER_GRID_SIZE,
    certainty_limit,
    check_grid_size,
    check_seed,
    format_gamma,
    parse_gamma,
)


@dataclass(frozen=True)
class LossSettings:
    """How expected losses are estimated, and under which operating conditions.

    The defaults are the paper's operating conditions (``c`` uniform on [0, 1], the test set's
    class proportions) with the exact integral; the workflow's default configuration adds the
    two quirks of the authors' code (``rate_threshold_offset=1e-7``,
    ``tie_breaking="authors"``). Every function that takes ``settings`` also takes a mapping
    of these fields (:meth:`from_mapping`).

    Parameters
    ----------
    estimator : {"exact", "grid", "montecarlo", "authors"}, default="exact"
        The integral itself, the paper's grid of true costs, the authors' Monte Carlo
        protocol (see :mod:`threshold_choice.expected_loss`), or that protocol at the draws
        given with each run (:class:`RunDraws`: the authors' own, replayed by the workflow's
        evaluate step).
    grid_size : int, default=1000
        The grid ``c = i/grid_size`` of the ``grid`` and ``montecarlo`` estimators
        (``1..100000``).
    seed : int, default=0
        The seed of the ``montecarlo`` draws (one stream per gamma, shared by the methods),
        a whole number >= 0.
    rate_threshold_offset : float or None, default=None
        Rate-driven thresholds ``u_k - offset`` as in the authors' code (``1e-7`` in the
        workflow's default configuration), in (0, 1); ``None``: the exact interpolation
        between adjacent lines. Applies to the rate methods.
    tie_breaking : {"project", "authors"}, default="project"
        ``"authors"``: test- and train-optimal break exact ties between cost lines at a grid
        point as the authors' floating-point arithmetic did (the workflow's default; only
        the ``grid`` and ``montecarlo`` estimators see ties), and train-optimal thresholds
        at the training midpoints as it rounds them (onto the upper score where two are
        adjacent doubles; every estimator); ``"project"``: the project's arithmetic and
        thresholds that realise the lines chosen.
    cost_distribution : str or CostDistribution, default="uniform"
        The belief ``w`` about the true cost proportion: ``"uniform"`` (the paper's),
        ``"beta:A,B"``, ``"uniform:LO,HI"``, ``"logit-uniform:LO,HI"``
        (:func:`~threshold_choice.cost_distributions.parse_cost_distribution`).
    prior : float or None, default=None
        The deployment class-0 proportion, in (0, 1); ``None``: the test set's. The cost
        lines are reweighted to it (:meth:`~threshold_choice.costlines.CostLines.with_prior`);
        0.5 gives the skew view.
    fixed_threshold : float or None, default=None
        The threshold of score-fixed, in [0, 1]; ``None``: the mean of
        ``cost_distribution`` (1/2 for the paper's uniform).
    fixed_rate : float or None, default=None
        The predicted-0 rate of rate-fixed, in [0, 1]; ``None``: the mean of
        ``cost_distribution``.

    Attributes
    ----------
    distribution : CostDistribution
        ``cost_distribution`` parsed.

    Raises
    ------
    UserError
        For a field outside its range (each message names the field).

    See Also
    --------
    expected_losses : The expected losses these settings estimate.

    Examples
    --------
    >>> from threshold_choice import LossSettings
    >>> settings = LossSettings.from_mapping({"estimator": "grid",
    ...                                       "cost_distribution": "beta:2,2"})
    >>> settings.estimator, settings.grid_size, settings.distribution.spec
    ('grid', 1000, 'beta:2,2')
    >>> LossSettings(estimator="mc")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    threshold_choice.errors.UserError: unknown estimator 'mc'; choose from exact, grid, ...
    """

    estimator: Estimator = "exact"
    grid_size: int = PAPER_GRID_SIZE
    seed: int = 0
    rate_threshold_offset: float | None = None
    tie_breaking: TieBreaking = "project"
    cost_distribution: str | CostDistribution = "uniform"
    prior: float | None = None
    fixed_threshold: float | None = None
    fixed_rate: float | None = None

    def __post_init__(self) -> None:
        if self.estimator not in (*ESTIMATORS, GIVEN_DRAWS):
            raise UserError(f"unknown estimator {self.estimator!r}; choose from "
                            f"{', '.join((*ESTIMATORS, GIVEN_DRAWS))}")
        check_grid_size(self.grid_size)
        check_seed(self.seed, allow_none=False)
        if self.tie_breaking not in TIE_BREAKING:
            raise UserError(
                f"tie_breaking must be one of {', '.join(TIE_BREAKING)}, got {self.tie_breaking!r}"
            )
        offset = self.rate_threshold_offset
        if offset is not None and not 0 < offset < 1:  # also NaN
            raise UserError(
                f"rate_threshold_offset must be in (0, 1) (a shift of the thresholds below the "
                f"scores, which are probabilities; the authors' 1e-7) or None, got {offset}"
            )
        parse_cost_distribution(self.cost_distribution)
        if self.prior is not None:
            check_prior(self.prior)
        for name in ("fixed_threshold", "fixed_rate"):
            value = getattr(self, name)
            if value is not None and not (isinstance(value, int | float | np.integer |
                                                     np.floating) and 0.0 <= value <= 1.0):
                raise UserError(f"{name} must be a number in [0, 1] or None (the mean of the "
                                f"cost distribution), got {value!r}")

    def selection_options(self) -> dict[str, Any]:
        """The keyword arguments of :func:`~threshold_choice.methods.make_selection` these
        settings fix (all but the scores and gamma)."""
        return {
            "rate_threshold_offset": self.rate_threshold_offset,
            "tie_breaking": self.tie_breaking,
            "distribution": self.distribution,
            "fixed_threshold": self.fixed_threshold,
            "fixed_rate": self.fixed_rate,
        }

    @cached_property
    def distribution(self) -> CostDistribution:
        """``cost_distribution`` parsed."""
        return parse_cost_distribution(self.cost_distribution)

    @classmethod
    def from_mapping(cls, mapping: Mapping[str, Any]) -> LossSettings:
        """Build settings from a configuration mapping of their fields.

        Parameters
        ----------
        mapping : Mapping
            Field names to values (e.g. the workflow's ``evaluation`` without
            ``gammas``/``methods``); fields not given keep their defaults.

        Returns
        -------
        LossSettings
            The settings.

        Raises
        ------
        UserError
            For an unknown key (the message lists the fields) or a value out of range.
        """
        known = [f.name for f in fields(cls)]
        unknown = sorted(set(mapping) - set(known))
        if unknown:
            raise UserError(
                f"unknown loss setting(s) {', '.join(unknown)}; known: {', '.join(known)}"
            )
        return cls(**dict(mapping))


def as_loss_settings(settings: LossSettings | Mapping[str, Any] | None) -> LossSettings:
    """``settings`` as :class:`LossSettings`: itself, a mapping of its fields
    (:meth:`LossSettings.from_mapping`), or None for the defaults."""
    if settings is None:
        return LossSettings()
    if isinstance(settings, LossSettings):
        return settings
    if isinstance(settings, Mapping):
        return LossSettings.from_mapping(settings)
    raise UserError(f"settings must be a LossSettings or a mapping of its fields, got "
                    f"{type(settings).__name__}")


def loss_settings(settings: LossSettings | Mapping[str, Any] | None = None,
                  **settings_kwargs: Any) -> LossSettings:
    """``settings`` (default ``LossSettings()``; or a mapping of its fields) with
    ``settings_kwargs`` replacing fields."""
    base = as_loss_settings(settings)
    if not settings_kwargs:
        return base
    known = {f.name for f in fields(LossSettings)}
    unknown = sorted(set(settings_kwargs) - known)
    if unknown:
        raise UserError(
            f"unknown setting(s) {', '.join(unknown)}; LossSettings has {', '.join(sorted(known))}"
        )
    return replace(base, **settings_kwargs)


def with_belief(settings: LossSettings, costs: Costs | None, where: str = "the scorer"
                ) -> LossSettings:
    """``settings`` averaging over the ``belief`` of ``costs`` when they carry one (a
    :class:`UserError` when the settings name another cost distribution)."""
    if costs is None or costs.belief is None:
        return settings
    given = settings.distribution
    if not given.is_standard_uniform and given != costs.belief:
        raise UserError(f"{where}: the costs carry the belief {costs.belief.spec} but the "
                        f"settings say cost_distribution={given.spec}; give one belief")
    return replace(settings, cost_distribution=costs.belief)


def _draw_seed(seed: int, gamma: float) -> list[int]:
    # one stream per (seed, gamma), shared by all methods as in the authors' code
    return [seed, zlib.crc32(format_gamma(gamma).encode())]


def expected_losses(
    test_y: ArrayLike,
    test_s: ArrayLike,
    *,
    train_y: ArrayLike | None = None,
    train_s: ArrayLike | None = None,
    methods: Sequence[str] | str = PAPER_METHODS,
    gammas: Iterable[float] | float = PAPER_GAMMAS,
    settings: LossSettings | Mapping[str, Any] | None = None,
    loss_function: str = "accuracy",
    pos_label: Any = None,
    at_cost: float | None = None,
) -> pd.DataFrame:
    """Compute the expected loss of each threshold choice method at each certainty.

    The expected loss of a method is ``L = integral K(c) w(c) dc``, ``K(c)`` its loss at the
    true cost proportion ``c`` averaged over the presumed ``c_hat ~ Beta(gamma c + 1,
    gamma (1 - c) + 1)`` it is given, and ``w`` the belief about ``c`` (the paper's uniform
    by default). Losses are on the paper's scale ``b = 2``: the loss of a threshold ``t`` is
    ``Q(t; c) = 2 (c pi0 FP0(t) + (1 - c) pi1 FN1(t))``, class 1 predicted iff
    ``score > t``, with the test set's class proportions.

    Parameters
    ----------
    test_y : array-like of shape (n,)
        Labels of the test set, 0 or 1 (class 1: the class the score estimates); both
        classes must be present.
    test_s : array-like of shape (n,)
        Scores of the test set, estimates of P(class 1): in [0, 1] for the methods that
        read them as probabilities (``threshold_choice.methods.PROBABILITY_METHODS``); the
        rank-based methods take any finite real scores.
    train_y : array-like of shape (n_train,), default=None
        Labels of the training set: needed by the train-optimal methods (and used for the
        class proportion of the skew variants, as in the authors' code).
    train_s : array-like of shape (n_train,), default=None
        The model's scores on the training set.
    methods : str or sequence of str, default=PAPER_METHODS
        One name or several, of :data:`~threshold_choice.methods.METHODS`.
    gammas : float or iterable of float, default=PAPER_GAMMAS
        One certainty or several, each a number >= 0, ``inf`` or a string
        :func:`~threshold_choice.uncertainty.parse_gamma` accepts.
    settings : LossSettings or Mapping or None, default=None
        The estimator and the operating conditions (:class:`LossSettings`, or a mapping of
        its fields); ``None``: ``LossSettings()``. With ``settings.prior`` both sets of cost
        lines are reweighted to that deployment class-0 proportion (which the skew variants
        then use).
    loss_function : {"accuracy", "f-measure"}, default="accuracy"
        ``"accuracy"``: the paper's loss; ``"f-measure"``: the expected ``2FQ/(1 - FQ)``
        (:mod:`threshold_choice.fmeasure`; its positive class is class 0; no deployment
        prior).
    pos_label : int, float, bool or str, default=None
        The label of the class the score estimates (class 1), in ``test_y`` and ``train_y``;
        the labels are then any two classes, e.g. ``pos_label="malignant"``. ``None``: the
        labels must be 0 and 1 (scikit-learn's convention).
    at_cost : float or None, default=None
        ``None``: the expected loss over the belief ``w``. A cost proportion ``c0`` in [0, 1]
        (e.g. :attr:`Costs.cost_proportion <threshold_choice.costs.Costs.cost_proportion>`):
        instead the loss when the true cost proportion is ``c0``, the method still given
        ``c_hat ~ Beta(gamma c0 + 1, gamma (1 - c0) + 1)``, i.e. ``K(c0)``
        (:func:`~threshold_choice.expected_loss.expected_cost_curve`), computed exactly
        whatever ``settings.estimator``; accuracy loss only.

    Returns
    -------
    pandas.DataFrame
        Columns ``method, gamma, expected_loss``: one row per method and gamma, by gamma
        then method, in the order given.

    Raises
    ------
    UserError
        For invalid labels or scores (see :meth:`CostLines.from_scores`), scores outside
        [0, 1] with a method that reads probabilities, an unknown method, a negative gamma,
        a train-optimal method without training scores, invalid settings, a deployment
        prior with the f-measure loss, labels that are not 0/1 without ``pos_label`` (the
        message names the fix), or ``at_cost`` outside [0, 1] or with the f-measure loss.

    See Also
    --------
    LossSettings : The estimator and the operating conditions.
    threshold_choice.compute_metrics : The metrics of the same scores.
    threshold_choice.bootstrap.bootstrap : Confidence intervals for these losses.

    Examples
    --------
    >>> import math
    >>> from threshold_choice import expected_losses
    >>> y = [0, 0, 1, 0, 1, 1, 0, 1]
    >>> s = [0.1, 0.3, 0.35, 0.4, 0.6, 0.8, 0.7, 0.9]
    >>> expected_losses(y, s, methods=["test-optimal", "score-driven", "rate-driven"],
    ...                 gammas=[math.inf, 1, 0]).round(4)
             method  gamma  expected_loss
    0  test-optimal    inf         0.1250
    1  score-driven    inf         0.1728
    2   rate-driven    inf         0.1771
    3  test-optimal    1.0         0.2074
    4  score-driven    1.0         0.2809
    5   rate-driven    1.0         0.2779
    6  test-optimal    0.0         0.2500
    7  score-driven    0.0         0.3562
    8   rate-driven    0.0         0.3438

    Train-optimal needs the model's scores on its training data; a belief about ``c`` goes in
    the settings:

    >>> losses = expected_losses(y, s, train_y=[0, 1, 0, 1, 1, 0, 0, 1],
    ...                          train_s=[0.2, 0.6, 0.3, 0.7, 0.45, 0.5, 0.1, 0.95],
    ...                          methods="train-optimal", gammas=math.inf,
    ...                          settings={"cost_distribution": "beta:2,2"})
    >>> round(float(losses["expected_loss"].iloc[0]), 4)
    0.2891

    Named classes take ``pos_label``; ``at_cost`` gives the loss at one known cost
    proportion (at ``gamma = inf`` score-driven thresholds at 0.2, which three of the four
    class-0 examples pass: ``2 x 0.2 x 3/8 = 0.15``):

    >>> names = ["benign" if label == 0 else "malignant" for label in y]
    >>> expected_losses(names, s, pos_label="malignant", methods="score-driven",
    ...                 gammas=[math.inf, 4], at_cost=0.2).round(4)
             method  gamma  expected_loss
    0  score-driven    inf         0.1500
    1  score-driven    4.0         0.2031
    """
    if (train_y is None) != (train_s is None):
        raise UserError("give both train_y and train_s (the labels and the model's scores on "
                        "its training data) or neither")
    test_y = binary_labels(test_y, pos_label, "test_y")
    if train_y is not None:
        train_y = binary_labels(train_y, pos_label, "train_y")
    request = LossBatch.make(methods, gammas, settings, loss_function, at_cost=at_cost)
    run = request.selections(test_y, test_s, train_y=train_y, train_s=train_s)
    rows = [(m, gamma) for gamma in request.gammas for m in request.methods]
    return pd.DataFrame(
        [(m, gamma, loss) for (m, gamma), loss in zip(rows, request.losses([run])[0], strict=True)],
        columns=["method", "gamma", "expected_loss"],
    )


@dataclass(frozen=True)
class RunDraws:
    """The draws one run is evaluated at by the ``authors`` estimator: for each gamma of the
    batch, in its order, one value per grid point ``c = i/grid_size``.

    The authors' script gave every method the same ``c_hat`` at a grid point, and drew the
    random threshold of score-uniform and the random cut of rate-uniform (its uniform,
    given here; rate-uniform and instance-uniform are evaluated at it) on its own.
    """

    c_hat: Sequence[FloatArray]
    score_uniform: Sequence[FloatArray]
    rate_uniform: Sequence[FloatArray]

    def of(self, method: str, ignores_c_hat: bool) -> Sequence[FloatArray]:
        """The draws ``method`` is evaluated at, per gamma."""
        if not ignores_c_hat:
            return self.c_hat
        return self.score_uniform if method.startswith("score") else self.rate_uniform


@dataclass(frozen=True)
class _Run:
    """One run's checked cost lines, from which each method's selection is built when it is
    evaluated (and dropped after: one selection in memory at a time)."""

    test: CostLines
    train: CostLines | None
    options: Mapping[str, Any]
    #: the ``authors`` estimator's draws for this run
    draws: RunDraws | None = None

    def selection(self, method: str) -> Selection:
        return make_selection(method, self.test, train=self.train, **self.options)

    def variant(self, method: str, base: Selection) -> Selection:
        """:meth:`selection` of a variant, from ``base``, its base method's selection."""
        return derive_selection(method, base, self.test, train=self.train, **self.options)



def _check_once_each(methods: Sequence[str], gammas: Sequence[float]) -> None:
    """Refuse an empty list of methods or gammas, and one that names a method or a gamma
    twice (``4`` and ``4.0``, ``inf`` and ``"Inf"``: one result row each), as the workflow's
    configuration check does."""
    for what, values in (("methods", list(methods)), ("gammas", list(gammas))):
        if not values:
            raise UserError(f"{what} is empty; give at least one")
        twice = sorted({str(v) for v in values if values.count(v) > 1})
        if twice:
            raise UserError(f"{what} lists {', '.join(twice)} more than once (one result row "
                            "each); give each once")

@dataclass(frozen=True)
class LossBatch:
    """:func:`expected_losses` for many runs at once (e.g. the splits of one model), sharing
    one evaluation per gamma. Build with :meth:`make` (methods, gammas, settings and loss, as
    :func:`expected_losses` takes them and checks them); :meth:`selections` checks one run's
    scores and builds its gamma-independent selections; :meth:`losses` evaluates any number
    of runs, each loss exactly (bit for bit) as :func:`expected_losses` gives it for that run
    alone::

        batch = LossBatch.make(methods, gammas, LossSettings(), "accuracy")
        runs = [batch.selections(y, s, train_y=ty, train_s=ts) for y, s, ty, ts in splits]
        losses = batch.losses(runs)  # per run: by gamma, then method
    """

    methods: tuple[str, ...]
    gammas: tuple[float, ...]
    settings: LossSettings
    loss_function: str
    lines_of: Any
    evaluate: Any
    #: None: the expected loss over the belief; a cost proportion: ``K`` there
    #: (:func:`expected_losses`' ``at_cost``)
    at_cost: float | None = None

    @classmethod
    def make(cls, methods: Sequence[str] | str, gammas: Iterable[float] | float | str,
             settings: LossSettings | Mapping[str, Any] | None,
             loss_function: str, *, at_cost: float | None = None) -> LossBatch:
        # one method or one gamma may be given alone; settings as a mapping of their fields
        methods = [methods] if isinstance(methods, str) else list(methods)
        if isinstance(gammas, str | int | float | np.integer | np.floating):
            gammas = [gammas]
        settings = as_loss_settings(settings)
        unknown = [m for m in methods if m not in METHODS]
        if unknown:
            raise UserError(
                f"unknown method(s) {', '.join(unknown)}; choose from {', '.join(METHODS)}"
            )
        parsed = tuple(parse_gamma(g) for g in gammas)
        _check_once_each(methods, parsed)
        if loss_function != "accuracy" and settings.prior is not None:
            raise UserError("a deployment prior applies to the accuracy loss only; drop the "
                            "prior or the f-measure loss")
        if at_cost is not None:
            if loss_function != "accuracy":
                raise UserError("at_cost applies to the accuracy loss only; drop at_cost or "
                                "the f-measure loss")
            if not (isinstance(at_cost, int | float | np.integer | np.floating)
                    and 0.0 <= at_cost <= 1.0):  # also NaN
                raise UserError(f"at_cost must be a cost proportion in [0, 1] (e.g. "
                                f"Costs(1, 4).cost_proportion, 0.2), got {at_cost!r}")
            at_cost = float(at_cost)
        if settings.estimator == GIVEN_DRAWS and loss_function != "accuracy":
            raise UserError("the authors estimator replays the authors' accuracy losses; "
                            "choose another estimator for the f-measure loss")
        lines_of, evaluate = loss_context(loss_function, settings.tie_breaking)
        return cls(tuple(methods), parsed, settings, loss_function, lines_of, evaluate,
                   at_cost)

    def selections(self, test_y: ArrayLike, test_s: ArrayLike, *,
                   train_y: ArrayLike | None = None, train_s: ArrayLike | None = None,
                   draws: RunDraws | None = None) -> _Run:
        """One run's selections, after checking its scores (see :func:`expected_losses`);
        ``draws``: the run's draws, which the ``authors`` estimator needs (one array per
        gamma of the batch)."""
        methods, settings = self.methods, self.settings
        test = self.lines_of(test_y, test_s, what="test scores").with_prior(settings.prior)
        # (after lines_of, which refuses what is not a vector of finite numbers)
        problem = probability_problem(np.asarray(test_s, dtype=np.float64), methods,
                                      "the test scores")
        if problem is not None:
            raise UserError(problem)
        train = None
        if train_y is not None and train_s is not None:
            train = self.lines_of(train_y, train_s, what="training scores").with_prior(
                settings.prior
            )
        elif any(m in NEEDS_TRAIN for m in methods):
            needs = ", ".join(m for m in methods if m in NEEDS_TRAIN)
            raise UserError(
                f"{needs} select(s) thresholds on the model's training scores: give train_y "
                "and train_s (its labels and scores on the training data), or drop the method"
            )
        if draws is not None and not (len(draws.c_hat) == len(draws.score_uniform)
                                      == len(draws.rate_uniform) == len(self.gammas)):
            raise UserError(f"a run's draws must hold one array per gamma ({len(self.gammas)})")
        return _Run(test, train, settings.selection_options(), draws)

    def losses(self, runs: Sequence[_Run]) -> list[list[float]]:
        """The expected losses of each run, by gamma then method (the rows of
        :func:`expected_losses`). Method by method: its selections of the runs are built,
        each evaluated at every gamma in one pass over its segments, and dropped, so memory
        holds one method's selections at a time."""
        settings, methods, gammas = self.settings, self.methods, self.gammas
        draws: list[Any] = [None] * len(gammas)
        uniform_draws: list[Any] = draws
        if settings.estimator == "montecarlo":  # one stream per gamma, shared by all methods
            draws = [draw_c_hat(g, settings.grid_size, _draw_seed(settings.seed, g))
                     for g in gammas]
            uniform = draw_c_hat(0.0, settings.grid_size, _draw_seed(settings.seed, -1.0))
            uniform_draws = [uniform] * len(gammas)
        elif settings.estimator == GIVEN_DRAWS and any(run.draws is None for run in runs):
            raise UserError("the authors estimator evaluates each run at the draws of the "
                            "authors' script: give them with the run (LossBatch.selections("
                            "..., draws=...), which the workflow's evaluate step replays), or "
                            "choose exact, grid or montecarlo")
        # the methods by the selection they start from (an aware method or a variant: its
        # base's), so that each such selection is built once
        groups: dict[str, list[int]] = {}
        for j, method in enumerate(methods):
            spec = method_spec(method)
            groups.setdefault(spec.aware_of or spec.variant_of or method, []).append(j)
        width = len(gammas) * len(methods)
        losses = [[math.nan] * width for _ in runs]
        for base, members in groups.items():
            self._evaluate_method(base, members, runs, losses, draws, uniform_draws)
        return losses

    def _evaluate_method(self, base: str, members: list[int], runs: Sequence[_Run],
                         losses: list[list[float]], draws: list[Any],
                         uniform_draws: list[Any]) -> None:
        """The losses of the methods ``members`` (column indices), which start from the
        selection of ``base``, into ``losses``: the runs' selections of ``base`` are built,
        evaluated (``base`` itself, then each variant derived from them in turn) and released
        on return (the aware variants of all runs built together at each gamma)."""
        methods, gammas, distribution = self.methods, self.gammas, self.settings.distribution
        sels = [run.selection(base) for run in runs]
        plain: dict[str, list[int]] = {}  # base and its variants: their columns
        for j in members:
            if methods[j] not in GAMMA_AWARE:
                plain.setdefault(methods[j], []).append(j)
        aware = [j for j in members if methods[j] in GAMMA_AWARE]
        for method, columns in plain.items():
            for out, run, sel in zip(losses, runs, sels, strict=True):
                chosen = sel if method == base else run.variant(method, sel)
                mine = uniform_draws if chosen.ignores_c_hat else draws
                if run.draws is not None and self.settings.estimator == GIVEN_DRAWS:
                    mine = run.draws.of(method, chosen.ignores_c_hat)
                for g, value in enumerate(self._losses(chosen, gammas, mine)):
                    for j in columns:
                        out[g * len(methods) + j] = value
                del chosen  # a variant: before the next one is derived
        limit = certainty_limit(distribution)
        for g, gamma in enumerate(gammas if aware else ()):
            # from the certainty limit on, m(c_hat) = c_hat: the aware variant is its base
            chosen = sels if gamma >= limit else uncertainty_aware_many(sels, gamma, distribution)
            for out, sel, run in zip(losses, chosen, runs, strict=True):
                given = (run.draws.c_hat if run.draws is not None
                         and self.settings.estimator == GIVEN_DRAWS else draws)
                value = self._losses(sel, [gamma], given[g : g + 1])[0]
                for j in aware:
                    out[g * len(methods) + j] = value
            del chosen, sel, run  # before the next gamma's variants are built

    def _losses(self, sel: Selection, gammas: Sequence[float], draws: Sequence[Any]
                ) -> list[float]:
        settings = self.settings
        if self.at_cost is not None:  # K(c0), exact whatever the estimator
            at = np.array([self.at_cost])
            return [float(expected_cost_curve(sel, gamma, at)[0]) for gamma in gammas]
        if self.loss_function == "accuracy":
            return losses_at_gammas(sel, gammas, estimator=settings.estimator,
                                    grid_size=settings.grid_size, draws=draws,
                                    distribution=settings.distribution)
        return [self.evaluate(sel, gamma, estimator=settings.estimator,
                              grid_size=settings.grid_size, c_hat=given,
                              distribution=settings.distribution)
                for gamma, given in zip(gammas, draws, strict=True)]
