"""scikit-learn scorers: the expected loss of a threshold choice method, and the metrics.

``make_expected_loss_scorer(method, gamma, **settings)`` scores a fitted classifier on
``(X, y)`` by the expected loss of ``method`` at certainty ``gamma`` on those examples (as
:func:`~threshold_choice.evaluation.expected_losses` on the same split); lower is better, so,
as scikit-learn's ``neg_*`` scorers, the scorer returns the *negated* loss
(``greater_is_better=False``) and ``GridSearchCV`` maximises it. ``make_metric_scorer(name)``
does the same for a metric of :func:`~threshold_choice.metrics.compute_metrics` (negated
unless higher is better, as AUC).

Engine settings go through: ``settings=LossSettings(...)`` or keyword arguments of
:class:`~threshold_choice.evaluation.LossSettings` (``estimator="grid"``, ...), so any field
``LossSettings`` gains works in the scorer unchanged.

Scores come from ``predict_proba`` or ``decision_function``, as scikit-learn's
``response_method``: the score-based methods (``score-*``) threshold at the cost proportion
itself and take ``predict_proba`` (the probability of ``pos_label``, class 1 of the package);
the rank-based ones take either. Labels other than 0/1 need a positive class (``pos_label``,
the costs', or the scored classifier's): scikit-learn's default ``classes_[1]`` is never
taken silently.

**The estimator's own choice.** :func:`make_threshold_choice_scorer` scores a fitted
:class:`~threshold_choice.estimators.ThresholdChoiceClassifier` by the expected loss of *its*
method (its ``method``, ``gamma``, fixed threshold or rate, belief), so that ``GridSearchCV``
over ``method``, ``gamma`` or the model's parameters compares what each candidate would do
when deployed under the user's belief.

**Train-optimal** selects its threshold on the classifier's scores on its *training* data,
which a scorer called as ``scorer(estimator, X_test, y_test)`` does not see. The scorer takes
them from the estimator: it must be a fitted
:class:`~threshold_choice.estimators.ThresholdChoiceClassifier` (or a ``Pipeline`` ending in
one), whose ``fit`` keeps its training labels and scores; any other estimator gets a
:class:`~threshold_choice.errors.UserError` saying so. Such scorers are plain callables
(``cross_validate`` and ``GridSearchCV`` accept them; ``TunedThresholdClassifierCV`` needs the
other kind).

**Predicted labels.** ``TunedThresholdClassifierCV(scoring=...)`` calls a scorer's function
with the *labels* predicted at each candidate threshold. The score functions read labels (any
``y_score`` whose values are all class labels) as crisp scores, 1 for ``pos_label`` and 0
otherwise: the expected loss of the method applied to that crisp classifier (with labels 0/1
and class 0 positive, integer or boolean values are labels, floats probabilities: see
``_are_labels``). For a fixed threshold at a known cost use :func:`make_cost_scorer`.
"""

from __future__ import annotations

import copy
import math
from dataclasses import replace
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.metrics import make_scorer
from sklearn.metrics._scorer import _Scorer  # its _score, to set the classifier's pos_label

from threshold_choice.costlines import CostLines, shown_labels
from threshold_choice.costs import Costs
from threshold_choice.errors import UserError
from threshold_choice.estimators import (
    check_cost_proportion,
    check_method,
    find_threshold_classifier,
    needs_probabilities,
    response_scores,
)
from threshold_choice.evaluation import (
    LossSettings,
    expected_losses,
    loss_settings,
    with_belief,
)
from threshold_choice.expected_loss import expected_loss
from threshold_choice.methods import (
    GAMMA_AWARE,
    METHODS,
    NEEDS_TRAIN,
    make_selection,
)
from threshold_choice.metrics import METRICS, compute_metrics
from threshold_choice.uncertainty import parse_gamma

#: metrics where a larger value is better (their scorers are not negated)
HIGHER_IS_BETTER: frozenset[str] = frozenset({"AUC", "H"})
#: metrics that depend only on the ranking of the scores (any response method will do)
RANK_METRICS: frozenset[str] = frozenset({"AUC", "RL", "RL_conv", "H"})
_PROBA = "predict_proba"
_ANY = ("predict_proba", "decision_function")


