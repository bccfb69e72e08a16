"""A scikit-learn meta-estimator that sets its threshold from an uncertain cost proportion.

:class:`ThresholdChoiceClassifier` wraps any binary classifier with ``predict_proba`` or
``decision_function`` (in the style of scikit-learn's ``FixedThresholdClassifier``). ``fit``
fits the classifier and keeps what the threshold choice method needs from the training
set: its labels and the classifier's scores on it (the cost lines of train-optimal, the score
ranks of rate-driven). ``predict(X, cost_proportion=c_hat)`` then turns the presumed cost
proportion ``c_hat`` into a threshold with the method and applies it.

Conventions (the package's): the *positive* class ``pos_label`` (default ``classes_[1]``) is
class 1, whose probability the score estimates; a threshold ``t`` predicts class 1 iff
``score > t``; ``c`` is the cost proportion of class-0 errors, so the loss of ``t`` at ``c``
is ``Q(t; c) = 2 (c pi0 FP0(t) + (1 - c) pi1 FN1(t))`` and a larger ``c`` gives a larger
threshold (fewer class-1 predictions).

The methods a deployed classifier can apply (it does not know the labels of what it predicts):

``train-optimal``
    the threshold of the lowest *training* cost line at ``c_hat`` (Sect. 3 of the paper);
``score-driven``
    ``t = c_hat`` (needs probabilities: ``predict_proba``);
``rate-driven``
    predicts class 0 for a fraction ``c_hat`` of the *reference* scores (the training scores,
    or out-of-fold scores with ``cv``). Where ``c_hat`` falls between two attainable rates the
    paper mixes the two adjacent thresholds; a deterministic classifier takes the threshold of
    the nearer rate (the mixture's expected loss is what :func:`~threshold_choice.evaluation.
    expected_losses` and the scorers report);
``score-driven-z``, ``rate-driven-z``
    the same driven by the skew ``z = c pi0 / (c pi0 + (1 - c) pi1)`` (training ``pi0``);
``train-optimal-aware``, ``score-driven-aware``
    the uncertainty-aware variants: knowing the certainty ``gamma`` of ``c_hat``, they use the
    posterior mean ``E[c | c_hat]`` instead of ``c_hat`` (see
    :func:`threshold_choice.methods.uncertainty_aware`);
``score-fixed``, ``rate-fixed``
    one threshold (``fixed_threshold``) or one predicted-0 rate of the reference scores
    (``fixed_rate``) whatever ``c_hat`` (paper ``000_...``, Definitions 4 and 7): the
    baselines a fixed deployment is, so that they can be compared with the methods above.

``test-optimal`` needs the labels of the examples it predicts and ``score-uniform`` /
``rate-uniform`` ignore ``c_hat``: they are evaluation baselines, not classifiers, and are
rejected here (the scorers of :mod:`threshold_choice.scorers` evaluate them).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray
from sklearn.base import BaseEstimator, ClassifierMixin, MetaEstimatorMixin, clone
from sklearn.model_selection import cross_val_predict
from sklearn.utils import get_tags
from sklearn.utils.metaestimators import available_if
from sklearn.utils.multiclass import type_of_target
from sklearn.utils.validation import check_is_fitted, column_or_1d

from threshold_choice.cost_distributions import CostDistribution
from threshold_choice.costlines import CostLines
from threshold_choice.costs import Costs
from threshold_choice.errors import UserError
from threshold_choice.methods import (
    METHODS,
    PREDICTABLE,
    Selection,
    SelectionOptions,
    make_selection,
    method_spec,
)
from threshold_choice.methods.builders import check_unit
from threshold_choice.uncertainty import parse_gamma

#: the methods :class:`ThresholdChoiceClassifier` can apply when predicting (a live view of
#: the method records whose ``predict`` is set)
PREDICT_METHODS = PREDICTABLE
RESPONSE_METHODS: tuple[str, ...] = ("auto", "predict_proba", "decision_function")


def needs_probabilities(method: str) -> bool:
    """Whether ``method`` thresholds at a cost proportion itself (the score-based methods),
    so that its scores must be probabilities of class 1; the others use only score ranks."""
    return method_spec(method).reads_probabilities


def _candidate_methods(response_method: str | Sequence[str]) -> list[str]:
    if isinstance(response_method, str):
        if response_method not in RESPONSE_METHODS:
            raise UserError(
                f"response_method must be one of {', '.join(RESPONSE_METHODS)}, "
                f"got {response_method!r}"
            )
        if response_method == "auto":
            return ["predict_proba", "decision_function"]
        return [response_method]
    return list(response_method)


def response_scores(
    estimator: Any,
    X: Any,
    response_method: str | Sequence[str] = "auto",
    pos_label: Any = None,
) -> tuple[NDArray[np.float64], str]:
    """Scores of a fitted binary classifier for the positive class, and the method used.

    ``response_method``: ``"predict_proba"`` (the probability of ``pos_label``),
    ``"decision_function"`` (sign-flipped when ``pos_label`` is ``classes_[0]``), ``"auto"``
    (the first of the two the estimator has), or a list tried in order, as scikit-learn's
    ``response_method``. ``pos_label``: default ``classes_[1]``. Of a fitted
    :class:`ThresholdChoiceClassifier` (or a Pipeline ending in one), the scores its
    threshold applies to: those of its inner model (its own ``decision_function`` is the
    distance to the threshold).
    """
    clf = find_threshold_classifier(estimator)
    if clf is not None:
        if clf is not estimator:  # the steps before it
            X = estimator[:-1].transform(X)
        estimator = clf.estimator_
    classes = np.asarray(estimator.classes_)
    if classes.size != 2:
        raise UserError(
            f"a binary classifier is needed; this one has {classes.size} classes {classes[:5]}"
        )
    pos = classes[1] if pos_label is None else pos_label
    if pos not in classes:
        raise UserError(
            f"pos_label {pos!r} is not one of the classes {np.asarray(classes).tolist()}"
        )
    col = int(np.flatnonzero(classes == pos)[0])
    for name in _candidate_methods(response_method):
        fn = getattr(estimator, name, None)
        if fn is None:
            continue
        out = np.asarray(fn(X), dtype=np.float64)
        if name == "predict_proba":
            return out[:, col], name
        out = out.ravel()
        return (out if col == 1 else -out), name
    raise UserError(
        f"{type(estimator).__name__} has none of {', '.join(_candidate_methods(response_method))}"
        "; a threshold needs scores (wrap the model in CalibratedClassifierCV for probabilities)"
    )


def check_method(method: str, *, allowed: Sequence[str] = METHODS) -> str:
    """``method`` if it is one of ``allowed``, else a :class:`UserError` saying why not (a
    registered method's ``not_predictable``)."""
    if method in allowed:
        return method
    if method in METHODS:
        raise UserError(f"method {method} {method_spec(method).not_predictable}; choose from "
                        f"{', '.join(allowed)}")
    raise UserError(f"unknown method {method!r}; choose from {', '.join(allowed)}")


def check_cost_proportion(c: ArrayLike | Costs | CostDistribution) -> NDArray[np.float64]:
    """``c`` as a float array after checking that it lies in [0, 1]; :class:`Costs` give
    their cost proportion, a belief (:class:`CostDistribution`) its mean (the threshold
    that minimises the expected cost under it: a cost is linear in ``c``)."""
    if isinstance(c, Costs):
        return np.asarray(c.cost_proportion)
    if isinstance(c, CostDistribution):
        return np.asarray(c.mean)
    try:
        arr = np.asarray(c, dtype=np.float64)
    except (TypeError, ValueError):
        raise UserError(f"cost_proportion must be a number in [0, 1], got {c!r}") from None
    if arr.ndim > 1:
        raise UserError(f"cost_proportion must be a number or one per row (1-D), got an "
                        f"array of shape {arr.shape}")
    if arr.size == 0 or not np.all((arr >= 0) & (arr <= 1)):
        raise UserError(f"cost_proportion must be in [0, 1] (not NaN), got {c!r}")
    return arr


def _step_lines(sel: Selection, lines: CostLines) -> NDArray[np.intp]:
    """For a selection of whole cost lines of ``lines`` (no interpolation), the index of the
    line chosen on each segment. A line's ends give the number of examples it predicts 0,
    ``n0 + n (left - right) / 2``, which increases strictly with the line index."""
    left, right = sel.coef[:, 0], sel.coef[:, 0] + sel.coef[:, 1]
    below = np.rint(lines.n0 + lines.n * (left - right) / 2.0)
    j = np.searchsorted(lines.n0_le + lines.n1_le, below)
    if not np.allclose(lines.left[j], left, rtol=0, atol=1e-12):
        raise AssertionError("the selection chose lines that are not the reference lines")
    return j


def _estimator_has(name: str):
    def check(self: ThresholdChoiceClassifier) -> bool:
        inner = getattr(self, "estimator_", self.estimator)
        return hasattr(inner, name)

    return check


class ThresholdChoiceClassifier(ClassifierMixin, MetaEstimatorMixin, BaseEstimator):
    """Binary classifier whose threshold is set by a threshold choice method from ``c_hat``.

    ``fit`` fits the wrapped classifier and keeps the reference scores the method needs;
    ``predict(X, cost_proportion=c_hat)`` turns the presumed cost proportion ``c_hat`` (of an
    error on class 0) into a threshold with the method and predicts ``pos_label`` (class 1)
    iff ``score > threshold``; a larger ``c_hat`` gives a larger threshold. Only the methods
    a deployed classifier can apply are accepted (see the module docstring).

    Parameters
    ----------
    estimator : object
        A binary classifier with ``predict_proba`` or ``decision_function``; cloned and
        fitted by :meth:`fit`.
    method : str, default="train-optimal"
        One of ``PREDICT_METHODS``: train-optimal, score-driven, rate-driven,
        score-driven-z, rate-driven-z, train-optimal-aware, score-driven-aware, score-fixed,
        rate-fixed (and the registered methods that can predict).
    gamma : float, default=inf
        Certainty of ``c_hat``, ``c_hat | c ~ Beta(gamma c + 1, gamma (1 - c) + 1)``; used by
        the ``*-aware`` methods only (``inf``: ``c_hat = c``, the plain method).
    cost_proportion : float, Costs or CostDistribution, default=0.5
        The ``c_hat`` :meth:`predict` uses when it is not given one:
        :class:`~threshold_choice.costs.Costs` in the user's terms (their cost proportion;
        their positive class, if they name one, must be ``pos_label``'s), or a belief about
        ``c`` (:class:`~threshold_choice.cost_distributions.CostDistribution`, e.g. from
        :func:`~threshold_choice.beta_from_interval`), whose mean it takes: under a belief
        the expected cost of a threshold is its cost at the mean ``c``. A
        :func:`~threshold_choice.scorers.make_threshold_choice_scorer` without a belief of
        its own averages over this one (or over the costs' ``belief``).
    response_method : {"auto", "predict_proba", "decision_function"}, default="auto"
        ``"auto"``: ``predict_proba``, else ``decision_function``. The score-based methods
        need probabilities.
    pos_label : object, default=None
        The class whose probability the score estimates (class 1); ``None``: the one the
        ``cost_proportion`` costs name, else ``classes_[1]`` (with a warning when the labels
        are not 0/1).
    cv : "auto", int, cross-validation splitter or None, default="auto"
        Where the reference scores (training cost lines, rate ranks) come from. ``"auto"``:
        out-of-fold scores of 5-fold cross-validation (``cross_val_predict``), which do not
        share the optimism of resubstitution (a tree's or a boosted model's scores on its
        own training data are near 0 and 1, and train-optimal's thresholds then do not move
        with ``c``), at the cost of fitting the classifier 5 more times; when a class has
        fewer than 5 examples, the training scores, with a warning. An int or a
        scikit-learn splitter: those folds. ``None``: the fitted classifier's scores on its
        own training data, as in the paper. The classifier is fitted on all of ``X``
        either way.
    fixed_threshold : float or None, default=None
        Score-fixed's threshold, used whatever the cost proportion; ``None``: the mean of
        the belief about ``c`` (:meth:`belief`; 1/2 for the uniform). scikit-learn's
        ``FixedThresholdClassifier`` does the same for a given threshold; this one is
        evaluated as the other methods are.
    fixed_rate : float or None, default=None
        Rate-fixed's predicted-0 rate (the nearest the reference scores attain), used
        whatever the cost proportion; ``None``: the mean of the belief (1/2 for the
        uniform).

    Attributes
    ----------
    estimator_ : object
        The fitted classifier.
    train_labels_ : ndarray of shape (n_samples,)
        The reference labels, 0/1 (1 = ``pos_label_``).
    train_scores_ : ndarray of shape (n_samples,)
        The reference scores.
    train_lines_ : CostLines
        Their :class:`~threshold_choice.costlines.CostLines`.
    classes_ : ndarray of shape (2,)
        The class labels (of ``estimator_``).
    pos_label_ : object
        The positive class used (class 1).
    n_features_in_ : int
        The number of features seen by ``fit`` (when the classifier has it).
    feature_names_in_ : ndarray of str
        The names of the features seen by ``fit`` (when the classifier has them).

    See Also
    --------
    threshold_choice.make_expected_loss_scorer : Scores the expected loss of a method.
    threshold_choice.plotting.CostCurveDisplay : Its cost curves, ``from_estimator``.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.linear_model import LogisticRegression
    >>> from threshold_choice import Costs, ThresholdChoiceClassifier
    >>> X, y = make_classification(n_samples=200, n_features=4, random_state=0)
    >>> clf = ThresholdChoiceClassifier(LogisticRegression(), method="train-optimal")
    >>> clf = clf.fit(X[:100], y[:100])
    >>> clf.threshold([0.1, 0.9]).round(2).tolist()  # class 1 iff score > threshold
    [0.42, 0.77]
    >>> clf.predict(X[100:108]).tolist()  # at the default c_hat = 0.5
    [1, 0, 1, 0, 0, 1, 1, 0]
    >>> clf.predict(X[100:108], cost_proportion=0.9).tolist()  # errors on class 0 dearer
    [1, 0, 0, 0, 0, 1, 1, 0]
    >>> clf.predict(X[100:108], cost_proportion=Costs(false_positive=9, false_negative=1)
    ...             ).tolist()  # the same c = 0.9, from the costs
    [1, 0, 0, 0, 0, 1, 1, 0]
    """

    def __init__(
        self,
        estimator: Any,
        *,
        method: str = "train-optimal",
        gamma: float = math.inf,
        cost_proportion: float | Costs | CostDistribution = 0.5,
        response_method: str = "auto",
        pos_label: Any = None,
        cv: Any = "auto",
        fixed_threshold: float | None = None,
        fixed_rate: float | None = None,
    ) -> None:
        self.estimator = estimator
        self.method = method
        self.gamma = gamma
        self.cost_proportion = cost_proportion
        self.response_method = response_method
        self.pos_label = pos_label
        self.cv = cv
        self.fixed_threshold = fixed_threshold
        self.fixed_rate = fixed_rate

    # -- fitting ---------------------------------------------------------------------------
    def _check_params(self) -> None:
        check_method(self.method, allowed=PREDICT_METHODS)
        check_cost_proportion(self.cost_proportion)
        if not isinstance(self.response_method, str):
            raise UserError(f"response_method must be one of {', '.join(RESPONSE_METHODS)}")
        _candidate_methods(self.response_method)
        parse_gamma(self.gamma)
        self._options()  # checks the fixed threshold and rate

    def _options(self) -> SelectionOptions:
        for name in ("fixed_threshold", "fixed_rate"):
            if getattr(self, name) is not None:
                check_unit(name, getattr(self, name))
        return SelectionOptions(gamma=parse_gamma(self.gamma), distribution=self.belief(),
                                fixed_threshold=self.fixed_threshold, fixed_rate=self.fixed_rate)

    def belief(self) -> CostDistribution:
        """The belief about ``c`` of the ``cost_proportion`` parameter: itself when it is a
        :class:`~threshold_choice.cost_distributions.CostDistribution`, the ``belief`` of
        :class:`~threshold_choice.costs.Costs` that carry one, else the uniform (the
        paper's). The aware methods' posterior mean and the fixed methods' default
        threshold and rate (its mean) take it.

        Returns
        -------
        CostDistribution
            The belief.
        """
        c = self.cost_proportion
        if isinstance(c, CostDistribution):
            return c
        if isinstance(c, Costs) and c.belief is not None:
            return c.belief
        return CostDistribution()

    def fit(self, X: Any, y: ArrayLike, **fit_params: Any) -> ThresholdChoiceClassifier:
        """Fit the classifier and keep the reference scores the method needs.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The training data.
        y : array-like of shape (n_samples,)
            The training labels, two classes.
        **fit_params : dict
            Passed to the classifier's ``fit`` (and to ``cross_val_predict`` with ``cv``);
            ``sample_weight`` other than None is refused (the cost lines count examples).

        Returns
        -------
        ThresholdChoiceClassifier
            ``self``, fitted.

        Raises
        ------
        UserError
            For invalid parameters, labels that are not two classes, a ``pos_label`` that
            is not a class, an estimator that is not a classifier, or a score-based method
            without ``predict_proba``.
        """
        self._check_params()
        # sample_weight=None is no weighting (meta-estimators such as VotingClassifier pass it)
        if fit_params.get("sample_weight", None) is not None:
            raise UserError(
                "sample_weight is not supported: the reference cost lines count examples "
                "(repeat rows to weight them)"
            )
        fit_params.pop("sample_weight", None)
        y = column_or_1d(y, warn=True)
        y_type = type_of_target(y, input_name="y", raise_unknown=True)
        if y_type != "binary":
            raise UserError(
                f"Only binary classification is supported; y is {y_type} (two classes needed)"
            )
        if np.unique(y).size < 2:
            raise UserError(
                "y has one class only; the cost lines need examples of both classes"
            )
        pos = self._positive_class()  # before fitting: conflicting positive classes fail fast
        self.estimator_ = clone(self.estimator).fit(X, y, **fit_params)
        classes = getattr(self.estimator_, "classes_", None)
        if classes is None:  # a regressor, a clusterer...
            raise UserError(
                f"{type(self.estimator_).__name__} is not a classifier (no classes_ after "
                "fit): give a scikit-learn classifier, e.g. LogisticRegression()"
            )
        if pos is not None and pos not in list(classes):
            raise UserError(f"pos_label {pos!r} is not one of the classes {classes.tolist()}")
        if pos is None:
            warn_implicit_pos_label(classes)
            pos = classes[1]
        self.pos_label_ = pos
        cv = self._effective_cv(y)
        if cv is None:
            scores, used = response_scores(self.estimator_, X, self.response_method, pos)
        else:
            scores, used = self._out_of_fold_scores(X, y, fit_params, cv)
        if needs_probabilities(self.method) and used != "predict_proba":
            raise UserError(
                f"{self.method} thresholds at the cost proportion, so it needs probabilities: "
                f"{type(self.estimator_).__name__} has no predict_proba (wrap it in "
                "CalibratedClassifierCV, or use train-optimal or rate-driven)"
            )
        self.train_labels_ = (np.asarray(y) == pos).astype(np.int8)
        self.train_scores_ = scores
        self.train_lines_ = CostLines.from_scores(
            self.train_labels_, scores, what="training scores"
        )
        if hasattr(self.estimator_, "n_features_in_"):
            self.n_features_in_ = self.estimator_.n_features_in_
        if hasattr(self.estimator_, "feature_names_in_"):
            self.feature_names_in_ = self.estimator_.feature_names_in_
        return self

    def _positive_class(self) -> Any:
        """``pos_label``, or the class the ``cost_proportion`` costs call positive (they
        must agree)."""
        if isinstance(self.cost_proportion, Costs):
            return self.cost_proportion.check_pos_label(self.pos_label, "the classifier")
        return self.pos_label

    def _effective_cv(self, y: ArrayLike) -> Any:
        """``cv`` with ``"auto"`` resolved (see the class docstring)."""
        if not (isinstance(self.cv, str) and self.cv == "auto"):
            return self.cv
        _, counts = np.unique(np.asarray(y), return_counts=True)
        if counts.min() >= AUTO_FOLDS:
            return AUTO_FOLDS
        warnings.warn(
            f"cv='auto': a class has {counts.min()} examples, fewer than {AUTO_FOLDS} folds, so "
            "the reference scores are the classifier's scores on its own training data "
            "(optimistic); give more examples, a cv of your own, or cv=None to say so",
            UserWarning, stacklevel=3)
        return None

    def _out_of_fold_scores(
        self, X: Any, y: ArrayLike, fit_params: dict, cv: Any
    ) -> tuple[NDArray[np.float64], str]:
        used = None
        for name in _candidate_methods(self.response_method):
            if hasattr(self.estimator_, name):
                used = name
                break
        if used is None:  # response_scores raises the message
            response_scores(self.estimator_, X, self.response_method, self.pos_label_)
        out = cross_val_predict(
            clone(self.estimator), X, y, cv=cv, method=used, params=fit_params or None
        )
        classes = self.estimator_.classes_
        col = int(np.flatnonzero(classes == self.pos_label_)[0])
        if used == "predict_proba":
            return np.asarray(out[:, col], dtype=np.float64), used
        out = np.asarray(out, dtype=np.float64).ravel()
        return (out if col == 1 else -out), str(used)

    @property
    def classes_(self) -> NDArray:
        """The class labels of the fitted classifier."""
        return self.estimator_.classes_

    # -- thresholds ------------------------------------------------------------------------
    def _selection(self) -> Selection:
        # e.g. train-optimal on the training lines is test-optimal's choice among them
        spec = method_spec(self.method)
        return make_selection(spec.selection_for_predict, self.train_lines_,
                              gamma=parse_gamma(self.gamma), distribution=self.belief())

    def threshold(self, cost_proportion: ArrayLike | Costs | None = None) -> NDArray[np.float64]:
        """Return the threshold the method sets for each presumed cost proportion.

        Parameters
        ----------
        cost_proportion : float, array-like of float or Costs, default=None
            Presumed cost proportions ``c_hat`` in [0, 1], or
            :class:`~threshold_choice.costs.Costs` naming this classifier's positive class
            or none; ``None``: the ``cost_proportion`` parameter.

        Returns
        -------
        ndarray
            The thresholds, in the shape of ``cost_proportion``: class 1 is predicted iff
            ``score > threshold``; ``-inf`` / ``inf``: everything predicted 1 / 0.

        Raises
        ------
        UserError
            For a cost proportion outside [0, 1] or costs naming another positive class.
        """
        check_is_fitted(self, "train_lines_")
        if isinstance(cost_proportion, Costs):
            cost_proportion.check_pos_label(self.pos_label_, "the fitted classifier")
        c_hat = check_cost_proportion(
            self.cost_proportion if cost_proportion is None else cost_proportion
        )
        shape = c_hat.shape
        c_hat = c_hat.ravel()  # the input maps work on 1-d arrays
        sel = self._selection()
        lines = self.train_lines_
        spec = method_spec(self.method)
        if spec.fixed_input is not None:  # score-fixed, rate-fixed: one input whatever c_hat
            c_hat = np.full_like(c_hat, spec.fixed_input(self._options()))
        rule = spec.predict
        if rule == "score":
            t = sel.inputs(c_hat)  # t = c_hat, its skew, or its posterior mean
        elif rule == "rate":
            # nearest attainable rate of the reference scores (see the module docstring)
            mids = (lines.rates[:-1] + lines.rates[1:]) / 2.0
            t = lines.thresholds[np.searchsorted(mids, sel.inputs(c_hat), side="right")]
        else:
            t = lines.thresholds[_step_lines(sel, lines)[sel.segment(c_hat)]]
        return t.reshape(shape)

    # -- prediction ------------------------------------------------------------------------
    def _scores(self, X: Any) -> NDArray[np.float64]:
        return response_scores(self.estimator_, X, self.response_method, self.pos_label_)[0]

    def predict(self, X: Any, cost_proportion: ArrayLike | Costs | None = None) -> NDArray:
        """Predict the class labels of ``X`` at a presumed cost proportion.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The examples.
        cost_proportion : float, array-like of float or Costs, default=None
            ``c_hat``: one number, one per row of ``X``, or
            :class:`~threshold_choice.costs.Costs`; ``None``: the ``cost_proportion``
            parameter.

        Returns
        -------
        ndarray of shape (n_samples,)
            ``pos_label_`` where the score exceeds the threshold, the other class elsewhere.

        Raises
        ------
        UserError
            For an invalid cost proportion, or one per row of another length.
        """
        check_is_fitted(self, "train_lines_")
        scores = self._scores(X)
        t = self.threshold(cost_proportion)
        if t.ndim and t.size != scores.size:
            raise UserError(
                f"cost_proportion has {t.size} values for {scores.size} rows; give one or one "
                "per row"
            )
        classes = self.classes_
        pos = self.pos_label_
        neg = classes[classes != pos][0]
        return np.where(scores > t, pos, neg)

    @available_if(_estimator_has("predict_proba"))
    def predict_proba(self, X: Any) -> NDArray[np.float64]:
        """The fitted classifier's ``predict_proba``."""
        check_is_fitted(self, "estimator_")
        return self.estimator_.predict_proba(X)

    @available_if(_estimator_has("predict_log_proba"))
    def predict_log_proba(self, X: Any) -> NDArray[np.float64]:
        """The fitted classifier's ``predict_log_proba``."""
        check_is_fitted(self, "estimator_")
        return self.estimator_.predict_log_proba(X)

    @available_if(_estimator_has("decision_function"))
    def decision_function(self, X: Any) -> NDArray[np.float64]:
        """Signed distance of each score to the method's threshold, positive for ``classes_[1]``.

        scikit-learn's convention: ``decision_function(X) > 0`` predicts ``classes_[1]``, so
        that it agrees with :meth:`predict` at the ``cost_proportion`` parameter (the inner
        model's own ``decision_function`` thresholds at its own 0, not at the method's
        threshold, and for ``classes_[1]`` even when ``pos_label`` is ``classes_[0]``).

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The examples.

        Returns
        -------
        ndarray of shape (n_samples,)
            ``score - threshold`` when ``pos_label_`` is ``classes_[1]``, else ``threshold -
            score`` (moved by one float so that a score on the threshold, predicted
            ``classes_[1]`` then, is positive); the score is that of ``response_method``
            for ``pos_label_``.
        """
        check_is_fitted(self, "train_lines_")
        scores = self._scores(X)
        t = self.threshold()
        if self.pos_label_ == self.classes_[1]:
            return scores - t  # > 0 iff score > t, i.e. pos_label_ predicted
        # classes_[1] is predicted iff score <= t
        return np.nextafter(t, np.inf) - scores

    def _more_tags(self) -> dict[str, Any]:  # scikit-learn < 1.6 reads expected failures here
        return {"_xfail_checks": expected_failed_checks(self)}

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        inner = get_tags(self.estimator).input_tags
        tags.input_tags.sparse = inner.sparse
        tags.input_tags.allow_nan = inner.allow_nan
        return tags


def expected_failed_checks(estimator: ThresholdChoiceClassifier) -> dict[str, str]:
    """The scikit-learn estimator checks ``estimator`` may fail, and why, for
    ``check_estimator(estimator, expected_failed_checks=expected_failed_checks(estimator))``
    (scikit-learn >= 1.6 takes them there; older versions read them from the estimator's
    ``_xfail_checks`` tag, which it declares).

    ``check_classifiers_train`` asks that ``predict`` be the ``argmax`` of ``predict_proba``,
    i.e. a threshold of 1/2 on the probability: a threshold classifier predicts at its
    method's threshold instead (as scikit-learn's own ``FixedThresholdClassifier`` and
    ``TunedThresholdClassifierCV``, which scikit-learn's test suite lists as expected
    failures of that check). Only score-driven (and its aware variant, at ``gamma = inf``)
    at ``c_hat = 1/2`` thresholds at 1/2 exactly; any other method may fail it, as soon as a
    training probability falls between 1/2 and its threshold.

    Parameters
    ----------
    estimator : ThresholdChoiceClassifier
        The (unfitted) classifier.

    Returns
    -------
    dict of str to str
        Check name to reason; empty when the threshold is 1/2.

    Examples
    --------
    >>> from sklearn.linear_model import LogisticRegression
    >>> from threshold_choice import ThresholdChoiceClassifier
    >>> from threshold_choice.estimators import expected_failed_checks
    >>> list(expected_failed_checks(ThresholdChoiceClassifier(LogisticRegression())))
    ['check_classifiers_train']
    >>> expected_failed_checks(ThresholdChoiceClassifier(LogisticRegression(),
    ...                                                  method="score-driven"))
    {}
    """
    try:
        at_half = float(check_cost_proportion(estimator.cost_proportion)) == 0.5
    except (UserError, TypeError):
        at_half = False
    plain = estimator.method == "score-driven" or (
        estimator.method == "score-driven-aware" and estimator.gamma == math.inf)
    if at_half and plain:
        return {}
    return {"check_classifiers_train": "predict thresholds at the method's threshold, not "
            "at probability 1/2 (predict_proba's argmax)"}


#: the folds of ``cv="auto"``
AUTO_FOLDS = 5

#: the label sets already warned about (once per process each)
_WARNED_LABELS: set[tuple[str, ...]] = set()


def warn_implicit_pos_label(classes: ArrayLike) -> None:
    """Warn, once per set of labels, when class labels that are not 0/1 leave the positive
    class to scikit-learn's order (``classes_[1]``): "1:4 costs" then silently refer to
    whichever label sorts last."""
    labels = np.asarray(classes)
    if set(labels.tolist()) <= {0, 1}:
        return
    key = tuple(str(c) for c in labels.tolist())
    if key in _WARNED_LABELS:
        return
    _WARNED_LABELS.add(key)
    warnings.warn(
        f"pos_label not given: the positive class (class 1, whose probability the score "
        f"estimates; c is the cost proportion of errors on the other class) is "
        f"{labels.tolist()[1]!r}, the last of the sorted labels {labels.tolist()}; pass "
        "pos_label= to choose it", UserWarning, stacklevel=3)


def find_threshold_classifier(estimator: Any) -> ThresholdChoiceClassifier | None:
    """``estimator`` itself, or the last step of a Pipeline, when it is a fitted
    :class:`ThresholdChoiceClassifier`; else ``None``."""
    last = estimator
    steps = getattr(estimator, "steps", None)
    if steps:
        last = steps[-1][1]
    if isinstance(last, ThresholdChoiceClassifier) and hasattr(last, "train_lines_"):
        return last
    return None


__all__ = [
    "PREDICT_METHODS",
    "ThresholdChoiceClassifier",
    "check_cost_proportion",
    "expected_failed_checks",
    "find_threshold_classifier",
    "needs_probabilities",
    "response_scores",
]