def binary_labels(y_true: ArrayLike, pos_label: Any = None) -> NDArray[np.int8]:
    """``y_true`` as 0/1 (1 = ``pos_label``). Without ``pos_label`` the labels must be 0/1
    (or booleans): named classes are refused rather than read as scikit-learn's
    ``classes_[1]`` (whichever sorts last), which silently scores the other class."""
    y = np.asarray(y_true)
    labels = np.unique(y)
    if labels.size > 2:
        raise UserError(f"binary labels needed, got {labels.size} classes {labels[:5]}")
    if pos_label is None:
        if not set(labels.tolist()) <= {0, 1}:
            raise UserError(
                f"the labels are {shown_labels(labels)}: give pos_label= (the positive class, "
                f"whose probability the score estimates), e.g. pos_label={labels.tolist()[0]!r}; "
                f"without it scikit-learn would take {labels.tolist()[-1]!r}, the last sorted"
            )
        pos_label = 1
    elif labels.size == 2 and pos_label not in labels.tolist():
        raise UserError(f"no label is pos_label={pos_label!r}; the labels are "
                        f"{shown_labels(labels)}: give one of them")
    return (y == pos_label).astype(np.int8)


def _check_two_classes(y: NDArray, values: NDArray, pos_label: Any) -> None:
    """A :class:`UserError` when the labels ``y``, the predicted labels ``values`` and
    ``pos_label`` are more than two classes."""
    found = sorted({*np.unique(y).tolist(), *np.unique(values).tolist()}
                   | ({pos_label} - {None}), key=repr)
    if len(found) > 2:
        raise UserError(f"the predicted labels and the labels are more than two classes: "
                        f"{shown_labels(found[:5])}")


def _as_scores(y_true: ArrayLike, y_score: ArrayLike, pos_label: Any) -> NDArray[np.float64]:
    """``y_score`` as floats; predicted labels as crisp scores 1 (``pos_label``) / 0 (see the
    module docstring and :func:`_are_labels`)."""
    score = np.asarray(y_score)
    if _are_labels(np.asarray(y_true), score, pos_label):
        return (score == (1 if pos_label is None else pos_label)).astype(np.float64)
    try:
        return score.astype(np.float64)
    except (TypeError, ValueError):
        raise UserError("scores must be numbers (or predicted class labels)") from None


def _are_labels(y: NDArray, values: NDArray, pos_label: Any) -> bool:
    """Whether ``values`` are predicted labels rather than scores: values that are not
    numbers (named classes), or numbers that are all class labels (of ``y``, ``pos_label``,
    and both 0 and 1 when the labels are 0/1, so that a fold of one class still reads them).

    With 0/1 labels the two readings differ only when class 0 is positive: integer or
    boolean values are then labels (``predict``'s output), floats probabilities of class 0
    that happen to be crisp; floats with float labels could be either and are refused.
    Named predictions and labels together must be two classes at most."""
    if values.dtype.kind in "OSU":
        try:
            values.astype(np.float64)
        except (TypeError, ValueError):
            _check_two_classes(y, values, pos_label)
            return True
    labels = np.unique(y).tolist()
    zero_one = set(labels) <= {0, 1}
    known = {0, 1} if zero_one else set(labels) | ({pos_label} - {None})
    if not np.isin(values, list(known)).all():
        if zero_one or values.dtype.kind not in "biu" or y.dtype.kind not in "biu":
            return False
        _check_two_classes(y, values, pos_label)  # integers: a fold of one class, say
        return True
    if not zero_one or pos_label is None or pos_label == 1:
        return True  # with pos_label 1 both readings are the same crisp scores
    if values.dtype.kind in "biu":
        return True
    if y.dtype.kind == "f":
        raise UserError(
            "scores that are all 0.0 or 1.0, with labels 0.0/1.0 and pos_label=0, could be "
            "predicted labels or crisp probabilities of class 0: give the labels as integers "
            "(integer values are then read as predicted labels, floats as probabilities)")
    return False


def expected_loss_score(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    method: str = "score-driven",
    gamma: float = math.inf,
    settings: LossSettings | None = None,
    pos_label: Any = None,
    train_y: ArrayLike | None = None,
    train_score: ArrayLike | None = None,
    costs: Costs | None = None,
) -> float:
    """Expected loss of ``method`` at ``gamma`` for labels ``y_true`` and scores ``y_score``
    (a metric: lower is better). ``train_y``/``train_score``: for train-optimal. ``costs``:
    report the loss in their units (:meth:`~threshold_choice.costs.Costs.in_units`; their
    positive class, if named, is ``pos_label``)."""
    if costs is not None:
        pos_label = costs.check_pos_label(pos_label, "the scorer")
    settings = with_belief(LossSettings() if settings is None else settings, costs)
    y01 = binary_labels(y_true, pos_label)
    scores = _as_scores(y_true, y_score, pos_label)
    frame = expected_losses(
        y01,
        scores,
        train_y=train_y,
        train_s=train_score,
        methods=[method],
        gammas=[gamma],
        settings=settings,
    )
    loss = float(frame["expected_loss"].iloc[0])
    return loss if costs is None else float(costs.in_units(loss))


def metric_score(
    y_true: ArrayLike, y_score: ArrayLike, *, metric: str = "BS", pos_label: Any = None
) -> float:
    """The metric ``metric`` of :func:`~threshold_choice.metrics.compute_metrics`."""
    y01 = binary_labels(y_true, pos_label)
    return float(compute_metrics(y01, _as_scores(y_true, y_score, pos_label))[metric])


def cost_loss(
    y_true: ArrayLike, y_pred: ArrayLike, *, cost_proportion: float | Costs = 0.5,
    pos_label: Any = None
) -> float:
    """``Q = 2 (c pi0 FP0 + (1 - c) pi1 FN1)`` of predicted labels at the known cost
    proportion ``c`` (class 1 = ``pos_label``): ``2 (c #FP + (1 - c) #FN) / n``. Given
    :class:`~threshold_choice.costs.Costs`, the cost per example in their units,
    ``(C_FP #FP + C_FN #FN) / n``."""
    c = float(check_cost_proportion(cost_proportion))
    costs = cost_proportion if isinstance(cost_proportion, Costs) else None
    if costs is not None:
        pos_label = costs.check_pos_label(pos_label, "the scorer")
    y = binary_labels(y_true, pos_label)
    pred = _as_scores(y_true, y_pred, pos_label) > 0.5
    fp = np.sum((y == 0) & pred)
    fn = np.sum((y == 1) & ~pred)
    loss = float(2.0 * (c * fp + (1.0 - c) * fn) / y.size)
    return loss if costs is None else float(costs.in_units(loss))


class TrainingScoresScorer:
    """Scorer ``(estimator, X, y) -> -expected loss`` for the methods that select on the
    training scores (train-optimal and its aware variant): it takes them from the fitted
    :class:`~threshold_choice.estimators.ThresholdChoiceClassifier` (``train_labels_``,
    ``train_scores_``), itself or the last step of a ``Pipeline``. Build it with
    :func:`make_expected_loss_scorer`."""

    def __init__(
        self, method: str, gamma: float, settings: LossSettings, response_method: Any,
        pos_label: Any = None, costs: Costs | None = None,
    ) -> None:
        self.costs = costs
        self.method = method
        self.gamma = gamma
        self.settings = settings
        self.response_method = response_method
        self.pos_label = pos_label

    def __call__(self, estimator: Any, X: Any, y_true: ArrayLike) -> float:
        clf = find_threshold_classifier(estimator)
        if clf is None:
            raise UserError(
                f"{self.method} selects on the classifier's training scores, which a scorer "
                "does not see: wrap the classifier in ThresholdChoiceClassifier (its fit keeps "
                "them), or score another method"
            )
        if self.pos_label is not None and clf.pos_label_ != self.pos_label:
            raise UserError(
                f"the scorer's pos_label {self.pos_label!r} differs from the classifier's "
                f"{clf.pos_label_!r}"
            )
        scores, _ = response_scores(estimator, X, self.response_method, clf.pos_label_)
        loss = expected_loss_score(
            y_true,
            scores,
            method=self.method,
            gamma=self.gamma,
            settings=self.settings,
            pos_label=clf.pos_label_,
            train_y=clf.train_labels_,
            train_score=clf.train_scores_,
            costs=self.costs,
        )
        return -loss

    def __repr__(self) -> str:
        return (
            f"make_expected_loss_scorer(method={self.method!r}, gamma={self.gamma!r}, "
            f"settings={self.settings!r})"
        )


class _PosLabelScorer(_Scorer):
    """scikit-learn's scorer, whose positive class, when the scorer is given none, is that of
    the :class:`~threshold_choice.estimators.ThresholdChoiceClassifier` it scores (else
    ``classes_[1]``), so that the scores and the labels it compares refer to the class the
    classifier thresholds for."""

    def _score(self, method_caller: Any, estimator: Any, X: Any, y_true: Any,
               **kwargs: Any) -> float:
        clf = find_threshold_classifier(estimator)
        if clf is not None and self._kwargs.get("pos_label", clf.pos_label_) != clf.pos_label_:
            raise UserError(
                f"the scorer's pos_label {self._kwargs['pos_label']!r} differs from the "
                f"classifier's {clf.pos_label_!r}; give one positive class"
            )
        if "pos_label" in self._kwargs or clf is None:
            return super()._score(method_caller, estimator, X, y_true, **kwargs)
        costs = self._kwargs.get("costs")
        if costs is not None:
            costs.check_pos_label(clf.pos_label_, "the classifier")
        scorer = copy.copy(self)
        scorer._kwargs = {**self._kwargs, "pos_label": clf.pos_label_}
        return _Scorer._score(scorer, method_caller, estimator, X, y_true, **kwargs)


def _pos_label_scorer(scorer: Any) -> Any:
    """``scorer`` (from ``make_scorer``) taking its positive class from the classifier."""
    if type(scorer) is _Scorer:
        scorer.__class__ = _PosLabelScorer
    return scorer


def make_expected_loss_scorer(
    method: str = "score-driven",
    gamma: float = math.inf,
    *,
    response_method: str | tuple[str, ...] | None = None,
    pos_label: Any = None,
    costs: Costs | None = None,
    settings: LossSettings | None = None,
    **settings_kwargs: Any,
) -> Any:
    """Make a scikit-learn scorer of the expected loss of a threshold choice method.

    The scorer ``scorer(estimator, X, y)`` scores a fitted classifier by the expected loss of
    ``method`` at certainty ``gamma`` on ``(X, y)``, as
    :func:`~threshold_choice.evaluation.expected_losses` computes it; lower is better, so it
    returns the *negated* loss (``greater_is_better=False``, as scikit-learn's ``neg_*``
    scorers) and ``GridSearchCV`` maximises it. The methods that select on training scores
    (train-optimal, train-optimal-aware) take them from a fitted
    :class:`~threshold_choice.estimators.ThresholdChoiceClassifier` (or a ``Pipeline``
    ending in one): their scorer refuses any other estimator.

    Parameters
    ----------
    method : str, default="score-driven"
        One of :data:`~threshold_choice.methods.METHODS`.
    gamma : float, default=inf
        The certainty of ``c_hat``, a number >= 0 or ``inf``.
    response_method : str, tuple of str or None, default=None
        Where the scores come from, as scikit-learn's ``response_method``; ``None``:
        ``"predict_proba"`` for the methods that read probabilities, else
        ``("predict_proba", "decision_function")``.
    pos_label : object, default=None
        The positive class (class 1); ``None``: the costs', else the scored
        ``ThresholdChoiceClassifier``'s (a different one is refused); labels other than 0/1
        without any are refused (never silently ``classes_[1]``).
    costs : Costs or None, default=None
        Report the loss in their units (:meth:`~threshold_choice.costs.Costs.in_units`);
        their positive class, if named, is ``pos_label``, and their ``belief``, if any, the
        cost distribution averaged over (e.g. :meth:`Costs.from_ratio_range
        <threshold_choice.costs.Costs.from_ratio_range>`).
    settings : LossSettings, Mapping or None, default=None
        The estimator and the operating conditions
        (:class:`~threshold_choice.evaluation.LossSettings`, or a mapping of its fields);
        ``None``: ``LossSettings()``.
    **settings_kwargs : dict
        :class:`~threshold_choice.evaluation.LossSettings` fields replacing those of
        ``settings`` (``estimator="grid"``, ``cost_distribution="beta:2,2"``, ...).

    Returns
    -------
    callable
        A scorer ``(estimator, X, y) -> -expected loss``: scikit-learn's (built with
        ``make_scorer``), or a ``TrainingScoresScorer`` for the methods on training scores.

    Raises
    ------
    UserError
        For an unknown method, a negative gamma, an unknown setting or invalid settings, or
        costs naming another positive class.

    See Also
    --------
    threshold_choice.expected_losses : The same losses from labels and scores.
    make_metric_scorer : A scorer of a metric.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import cross_val_score
    >>> from threshold_choice import make_expected_loss_scorer
    >>> X, y = make_classification(n_samples=200, n_features=4, random_state=0)
    >>> scorer = make_expected_loss_scorer("score-driven", gamma=1.0)
    >>> model = LogisticRegression().fit(X[:100], y[:100])
    >>> round(scorer(model, X[100:], y[100:]), 3)  # minus the expected loss
    -0.073
    >>> cross_val_score(LogisticRegression(), X, y, cv=3, scoring=scorer).round(2).tolist()
    [-0.08, -0.04, -0.08]
    """
    check_method(method)
    gamma = parse_gamma(gamma)
    chosen = loss_settings(settings, **settings_kwargs)
    if costs is not None:
        pos_label = costs.check_pos_label(pos_label, "the scorer")
        with_belief(chosen, costs)  # a conflict of beliefs fails here, not in each fold
    if response_method is None:
        response_method = _PROBA if needs_probabilities(method) else _ANY
    if method in NEEDS_TRAIN:
        return TrainingScoresScorer(method, gamma, chosen, response_method, pos_label, costs)
    kwargs: dict[str, Any] = {"method": method, "gamma": gamma, "settings": chosen}
    if costs is not None:
        kwargs["costs"] = costs
    if pos_label is not None:
        kwargs["pos_label"] = pos_label
    return _pos_label_scorer(make_scorer(
        expected_loss_score, response_method=response_method, greater_is_better=False, **kwargs
    ))


class ThresholdChoiceScorer:
    """Scorer ``(estimator, X, y) -> -expected loss`` of a fitted
    :class:`~threshold_choice.estimators.ThresholdChoiceClassifier`'s own threshold choice
    (its ``method``, its ``gamma``, its fixed threshold or rate) when deployed with ``c_hat``
    of certainty ``gamma`` under a belief about ``c``. Build it with
    :func:`make_threshold_choice_scorer`."""

    def __init__(self, gamma: float | None, settings: LossSettings, costs: Costs | None,
                 explicit_belief: bool) -> None:
        self.gamma = gamma
        self.settings = settings
        self.costs = costs
        self.explicit_belief = explicit_belief

    def evaluation(self, clf: Any) -> tuple[float, float, LossSettings]:
        """The certainty the classifier assumes, the certainty evaluated and the settings of
        the evaluation of ``clf`` (its belief unless the scorer has its own; its fixed
        threshold and rate)."""
        assumed = parse_gamma(clf.gamma)
        evaluated = assumed if self.gamma is None else self.gamma
        settings = self.settings
        if not self.explicit_belief:
            settings = replace(settings, cost_distribution=clf.belief())
        # the fixed methods' threshold and rate: the classifier's (by default its belief's
        # mean), not the evaluated belief's
        mean = clf.belief().mean
        settings = replace(
            settings,
            fixed_threshold=mean if clf.fixed_threshold is None else clf.fixed_threshold,
            fixed_rate=mean if clf.fixed_rate is None else clf.fixed_rate)
        return assumed, evaluated, settings

    def __call__(self, estimator: Any, X: Any, y_true: ArrayLike) -> float:
        clf = find_threshold_classifier(estimator)
        if clf is None:
            raise UserError(
                "make_threshold_choice_scorer scores a fitted ThresholdChoiceClassifier (or a "
                "Pipeline ending in one) by its own method; for another estimator use "
                "make_expected_loss_scorer(method)"
            )
        if self.costs is not None:
            self.costs.check_pos_label(clf.pos_label_, "the classifier")
        assumed, evaluated, settings = self.evaluation(clf)
        scores, _ = response_scores(estimator, X, clf.response_method, clf.pos_label_)
        y01 = binary_labels(y_true, clf.pos_label_)
        method = clf.method
        if method in GAMMA_AWARE and assumed != evaluated:
            loss = _aware_at_another_gamma(method, assumed, evaluated, y01, scores, clf, settings)
        else:
            frame = expected_losses(y01, scores, train_y=clf.train_labels_,
                                    train_s=clf.train_scores_, methods=[method],
                                    gammas=[evaluated], settings=settings)
            loss = float(frame["expected_loss"].iloc[0])
        return -(loss if self.costs is None else float(self.costs.in_units(loss)))

    def __repr__(self) -> str:
        return (f"make_threshold_choice_scorer(gamma={self.gamma!r}, "
                f"settings={self.settings!r}, costs={self.costs!r})")


def _aware_at_another_gamma(method: str, assumed: float, evaluated: float, y01: Any,
                            scores: Any, clf: Any, settings: LossSettings) -> float:
    """The expected loss at ``evaluated`` of an aware method that assumes ``assumed`` (the
    engine evaluates an aware method at the certainty it assumes)."""
    test = CostLines.from_scores(y01, scores, what="test scores").with_prior(settings.prior)
    train = CostLines.from_scores(clf.train_labels_, clf.train_scores_,
                                  what="training scores").with_prior(settings.prior)
    sel = make_selection(method, test, train=train, gamma=assumed,
                         **settings.selection_options())
    return float(expected_loss(sel, evaluated, estimator=settings.estimator,
                               grid_size=settings.grid_size, seed=settings.seed,
                               distribution=settings.distribution))


def make_threshold_choice_scorer(
    gamma: float | None = None,
    *,
    costs: Costs | None = None,
    settings: LossSettings | None = None,
    **settings_kwargs: Any,
) -> ThresholdChoiceScorer:
    """Make a scorer of a threshold classifier's own threshold choice, under a belief.

    ``scorer(estimator, X, y)`` scores a fitted
    :class:`~threshold_choice.estimators.ThresholdChoiceClassifier` (or a ``Pipeline``
    ending in one) by the expected loss, on ``(X, y)``, of *its* method as it would be
    deployed: its ``method`` and fixed threshold or rate, its training scores, the
    certainty ``gamma`` it assumes (the aware methods), given ``c_hat`` of certainty
    ``gamma`` around a true ``c`` drawn from the belief. So ``GridSearchCV`` over the
    classifier's ``method``, ``gamma`` or its model's parameters picks what is best under
    the belief (:func:`make_expected_loss_scorer` instead scores one fixed method, whatever
    the estimator's). Negated, as scikit-learn's ``neg_*`` scorers.

    Parameters
    ----------
    gamma : float or None, default=None
        The certainty of the ``c_hat`` the deployed classifier will be given, a number >= 0
        or ``inf``; ``None``: the scored classifier's ``gamma`` (then each candidate of a
        search over ``gamma`` is scored at its own: give the world's certainty instead).
    costs : Costs or None, default=None
        The costs: the loss in their units, their positive class (the classifier's must
        agree) and their ``belief``, if any, as the belief.
    settings : LossSettings, Mapping or None, default=None
        The estimator and the operating conditions; a ``cost_distribution`` other than the
        uniform is the belief. Without a belief here or in ``costs``: the classifier's own
        (:meth:`~threshold_choice.estimators.ThresholdChoiceClassifier.belief`, from its
        ``cost_proportion``).
    **settings_kwargs : dict
        :class:`~threshold_choice.evaluation.LossSettings` fields replacing those of
        ``settings``.

    Returns
    -------
    ThresholdChoiceScorer
        A scorer ``(estimator, X, y) -> -expected loss``.

    Raises
    ------
    UserError
        For a negative gamma, invalid settings or two beliefs; when called, for an estimator
        that is no fitted ``ThresholdChoiceClassifier`` or costs naming another positive
        class.

    See Also
    --------
    make_expected_loss_scorer : The expected loss of one given method.
    threshold_choice.plotting.CertaintyDisplay : The same losses against ``gamma``.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import GridSearchCV
    >>> from threshold_choice import (Costs, ThresholdChoiceClassifier,
    ...                               make_threshold_choice_scorer)
    >>> X, y = make_classification(n_samples=300, weights=[0.7], random_state=0)
    >>> costs = Costs.from_ratio_range(3, 10)  # a false negative costs 3 to 10 times more
    >>> search = GridSearchCV(
    ...     ThresholdChoiceClassifier(LogisticRegression(), cost_proportion=costs),
    ...     {"method": ["score-driven", "score-fixed", "rate-driven"]},
    ...     scoring=make_threshold_choice_scorer(gamma=10, costs=costs)).fit(X, y)
    >>> search.best_params_  # one threshold at the belief's mean beats following c_hat
    {'method': 'score-fixed'}
    >>> (-search.cv_results_["mean_test_score"]).round(3).tolist()  # cost per example
    [0.24, 0.229, 0.485]
    """
    chosen = loss_settings(settings, **settings_kwargs)
    explicit = not chosen.distribution.is_standard_uniform
    if costs is not None:
        explicit = explicit or costs.belief is not None
        chosen = with_belief(chosen, costs)
    return ThresholdChoiceScorer(None if gamma is None else parse_gamma(gamma), chosen, costs,
                                 explicit)


def make_metric_scorer(
    metric: str = "BS",
    *,
    response_method: str | tuple[str, ...] | None = None,
    pos_label: Any = None,
) -> Any:
    """Make a scikit-learn scorer of a metric of :func:`~threshold_choice.compute_metrics`.

    The scorer is negated unless higher is better (``HIGHER_IS_BETTER``: AUC, H), as
    scikit-learn's ``neg_*`` scorers, so that ``GridSearchCV`` maximises it.

    Parameters
    ----------
    metric : str, default="BS"
        One of :data:`~threshold_choice.metrics.METRICS`: ``AUC, BS, MAE, CL, RL, RL_conv,
        LogLoss, pi0, pi1``, or ``H`` (Hand's H-measure).
    response_method : str, tuple of str or None, default=None
        Where the scores come from; ``None``: ``("predict_proba", "decision_function")``
        for the rank metrics (AUC, RL, RL_conv, H), ``"predict_proba"`` for the others.
    pos_label : object, default=None
        The positive class (class 1); ``None``: a scored ``ThresholdChoiceClassifier``'s;
        labels other than 0/1 without any are refused.

    Returns
    -------
    callable
        A scikit-learn scorer ``(estimator, X, y) -> value`` (negated unless higher is
        better).

    Raises
    ------
    UserError
        For an unknown metric.

    See Also
    --------
    make_expected_loss_scorer : A scorer of the expected loss of a method.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.linear_model import LogisticRegression
    >>> from threshold_choice import make_metric_scorer
    >>> X, y = make_classification(n_samples=200, n_features=4, random_state=0)
    >>> model = LogisticRegression().fit(X[:100], y[:100])
    >>> round(make_metric_scorer("AUC")(model, X[100:], y[100:]), 2)
    0.98
    >>> round(make_metric_scorer("BS")(model, X[100:], y[100:]), 3)  # minus the Brier score
    -0.044
    """
    known = (*METRICS, "H")  # compute_metrics gives Hand's H-measure beside the table's
    if metric not in known:
        raise UserError(f"unknown metric {metric!r}; choose from {', '.join(known)}")
    if response_method is None:
        response_method = _ANY if metric in RANK_METRICS else _PROBA
    kwargs: dict[str, Any] = {"metric": metric}
    if pos_label is not None:
        kwargs["pos_label"] = pos_label
    return _pos_label_scorer(make_scorer(
        metric_score,
        response_method=response_method,
        greater_is_better=metric in HIGHER_IS_BETTER,
        **kwargs,
    ))


def make_cost_scorer(cost_proportion: float | Costs | None = None, *,
                     costs: Costs | None = None, pos_label: Any = None) -> Any:
    """Make a scikit-learn scorer of the loss of predicted labels at a known cost.

    The loss of the labels the estimator predicts, ``Q = 2 (c #FP + (1 - c) #FN) / n``
    (class 1 = ``pos_label``), or with :class:`~threshold_choice.costs.Costs` the cost per
    example in their units ``(C_FP #FP + C_FN #FN) / n``; negated. The objective for
    ``TunedThresholdClassifierCV(scoring=...)`` that train-optimal minimises on the
    training data at ``gamma = inf``.

    Parameters
    ----------
    cost_proportion : float or Costs, default=None
        The cost proportion ``c`` of an error on class 0, in [0, 1], or the costs in the
        user's units.
    costs : Costs or None, default=None
        The costs in the user's units, under the name every other function gives them
        (instead of ``cost_proportion``).
    pos_label : object, default=None
        The positive class (class 1); ``None``: the costs' if they name one, else a scored
        ``ThresholdChoiceClassifier``'s; labels other than 0/1 without any are refused.

    Returns
    -------
    callable
        A scikit-learn scorer ``(estimator, X, y) -> -loss`` on ``estimator.predict(X)``.

    Raises
    ------
    UserError
        For a cost proportion outside [0, 1] or costs naming another positive class.

    See Also
    --------
    make_expected_loss_scorer : The expected loss under an uncertain cost.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.linear_model import LogisticRegression
    >>> from threshold_choice import Costs, make_cost_scorer
    >>> X, y = make_classification(n_samples=200, n_features=4, random_state=0)
    >>> model = LogisticRegression().fit(X[:100], y[:100])
    >>> round(make_cost_scorer(0.2)(model, X[100:], y[100:]), 3)  # 2 (0.2 #FP + 0.8 #FN) / n
    -0.056
    >>> round(make_cost_scorer(costs=Costs(1, 4))(model, X[100:], y[100:]), 3)  # in units
    -0.14
    """
    if (cost_proportion is None) == (costs is None):
        raise UserError("give the cost proportion or costs=Costs(...), one of them")
    if costs is not None:
        if not isinstance(costs, Costs):
            raise UserError(f"costs must be a threshold_choice.Costs (a cost proportion goes "
                            f"in cost_proportion), got {type(costs).__name__}")
        cost_proportion = costs
    if isinstance(cost_proportion, Costs):
        pos_label = cost_proportion.check_pos_label(pos_label, "the scorer")
        kwargs: dict[str, Any] = {"cost_proportion": cost_proportion}
    else:
        kwargs = {"cost_proportion": float(check_cost_proportion(cost_proportion))}
    if pos_label is not None:
        kwargs["pos_label"] = pos_label
    return _pos_label_scorer(
        make_scorer(cost_loss, response_method="predict", greater_is_better=False, **kwargs))


__all__ = [
    "HIGHER_IS_BETTER",
    "METHODS",
    "ThresholdChoiceScorer",
    "TrainingScoresScorer",
    "binary_labels",
    "cost_loss",
    "expected_loss_score",
    "loss_settings",
    "make_cost_scorer",
    "make_expected_loss_scorer",
    "make_metric_scorer",
    "make_threshold_choice_scorer",
    "metric_score",
]
