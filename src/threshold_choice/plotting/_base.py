"""The Display base class: compute first (``from_predictions`` / ``from_estimator`` build the
numbers and keep them as attributes), plot second (``plot(ax=...)``), as scikit-learn's
``RocCurveDisplay``.

A new kind of plot is a subclass with a ``_compute`` classmethod (scores -> the instance),
``_draw(ax, **kwargs)`` and ``_records()`` (the plotted numbers, for :attr:`data`); it gets
``from_predictions``, ``from_estimator``, ``plot`` and ``data`` from here, and
:func:`save_displays` saves its figure and numbers. The numpydoc Parameters section of its
``_compute`` docstring documents its options, and the Examples section of its class docstring
its use: both go into the docstrings of its ``from_predictions`` and ``from_estimator``.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
import math
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike, NDArray

from threshold_choice import costlines
from threshold_choice._typing import FloatArray
from threshold_choice.costs import Costs
from threshold_choice.errors import UserError
from threshold_choice.evaluation import LossSettings
from threshold_choice.plotting._common import (
    FigureData,
    RunScores,
    check_figure_formats,
    gamma_linestyle,
    gamma_text,
    method_colour,
    save_figure,
)

if TYPE_CHECKING:  # matplotlib is imported by the drawing: computing a display needs none
    from matplotlib.axes import Axes
    from matplotlib.legend import Legend

#: line styles of the methods when one colour is given to a whole display (several models)
_METHOD_STYLES = ("-", "--", ":", "-.", (0, (5, 1, 1, 1)), (0, (1, 3)))
#: line styles of the certainties between inf (solid) and 0 (dashed), most certain first: the
#: first is the paper's dotted, the next ones dash patterns told apart in a legend handle
_GAMMA_STYLES = (":", "-.", (0, (3, 1, 1, 1, 1, 1)), (0, (10, 3)), (0, (1, 4)),
                 (0, (10, 2, 2, 2)), (0, (6, 1, 1, 1, 1, 1, 1, 1)))
#: one colour per model once several share an axes (the CLI's and the library's alike), the
#: first model's too: it is drawn again in the first of these when a second model joins it
MODEL_COLOURS = ("tab:blue", "tab:orange", "tab:green", "tab:purple", "tab:brown", "tab:pink",
                 "tab:olive", "tab:cyan", "navy", "darkgoldenrod", "darkgreen", "indigo",
                 "saddlebrown", "mediumvioletred", "darkolivegreen", "teal")


def model_colour(k: int) -> object:
    """The colour of the ``k``-th model on an axes (from 0): :data:`MODEL_COLOURS`, then hues a
    golden angle apart, so that no two models share one however many there are (the ninth
    was drawn in the first's blue)."""
    if k < len(MODEL_COLOURS):
        return MODEL_COLOURS[k]
    from matplotlib.colors import hsv_to_rgb

    return tuple(hsv_to_rgb((0.07 + 0.618034 * k) % 1.0, 0.85, 0.6))
#: the grey of the legend's method, certainty and role entries once several models share an
#: axes (their colour is the model's: the legend gives the style alone)
_KEY_GREY = "0.3"
#: legend handles long enough to tell solid, dashed and dotted apart
HANDLE_LENGTH = 3.5
#: the size of the figure a Display makes when it is given no axes (room for the legend)
FIGURE_SIZE = (8.0, 4.6)
#: where a legend goes (:meth:`ThresholdChoiceDisplay.plot`'s ``legend``); any other text is a
#: matplotlib legend location inside the axes ("lower right", ...)
LEGEND_PLACES = ("auto", "outside", "inside")
#: ``legend="auto"`` on a caller's axes puts the legend outside only when the figure has a
#: layout engine (which makes room) and the legend is at most this fraction of the axes' width
_OUTSIDE_SHARE = 0.3


def method_style(method: str, index: int, gamma: float, color: Any = None,
                 gammas: Sequence[float] = ()) -> dict[str, Any]:
    """Matplotlib line properties of a method's curve at ``gamma``, one of the display's
    ``gammas``: by default the method's colour
    (:func:`~threshold_choice.plotting._common.method_colour`) and the gamma's line style
    (solid inf, dashed 0, and between them dotted for the most certain, then other dash
    patterns in decreasing certainty: :data:`_GAMMA_STYLES`); with ``color`` (one colour per
    model), the method's line style and a lighter colour for lower certainty."""
    from matplotlib.colors import to_rgb

    if color is None:
        colour = method_colour(method) or f"C{4 + index % 6}"
        ls = gamma_linestyle(gamma)
        if ls != ":":  # inf and 0: the paper's solid and dashed in the method's colour
            return {"color": colour, "ls": ls}
        finite = sorted({g for g in gammas if 0 < g < math.inf} | {gamma}, reverse=True)
        rank = finite.index(gamma)
        # between them: a dash pattern each and lighter for less certainty (0.9 to 0.55)
        share = 0.9 - 0.35 * rank / max(len(finite) - 1, 1)
        return {"color": _lighter(to_rgb(colour), share),
                "ls": _GAMMA_STYLES[rank % len(_GAMMA_STYLES)]}
    return {"color": _lighter(to_rgb(color), gamma_shade(gamma)),
            "ls": _METHOD_STYLES[index % len(_METHOD_STYLES)]}


def gamma_shade(gamma: float) -> float:
    """The share of a model's colour kept at certainty ``gamma`` (the rest mixed towards
    white, an opaque colour: overlaps stay readable): 1 at ``inf``, 0.35 at 0."""
    return 1.0 if math.isinf(gamma) else 0.35 + 0.65 * gamma / (gamma + 4.0)


def number_text(value: float) -> str:
    """A cost proportion or threshold as printed in legends: its decimal when three
    significant digits give it exactly (``0.2``, ``0.05``), else a fraction with a small
    denominator when it is one (``1/6``, ``1/11``: costs of 1 and 5, 1 and 10), else three
    significant digits (``0.167``)."""
    from fractions import Fraction

    value = float(value)
    short = f"{value:.3g}"
    if not math.isfinite(value) or float(short) == value:
        return short
    fraction = Fraction(value).limit_denominator(100)
    if abs(float(fraction) - value) <= 1e-12 * max(1.0, abs(value)):
        return f"{fraction.numerator}/{fraction.denominator}"
    return short


def belief_text(distribution: Any) -> str:
    """A belief about ``c`` as printed in legends: its spec with the numbers as
    :func:`number_text` prints them (``logit-uniform:1/11,1/4``, not the spec's
    ``0.09090909090909091``)."""
    from threshold_choice.cost_distributions import parse_cost_distribution

    dist = parse_cost_distribution(distribution)
    if dist.is_standard_uniform:
        return dist.spec
    return f"{dist.kind}:{number_text(dist.p)},{number_text(dist.q)}"


def _lighter(rgb: tuple[float, float, float], share: float) -> tuple[float, ...]:
    """``rgb`` mixed with white, ``share`` of it kept (1: unchanged)."""
    return tuple(float(share * v + 1.0 - share) for v in rgb)


def gamma_legend(gamma: float) -> str:
    """The legend text of a certainty level: the Greek gamma, "=", the level (infinity as
    its sign)."""
    return f"\u03b3={gamma_text(gamma)}"


def estimator_scores(
    estimator: Any,
    X: Any,
    y: ArrayLike,
    *,
    X_train: Any = None,
    y_train: ArrayLike | None = None,
    response_method: str = "auto",
    pos_label: Any = None,
) -> tuple[RunScores, Any]:
    """Test (and training) labels 0/1 and scores of a fitted classifier, and the positive
    class (default: a fitted :class:`~threshold_choice.estimators.ThresholdChoiceClassifier`'s
    ``pos_label_``, else ``classes_[1]``). Training scores: from ``X_train``/``y_train``, else
    those a ``ThresholdChoiceClassifier`` kept (train-optimal), which are for its own
    positive class: another ``pos_label`` then needs ``X_train``. An unfitted ``estimator``
    raises scikit-learn's ``NotFittedError``; a plain classifier with labels other than 0/1
    and no ``pos_label`` warns which class it takes (as ``ThresholdChoiceClassifier.fit``)."""
    # scikit-learn on first use: a figure drawn from scores (the workflow's) needs none of it
    from sklearn.utils.validation import check_is_fitted

    from threshold_choice.estimators import (
        find_threshold_classifier,
        response_scores,
        warn_implicit_pos_label,
    )

    check_is_fitted(estimator)
    _both_or_neither("X_train", X_train, "y_train", y_train)
    classes = np.asarray(estimator.classes_)
    clf = find_threshold_classifier(estimator)
    if pos_label is None:
        pos_label = clf.pos_label_ if clf is not None else None
        if clf is None and classes.size == 2:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                warn_implicit_pos_label(classes)
            for caught_warning in caught:  # said at the caller's line, not this one
                warnings.warn(caught_warning.message, stacklevel=4)
    pos = classes[-1] if pos_label is None else pos_label
    pos = pos.item() if isinstance(pos, np.generic) else pos  # 1, not np.int64(1), in messages
    test_s, _ = response_scores(estimator, X, response_method, pos)
    test_y = costlines.binary_labels(y, pos, "y")
    train_y = train_s = None
    if X_train is not None:
        train_s, _ = response_scores(estimator, X_train, response_method, pos)
        train_y = costlines.binary_labels(y_train, pos, "y_train")
    elif clf is not None:
        kept = clf.pos_label_
        if kept != pos:
            # numpy scalars as plain values in the message (1, not np.int64(1))
            kept, pos = (v.item() if isinstance(v, np.generic) else v for v in (kept, pos))
            raise UserError(
                f"the training scores the fitted {type(clf).__name__} kept are for pos_label="
                f"{kept!r}, not {pos!r}: pass X_train and y_train, or pos_label={kept!r}"
            )
        train_y, train_s = clf.train_labels_, clf.train_scores_
    return RunScores.from_arrays(test_y, test_s, train_y, train_s), pos


def _both_or_neither(name: str, value: Any, other_name: str, other: Any) -> None:
    """A :class:`UserError` when only one of a pair of training inputs is given (rather than
    dropping train-optimal from the figure without a word)."""
    if (value is None) != (other is None):
        given, missing = (name, other_name) if other is None else (other_name, name)
        raise UserError(f"{given} without {missing}: train-optimal selects on the training "
                        f"examples' scores and labels, give both (or neither)")


def binary_labels(y: ArrayLike, pos_label: Any, what: str) -> tuple[ArrayLike, Any]:
    """``y`` as 0/1 (:func:`threshold_choice.costlines.binary_labels`: 1 where it equals
    ``pos_label``; ``pos_label=None``: ``y`` itself, which must be 0/1) and the other class's
    label (``None`` without ``pos_label``, or when ``y`` holds ``pos_label`` only)."""
    y01 = costlines.binary_labels(y, pos_label, what)
    if pos_label is None:
        return y01, None
    others = np.unique(np.asarray(y)[y01 == 0])
    if not others.size:
        return y01, None
    other = others[0]
    return y01, (other.item() if isinstance(other, np.generic) else other)


def model_name(estimator: Any) -> str:
    """The class name of the model inside ``estimator`` (through
    ``ThresholdChoiceClassifier`` and ``Pipeline`` wrappers)."""
    from threshold_choice.estimators import ThresholdChoiceClassifier

    inner = estimator
    while True:
        if isinstance(inner, ThresholdChoiceClassifier):
            inner = getattr(inner, "estimator_", inner.estimator)
        elif getattr(inner, "steps", None):
            inner = inner.steps[-1][1]
        else:
            return type(inner).__name__


class ThresholdChoiceDisplay:
    """Base class of the Displays: compute first, plot second.

    ``from_predictions`` / ``from_estimator`` compute the numbers (kept as attributes) and
    draw them; :meth:`plot` draws again, on any axes. A subclass defines ``_compute`` (a
    classmethod from the run's scores and its options, documented in its own numpydoc
    Parameters section, to the instance), ``_draw(ax, **kwargs)`` and ``_records()`` (the
    plotted numbers, for :attr:`data`); its ``from_predictions`` and ``from_estimator`` then
    list its options in their signatures and docstrings.

    Drawing conventions shared by every Display: a title (the kind of plot and the model;
    ``plot(title="")`` for none), the legend where ``plot(legend=...)`` puts it (default
    ``"auto"``: outside the axes on the right on the Display's own figure; on the caller's
    axes outside only when their figure has a layout engine to make room and the legend
    takes at most 30% of the axes' width, else inside where it covers no data: the caller's
    figure and its layout engine are left as they are, as scikit-learn's Displays do),
    legend handles long enough to tell line styles apart, axis labels that wrap inside the
    figure and name the user's classes, and one encoding of models, methods and
    certainties. One model: colour = method (the paper's: test-optimal green, train-optimal
    blue, score-driven red), line style = certainty (solid ``gamma = inf``, dashed 0,
    dotted and dash patterns between). Several models on one axes: colour = model
    (:data:`MODEL_COLOURS`; the first model is drawn again in its colour when a second
    joins it), line style = method, shade = certainty (lighter for less certain), and a
    grouped legend: one entry per model (with its AUC or log loss where it has one), per
    method, per certainty and per role, instead of one per curve (each curve's numbers
    are in the displays' attributes and :attr:`data`).

    Attributes
    ----------
    name : str or None
        The model's name, in legends, the title and the ``panel`` column of :attr:`data`.
    ax_ : matplotlib.axes.Axes or None
        The axes drawn on, set by :meth:`plot`.
    figure_ : matplotlib.figure.Figure or None
        Their figure.
    event : object
        The positive class (class 1) when known (``from_estimator``, or ``from_predictions``
        with ``pos_label``), named in axis labels.
    negative : object
        The other class (class 0) when known, as ``event``; the F-measure Displays name it
        (their positive class).
    TITLE : str
        The kind of plot, the start of the default title.
    data : pandas.DataFrame
        The plotted numbers, long format (``panel, kind, series, x, y``).
    """

    name: str | None = None
    ax_: Axes | None = None
    figure_: Any = None
    #: the kind of plot, the start of the default title
    TITLE: ClassVar[str] = ""
    #: the positive class (class 1) when known (``from_estimator``, ``pos_label=``), named in
    #: axis labels
    event: Any = None
    #: the other class (class 0) when known
    negative: Any = None
    #: where :meth:`plot` puts the legend (see :data:`LEGEND_PLACES`)
    _legend_place: str | None = "auto"
    #: whether the display is computed from a run's scores (``from_predictions`` /
    #: ``from_estimator``); a display of something else (beliefs) sets it False and has a
    #: constructor of its own
    FROM_SCORES: ClassVar[bool] = True
    #: whether the y range is fixed (ROC space): a legend inside then finds no room above
    #: the data by raising the top
    FIXED_Y: ClassVar[bool] = False
    #: how ``costs=`` (a :class:`Costs`) is drawn: ``"cost_proportions"`` (its ``c`` added to
    #: that option), ``"line"`` (a vertical band at ``c``), ``None``: refused
    COSTS_MARKED: ClassVar[str | None] = "line"
    #: the user's costs (``costs=``) when given
    user_costs: Costs | None = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Give the subclass ``from_predictions`` / ``from_estimator`` whose signatures
        (``help``, ``inspect.signature``, the docs) list its ``_compute`` options instead of
        ``**kwargs``; the options are defined once, in ``_compute``, and documented there
        (its docstring's Parameters), the examples in the class docstring."""
        super().__init_subclass__(**kwargs)
        if not cls.FROM_SCORES:
            return
        options = [p for p in inspect.signature(cls._compute).parameters.values()
                   if p.kind in (p.KEYWORD_ONLY, p.VAR_KEYWORD)]
        names = ", ".join(f"``{p.name}``" for p in options if p.kind == p.KEYWORD_ONLY)
        note = f"{cls.__name__}'s options: {names} (see the class docstring)."
        for name in ("from_predictions", "from_estimator"):
            base = getattr(ThresholdChoiceDisplay, name).__func__
            setattr(cls, name, classmethod(_with_options(
                base, options, _options_doc(base.__doc__, cls, note))))

    # -- to implement ----------------------------------------------------------------------
    @classmethod
    def _compute(cls, run: RunScores, **kwargs: Any) -> ThresholdChoiceDisplay:
        raise NotImplementedError

    def _draw(self, ax: Axes, **kwargs: Any) -> None:
        raise NotImplementedError

    def _records(self) -> Iterator[tuple[str, str, ArrayLike, ArrayLike]]:
        """``(kind, series, x, y)`` of every plotted series."""
        raise NotImplementedError

    # -- shared ----------------------------------------------------------------------------
    @classmethod
    def from_predictions(
        cls,
        y_true: ArrayLike,
        y_score: ArrayLike,
        *,
        pos_label: Any = None,
        costs: Costs | None = None,
        train_y: ArrayLike | None = None,
        train_score: ArrayLike | None = None,
        name: str | None = None,
        ax: Axes | None = None,
        plot: bool = True,
        plot_kwargs: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> ThresholdChoiceDisplay:
        """Compute the display from labels and scores, then plot it.

        The numbers are kept as the display's attributes (those of the library's functions
        on the same scores), then drawn on ``ax``, as scikit-learn's
        ``RocCurveDisplay.from_predictions``.

        Parameters
        ----------
        y_true : array-like of shape (n,)
            Test labels, 0 or 1 (class 1: the class the score estimates), or any two labels
            with ``pos_label``; both classes present.
        y_score : array-like of shape (n,)
            Test scores; probabilities of class 1 in [0, 1] for the methods that read them
            as probabilities and for decision curves, any real numbers otherwise.
        pos_label : object, default=None
            The label of the positive class (class 1, whose probability the score
            estimates), as scikit-learn's ``RocCurveDisplay.from_predictions``: the labels
            of ``y_true`` (and ``train_y``) equal to it are class 1, the others class 0;
            ``None``: the labels must be 0 or 1. Kept as the display's ``event`` (the other
            label as ``negative``).
        costs : Costs, default=None
            The costs of the two errors in the user's units
            (:class:`~threshold_choice.Costs`): their positive class is the display's (a
            different ``pos_label`` is refused), and their cost proportion
            ``c = C_FP / (C_FP + C_FN)`` is marked (``ROCDisplay``, ``FROCDisplay``: its
            optimal point, as a cost proportion of ``cost_proportions``; the cost-space,
            log-odds and decision curves: a vertical line at ``c``). Their ``belief``, if
            any (``Costs.from_ratio_range``), is the cost distribution the expected losses
            average over (another ``cost_distribution`` is refused). ``CertaintyDisplay``,
            which averages over every ``c``, takes only costs with a belief.
        train_y : array-like of shape (n_train,), default=None
            Training labels, as ``y_true``, for the methods that select on training scores
            (train-optimal).
        train_score : array-like of shape (n_train,), default=None
            The model's scores on its training data.
        name : str, default=None
            The model's name, in the legend, the title and the ``panel`` column of
            ``data``.
        ax : matplotlib.axes.Axes, default=None
            The axes to draw on; ``None``: a new figure.
        plot : bool, default=True
            Draw the display; ``False``: compute only (``ax_`` and ``figure_`` stay
            ``None`` until :meth:`plot`).
        plot_kwargs : dict, default=None
            Keyword arguments of :meth:`plot` (``title`` and the display's drawing options).
        **kwargs
            The display's options (each Display's ``from_predictions`` lists its own).

        Returns
        -------
        ThresholdChoiceDisplay
            The display, drawn unless ``plot=False``.

        Raises
        ------
        UserError
            For invalid labels or scores (labels other than 0/1 without ``pos_label``, a
            ``pos_label`` that is not one of two labels), or invalid options.

        See Also
        --------
        from_estimator : The same from a fitted classifier.
        plot : Draw the display again, on other axes.
        """
        kwargs, pos_label = cls._options(kwargs, costs, pos_label, "from_predictions")
        _both_or_neither("train_y", train_y, "train_score", train_score)
        y_true, negative = binary_labels(y_true, pos_label, "y_true")
        if train_y is not None:
            train_y, _ = binary_labels(train_y, pos_label, "train_y")
        run = RunScores.from_arrays(y_true, y_score, train_y, train_score)
        display = cls._compute(run, **kwargs)
        display.user_costs = costs
        display.name = name
        if pos_label is not None:
            display.event, display.negative = pos_label, negative
        return display.plot(ax=ax, **(plot_kwargs or {})) if plot else display

    @classmethod
    def from_estimator(
        cls,
        estimator: Any,
        X: Any,
        y: ArrayLike,
        *,
        X_train: Any = None,
        y_train: ArrayLike | None = None,
        response_method: str = "auto",
        pos_label: Any = None,
        costs: Costs | None = None,
        name: str | None = None,
        ax: Axes | None = None,
        plot: bool = True,
        plot_kwargs: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> ThresholdChoiceDisplay:
        """Compute the display from a fitted classifier's scores, then plot it.

        The scores are those of ``pos_label`` on ``X`` (``predict_proba``, or
        ``decision_function``), and for train-optimal on ``X_train``, or those a fitted
        :class:`~threshold_choice.estimators.ThresholdChoiceClassifier` kept.

        Parameters
        ----------
        estimator : object
            A fitted binary classifier, a fitted ``ThresholdChoiceClassifier`` or a
            ``Pipeline`` ending in one.
        X : array-like of shape (n, n_features)
            Test examples.
        y : array-like of shape (n,)
            Their labels (any two class labels; ``pos_label``'s are class 1).
        X_train : array-like of shape (n_train, n_features), default=None
            Training examples, whose scores train-optimal selects on; ``None``: the training
            scores a ``ThresholdChoiceClassifier`` kept (for its own positive class).
        y_train : array-like of shape (n_train,), default=None
            Their labels.
        response_method : {"auto", "predict_proba", "decision_function"}, default="auto"
            Where the scores come from (``"auto"``: ``predict_proba``, else
            ``decision_function``).
        pos_label : object, default=None
            The positive class (class 1); ``None``: a ``ThresholdChoiceClassifier``'s
            ``pos_label_``, else ``classes_[1]`` (with a warning when the labels are not
            0/1). Kept as the display's ``event`` (the other class as ``negative``).
        costs : Costs, default=None
            The costs of the two errors in the user's units, as for
            :meth:`from_predictions`: their cost proportion is marked, and their belief, if
            any, is the cost distribution the expected losses average over.
        name : str, default=None
            The model's name; ``None``: its class name (through ``ThresholdChoiceClassifier``
            and ``Pipeline``).
        ax, plot, plot_kwargs : optional
            As for :meth:`from_predictions`: the axes to draw on (default a new figure),
            whether to draw (default True) and :meth:`plot`'s keyword arguments.
        **kwargs
            The display's options, those of its ``from_predictions``.

        Returns
        -------
        ThresholdChoiceDisplay
            The display of the classifier's scores (drawn unless ``plot=False``), its
            ``name`` and ``event`` set.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            For a classifier that is not fitted.
        UserError
            For a classifier that is not binary or has no scores, a ``pos_label`` that is
            not a class (or differs from the one the kept training scores are for), or
            invalid options.

        Warns
        -----
        UserWarning
            A classifier other than a ``ThresholdChoiceClassifier`` with labels other than
            0/1 and no ``pos_label``: which class is taken as positive (``classes_[1]``),
            once per set of labels.

        See Also
        --------
        from_predictions : The same from labels and scores.
        plot : Draw the display again, on other axes.
        """
        kwargs, pos_label = cls._options(kwargs, costs, pos_label, "from_estimator")
        run, pos = estimator_scores(
            estimator, X, y, X_train=X_train, y_train=y_train,
            response_method=response_method, pos_label=pos_label,
        )
        display = cls._compute(run, **kwargs)
        display.user_costs = costs
        display.name = name or model_name(estimator)
        display.event = pos
        display.negative = next(c.item() if isinstance(c, np.generic) else c
                                for c in np.asarray(estimator.classes_) if c != pos)
        return display.plot(ax=ax, **(plot_kwargs or {})) if plot else display

    @classmethod
    def _options(cls, kwargs: dict[str, Any], costs: Any, pos_label: Any,
                 where: str) -> tuple[dict[str, Any], Any]:
        """The options of ``_compute`` checked (a misspelled one is a ``TypeError`` naming
        the nearest, not swallowed by ``**kwargs``), ``costs`` (a :class:`Costs`) agreeing
        with ``pos_label``, and the positive class; a list of cost proportions as ``costs``
        (the old name) is taken as ``cost_proportions``, with a ``FutureWarning``."""
        params = inspect.signature(cls._compute).parameters
        known = [n for n, p in params.items()
                 if n != "run" and p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)]
        if any(p.kind == p.VAR_KEYWORD for p in params.values()):  # LossSettings fields
            known += [f.name for f in dataclasses.fields(LossSettings)]
        _refuse_unknown(f"{cls.__name__}.{where}", kwargs, known)
        kwargs = dict(kwargs)
        if costs is None:
            return kwargs, pos_label
        if not isinstance(costs, Costs):
            if "cost_proportions" not in known:
                raise TypeError(f"{cls.__name__}.{where}(): costs must be a "
                                f"threshold_choice.Costs, got {type(costs).__name__}")
            if "cost_proportions" in kwargs:
                raise TypeError(f"{cls.__name__}.{where}(): give cost_proportions only (costs "
                                "is a Costs)")
            warnings.warn("a list of cost proportions as costs= is deprecated: pass them as "
                          "cost_proportions= (costs= takes a threshold_choice.Costs)",
                          FutureWarning, stacklevel=4)
            kwargs["cost_proportions"] = costs
            return kwargs, pos_label
        if cls.COSTS_MARKED is None and costs.belief is None:
            raise UserError(f"{cls.__name__} averages over every cost proportion, so costs "
                            "of one c have no place on it: give a belief about c, e.g. "
                            "costs=Costs.from_ratio_range(3, 10, pos_label=...), or "
                            "cost_distribution= with their positive class as pos_label")
        pos_label = costs.check_pos_label(pos_label, cls.__name__)
        if costs.belief is not None and "settings" in known:  # averaged over, as elsewhere
            from threshold_choice.evaluation import loss_settings, with_belief

            fields = {f.name for f in dataclasses.fields(LossSettings)}
            given = {k: kwargs.pop(k) for k in list(kwargs) if k in fields}
            kwargs["settings"] = with_belief(loss_settings(kwargs.get("settings"), **given),
                                             costs, cls.__name__)
        if cls.COSTS_MARKED is None:
            return kwargs, pos_label
        if cls.COSTS_MARKED == "cost_proportions":
            given = kwargs.get("cost_proportions")
            given = [] if given is None else list(np.atleast_1d(given))
            kwargs["cost_proportions"] = [costs.cost_proportion, *given]
        return kwargs, pos_label

    def _mark_costs(self, ax: Axes, x: float | None = None) -> None:
        """The user's costs (``costs=``, a :class:`Costs`) as a vertical line at ``x``
        (default their cost proportion ``c``), once per axes, named in the legend."""
        costs = self.user_costs
        if costs is None or any(line.get_gid() == COSTS_GID for line in ax.get_lines()):
            return
        c = costs.cost_proportion
        units = f" {costs.units}" if costs.units else ""
        # a broad translucent band: no method's line style (several models: grey keys)
        ax.axvline(c if x is None else x, color="tab:gray", alpha=0.35, lw=3.0,
                   zorder=2.5, gid=COSTS_GID,
                   label=f"costs FP {costs.false_positive:g}{units}, FN "
                         f"{costs.false_negative:g}{units}: c = {number_text(c)}")

    def plot(self, ax: Axes | None = None, *, name: str | None = None,
             title: str | None = None, legend: str | None = "auto",
             **kwargs: Any) -> ThresholdChoiceDisplay:
        """Draw the display's numbers on a matplotlib axes.

        Another display can then draw on ``self.ax_``: several models on one axes, each in
        a colour of its own (the first drawn again in the first model colour), methods told
        apart by line style.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, default=None
            The axes; ``None``: a new pyplot figure (constrained layout) with room for the
            legend. The figure of given axes is left as it is: its size and layout engine
            are the caller's, as for scikit-learn's Displays.
        name : str, default=None
            A new name for the model (legend and title); ``None``: keep the name it was
            built with.
        title : str, default=None
            The axes' title; ``None``: the kind of plot and the model's name (the kind alone
            once several models share the axes); ``""``: none.
        legend : {"auto", "outside", "inside"}, str or None, default="auto"
            Where the legend goes: ``"outside"`` the axes on the right (it never covers the
            data; on a figure without a layout engine, give it one, e.g.
            ``fig.set_layout_engine("constrained")``, or save with ``bbox_inches="tight"``,
            or it may be cut off); ``"inside"`` the axes where it covers no data (tried
            on the drawn geometry in the corners, then the sides, in one column then two;
            several models: the models' and the styles' legends apart; if every place
            covers data and the y range is free, the top is raised to leave a band above
            the data, which only curves marked as running off the top may cross), or a
            matplotlib location such as ``"lower right"``; ``None``: no legend.
            ``"auto"``: outside on the Display's own figure, and on the caller's axes when
            their figure has a layout engine and the legend takes at most 30% of the
            axes' width (the axes keep their room); inside otherwise.
        **kwargs
            The display's drawing options (listed in the Notes of each Display's class
            docstring), e.g. ``color``: one colour for all its curves.

        Returns
        -------
        ThresholdChoiceDisplay
            ``self``, with ``ax_`` and ``figure_`` set.

        See Also
        --------
        from_predictions : Compute a display (and draw it).

        Examples
        --------
        Two models on one axes, the second in a colour of its own:

        >>> from threshold_choice.plotting import ROCDisplay
        >>> y = [0, 0, 1, 0, 1, 1, 0, 1]
        >>> first = ROCDisplay.from_predictions(
        ...     y, [0.1, 0.3, 0.35, 0.4, 0.6, 0.8, 0.7, 0.9], name="A", plot=False)
        >>> first.ax_ is None
        True
        >>> first = first.plot()
        >>> first.ax_.get_title()
        'ROC space: A'
        >>> second = ROCDisplay.from_predictions(
        ...     y, [0.2, 0.1, 0.6, 0.3, 0.4, 0.9, 0.5, 0.7], name="B", plot=False)
        >>> second.plot(ax=first.ax_, title="").ax_ is first.ax_
        True
        >>> [line.get_color() for line in first.ax_.get_lines()
        ...  if line.get_label().startswith("B: ROC curve")]
        ['tab:orange']
        """
        self._legend_place = _legend_place(legend)
        if ax is None:
            import matplotlib.pyplot as plt

            figure, ax = plt.subplots(figsize=FIGURE_SIZE, layout="constrained")
            figure._threshold_choice_own = True  # its legend outside: room was made for it
        if name is not None:
            self.name = name
        self._check_drawing_options(kwargs)
        drawn = _displays_on(ax)
        self._order = len(drawn)  # 0: the first display on these axes
        if kwargs.get("color") is None and self._order and self._takes_color():
            kwargs["color"] = model_colour(self._order)
        self._draw_kwargs = dict(kwargs)
        if self._order == 1:  # a second model: the first one drawn again in its model colour
            drawn[0]._join(ax)
        before = set(ax.get_children())
        self._draw(ax, **kwargs)
        self._artists = [a for a in ax.get_children() if a not in before]
        drawn.append(self)
        if title is None:
            single = len(drawn) == 1 and self.name
            title = f"{self.TITLE}: {self.name}" if single else self.TITLE
        if title:
            ax.set_title(title, fontsize=10, pad=10)  # clear of markers on the top edge
        self.ax_, self.figure_ = ax, ax.figure
        return self

    def _takes_color(self) -> bool:
        """Whether ``_draw`` takes ``color`` (one colour for a model's curves)."""
        return "color" in inspect.signature(self._draw).parameters

    def _check_drawing_options(self, kwargs: dict[str, Any]) -> None:
        """Refuse a drawing option ``_draw`` does not take (a misspelling would otherwise
        reach matplotlib as a line property, or be dropped)."""
        params = inspect.signature(self._draw).parameters
        if any(p.kind == p.VAR_KEYWORD for p in params.values()):
            return  # the rest are matplotlib line properties, which matplotlib checks
        _refuse_unknown(f"{type(self).__name__}.plot", kwargs,
                        [n for n in params if n != "ax"])

    @property
    def _colour(self) -> Any:
        """The model's colour once several models share the axes (``None`` before)."""
        return getattr(self, "_draw_kwargs", {}).get("color")

    def _join(self, ax: Axes) -> None:
        """A second model joins this (first) display's axes: draw it again in the first
        model colour (methods then told apart by line style, as the later models'), unless
        it was given a colour, and name its entries."""
        if self._takes_color() and self._colour is None:
            for artist in getattr(self, "_artists", ()):
                try:
                    artist.remove()
                except (NotImplementedError, ValueError):  # already gone (an old legend)
                    pass
            self._draw_kwargs = {**self._draw_kwargs, "color": MODEL_COLOURS[0]}
            before = set(ax.get_children())
            self._draw(ax, **self._draw_kwargs)
            self._artists = [a for a in ax.get_children() if a not in before]
        self._name_entries()

    def _key(self, artist: Any, *, method: str | None = None, gamma: float | None = None,
             role: str | None = None, own: bool = False) -> Any:
        """Say what ``artist`` stands for in the legend of several models (returned as
        given): a method's curve at ``gamma`` (one legend entry per method and one per
        certainty, in grey), a ``role`` (one grey entry per role: "ROC curve"; ``""``: the
        model's own entry stands for it), or ``own`` (an entry of its own, with the model's
        name: a number of this model)."""
        artist._threshold_choice_key = (self, method, gamma, role, own)
        return artist

    @staticmethod
    def _background(artist: Any) -> Any:
        """Mark ``artist`` as context, not data (the cost lines' fan): a legend may cover
        it."""
        artist._threshold_choice_background = True
        return artist

    def _summary(self) -> str | None:
        """A number of the model for its entry in a legend of several models (the AUC)."""
        return None

    def _label(self, text: str) -> str:
        """A legend entry of this model: prefixed with its name once several models share
        the axes (alone, the title names it)."""
        return f"{self.name}: {text}" if self.name and getattr(self, "_order", 0) else text

    def _name_entries(self) -> None:
        """Prefix this (first) display's legend entries with its name, as :meth:`_label`
        does for the later ones; shared references (with a ``gid``: chance, treat all...)
        and an entry that is the name itself stay as they are."""
        if not self.name:
            return
        for artist in getattr(self, "_artists", ()):
            label = str(artist.get_label())
            if (label and not label.startswith("_") and artist.get_gid() is None
                    and label != self.name and not label.startswith(f"{self.name}: ")):
                artist.set_label(f"{self.name}: {label}")

    def _class_text(self, k: int) -> str:
        """Class ``k`` (0 or 1) as named in labels: its label when known (``'benign'``),
        else ``not 'malignant'`` for class 0 when only the event is known, else ``class k``."""
        label = self.event if k == 1 else self.negative
        if label is not None:
            return repr(label)
        if k == 0 and self.event is not None:
            return f"not {self.event!r}"
        return f"class {k}"

    def _finish(self, ax: Axes, xlabel: str, ylabel: str, legend_title: str | None = None) -> None:
        """The axes' labels (wrapped to the axes' width and height when longer, see
        :class:`_WrapToAxes`), a light grid and the legend: the end of every ``_draw``."""
        for label, vertical in ((ax.set_xlabel(xlabel, wrap=True), False),
                                (ax.set_ylabel(ylabel, wrap=True), True)):
            if hasattr(label, "_get_wrap_line_width"):  # else matplotlib's wrapping alone
                label._get_wrap_line_width = _WrapToAxes(label, ax, vertical)
        ax.grid(alpha=0.25)
        self._legend(ax, legend_title)

    def _legend(self, ax: Axes, title: str | None = None) -> Legend | None:
        """The legend where ``plot(legend=...)`` puts it (see :meth:`plot`): with several
        models, their colours then the styles (:func:`_grouped_entries`), inside the axes as
        two compact legends placed apart."""
        for old in [*getattr(ax, "_threshold_choice_legends", ()), ax.get_legend()]:
            if old is not None and old.axes is not None:
                old.remove()
        ax._threshold_choice_legends = []  # type: ignore[attr-defined]
        place = self._legend_place
        if place is None:
            return None
        models = [d for d in _displays_on(ax) if d is not self] + [self]
        if len(models) > 1 and all(d._takes_color() for d in models):
            handles, labels = _grouped_entries(ax, models)
            groups = [(handles[:len(models)], labels[:len(models)]),
                      (handles[len(models):], labels[len(models):])]
            title = None  # the numbers are the models' (their ``data``), not the entries'
        else:
            handles, labels = ax.get_legend_handles_labels()
            groups = [(handles, labels)]
        style = {"fontsize": 7, "title": title, "title_fontsize": 7,
                 "handlelength": HANDLE_LENGTH}
        if place in ("auto", "outside"):
            legend = ax.legend(handles, labels, loc="upper left", bbox_to_anchor=(1.02, 1.0),
                               borderaxespad=0.0, frameon=False, **style)
            if place == "outside" or _room_outside(ax, legend):
                return legend
            place = "inside"
        if place != "inside":
            return ax.legend(handles, labels, loc=place, framealpha=0.85, **style)
        legends = _legends_inside(ax, [g for g in groups if g[0]],
                                  {"framealpha": 0.85, **style}, headroom=not self.FIXED_Y)
        for legend in legends[:-1]:  # a second ax.legend() replaces the first: keep it
            ax.add_artist(legend)
        ax._threshold_choice_legends = legends[:-1]  # type: ignore[attr-defined]
        return legends[-1]

    @property
    def data(self) -> pd.DataFrame:
        """The plotted numbers, long format (columns ``panel, kind, series, x, y`` as the
        project's figure CSVs; ``panel`` = the model's name)."""
        data = FigureData()
        for kind, series, x, y in self._records():
            data.add(self.name or "", kind, series, x, y)
        return data.frame()


def _with_options(base: Any, options: list[inspect.Parameter], doc: str | None) -> Any:
    """``base`` (a ``from_*`` function) under a signature ending in ``options``, with the
    docstring ``doc``."""

    @functools.wraps(base)
    def method(cls: Any, *args: Any, **kwargs: Any) -> Any:
        return base(cls, *args, **kwargs)

    shared = [p for p in inspect.signature(base).parameters.values()
              if p.kind != p.VAR_KEYWORD]
    method.__signature__ = inspect.signature(base).replace(  # type: ignore[attr-defined]
        parameters=[*shared, *options])
    method.__doc__ = doc
    return method


def _sections(doc: str | None) -> dict[str, str]:
    """The numpydoc sections of ``doc`` (dedented) by title, ``""`` for the text before the
    first; each value the section's lines after its underline."""
    lines = inspect.cleandoc(doc or "").splitlines()
    out: dict[str, list[str]] = {"": []}
    title = ""
    for line, below in zip(lines, [*lines[1:], ""][: len(lines)], strict=True):
        if line.strip() and set(below.strip()) == {"-"} and len(below.strip()) == len(
                line.strip()):
            title = line.strip()
            out[title] = []
        elif not (title and not out[title] and set(line.strip()) == {"-"}):  # the underline
            out[title].append(line)
    return {key: "\n".join(value).strip("\n") for key, value in out.items()}


def _entries(section: str) -> dict[str, str]:
    """The entries of a Parameters section by name (an entry: its unindented line and the
    indented lines after it)."""
    out: dict[str, list[str]] = {}
    name = None
    for line in section.splitlines():
        if line and not line[0].isspace():
            name = line.split(" : ")[0].strip()
            out[name] = []
        if name is not None:
            out[name].append(line)
    return {key: "\n".join(value).rstrip() for key, value in out.items()}


def _options_doc(base_doc: str | None, cls: type, note: str) -> str | None:
    """The docstring of ``cls``'s ``from_*`` method: ``base_doc`` (numpydoc) with its
    ``**kwargs`` entry replaced by the entries of ``cls._compute``'s Parameters (all but
    ``run``), its return type ``cls``, and the Examples of ``cls``'s docstring. ``note``
    stands for the options when ``_compute`` documents none. ``None`` without ``base_doc``
    (``python -OO``)."""
    if base_doc is None:
        return None
    base = _sections(base_doc)
    options = _entries(_sections(cls._compute.__doc__).get("Parameters", ""))
    options.pop("run", None)
    shared = _entries(base.get("Parameters", ""))
    if options:
        shared.pop("**kwargs", None)
        shared.update(options)
    else:
        shared["**kwargs"] = "**kwargs\n    " + note
    base["Parameters"] = "\n".join(shared.values())
    if "Returns" in base:
        base["Returns"] = base["Returns"].replace(ThresholdChoiceDisplay.__name__, cls.__name__, 1)
    examples = _sections(cls.__doc__).get("Examples")
    if examples:
        base["Examples"] = examples
    parts = [base.pop("")]
    parts += [f"{title}\n{'-' * len(title)}\n{body}" for title, body in base.items()]
    return "\n\n".join(parts) + "\n"


#: how much longer than its axes' side an axis label's line may be (centred, it overhangs
#: the axes by an eighth each side: into the tick labels' margin, not a neighbour's panel)
_OVERHANG = 1.25


class _WrapToAxes:
    """The length a wrapped axis label's lines may take: matplotlib's (up to the figure's
    edge, from the label's centre) but no more than the axes' side it labels. On a panel of
    a grid, matplotlib's alone lets a y-label run past its axes to the figure's top edge and
    be cut there. Measured at each drawing, so a label wraps anew when the layout moves the
    axes; a class rather than a closure, so that the figure still pickles."""

    def __init__(self, label: Any, ax: Axes, vertical: bool) -> None:
        self.label, self.ax, self.vertical = label, ax, vertical

    def __call__(self) -> float:
        box = self.ax.get_window_extent()
        own = type(self.label)._get_wrap_line_width(self.label)
        return min(own, _OVERHANG * (box.height if self.vertical else box.width))


def _legend_place(legend: str | None) -> str | None:
    """``plot``'s ``legend`` checked: one of :data:`LEGEND_PLACES`, a matplotlib location
    inside the axes, or ``None`` (also ``False`` and ``"none"``)."""
    if legend is None or legend is False or legend == "none":
        return None
    from matplotlib.legend import Legend

    if isinstance(legend, str) and (legend in LEGEND_PLACES or legend in Legend.codes):
        return legend
    raise UserError(f"legend must be one of {', '.join(LEGEND_PLACES)}, a matplotlib legend "
                    f"location such as 'lower right', or None; got {legend!r}")


def _room_outside(ax: Axes, legend: Legend) -> bool:
    """Whether a legend outside ``ax`` leaves the axes their room: on a figure a Display made
    (the key ``_threshold_choice_own``) always; on a caller's, when the figure has a layout
    engine (which makes room for it) and the legend takes at most :data:`_OUTSIDE_SHARE` of
    the axes' width."""
    figure = ax.figure
    if getattr(figure, "_threshold_choice_own", False):
        return True
    if figure.get_layout_engine() is None:
        return False
    renderer = figure._get_renderer()  # the size of the legend's texts
    width = legend.get_window_extent(renderer).width
    return width <= _OUTSIDE_SHARE * ax.get_window_extent(renderer).width


#: the gid of the line marking the user's costs (not data: no curve sets a range by it)
COSTS_GID = "threshold-choice-costs"
#: the end of the legend entry of a curve that rises above the axes' top
OFF_TOP = " (runs off the top)"


def data_lines(ax: Axes) -> list[Any]:
    """The lines of ``ax`` that are data: all but the mark of the user's costs."""
    return [line for line in ax.get_lines() if line.get_gid() != COSTS_GID]


def mark_above(lines: Sequence[Any], top: float) -> None:
    """Mark as running off the top (:data:`OFF_TOP`) the curves among ``lines`` that rise
    above ``top``."""
    for line in lines:
        label = str(line.get_label())
        peak = np.nanmax(np.asarray(line.get_ydata(), float), initial=0.0)
        if not label.startswith("_") and not label.endswith(OFF_TOP) and peak > top:
            line.set_label(label + OFF_TOP)


#: how close, as a fraction of the axes' height, a curve must lie to a later solid one
#: everywhere to be hidden under it (about a line's width on a figure of the usual size)
HIDDEN_TOLERANCE = 0.005


def _along(x: FloatArray, y: FloatArray, by_x: FloatArray, by_y: FloatArray,
           tol: float) -> bool:
    """Whether every point ``(x, y)`` lies within ``tol`` (vertically) of the polyline
    ``(by_x, by_y)`` (``by_x`` non-decreasing; at a jump, anywhere along its vertical)."""
    n = by_x.size
    left = np.searchsorted(by_x, x, "left")
    right = np.searchsorted(by_x, x, "right")
    if n < 2 or np.any((left == 0) & (right == 0)) or np.any(left == n):
        return False  # a point beyond the other curve's ends

    def at(i: NDArray[np.intp]) -> FloatArray:  # on the segment from point i - 1 to point i
        i = np.clip(i, 1, n - 1)
        x0, x1, y0, y1 = by_x[i - 1], by_x[i], by_y[i - 1], by_y[i]
        with np.errstate(invalid="ignore", divide="ignore"):
            t = np.where(x1 > x0, (x - x0) / (x1 - x0), 1.0)
        return y0 + np.clip(t, 0.0, 1.0) * (y1 - y0)

    from_left, from_right = at(left), at(right)
    low = np.fmin(from_left, from_right) - tol
    high = np.fmax(from_left, from_right) + tol
    return bool(np.all((y >= low) & (y <= high)))


def hidden_under(lines: Sequence[Any], height: float) -> dict[int, int]:
    """The curves among ``lines`` (drawn in that order) that a later solid curve covers
    wholly, within :data:`HIDDEN_TOLERANCE` of ``height``: index -> the index of the last one
    covering it. A dashed curve drawn over one leaves it visible between its dashes, so only
    solid ones hide."""
    tol = HIDDEN_TOLERANCE * height
    found: dict[int, int] = {}
    points = []
    for line in lines:
        x = np.asarray(line.get_xdata(), float)
        y = np.asarray(line.get_ydata(), float)
        keep = np.isfinite(x) & np.isfinite(y)
        x = x[keep]
        # a solid curve over its whole range, left to right, can hide another
        hides = (bool(np.all(keep)) and line.get_linestyle() == "-"
                 and bool(np.all(np.diff(x) >= 0)))
        points.append((x, y[keep], hides))
    for i, (x, y, _) in enumerate(points):
        if x.size < 2:
            continue
        # its vertices and the middles of its segments
        xs = np.concatenate([x, (x[1:] + x[:-1]) / 2])
        ys = np.concatenate([y, (y[1:] + y[:-1]) / 2])
        for j in range(len(lines) - 1, i, -1):
            by_x, by_y, hides = points[j]
            if hides and _along(xs, ys, by_x, by_y, tol):
                found[i] = j
                break
    return found


#: the places tried, in order, for a legend inside the axes that covers no data
_INSIDE_PLACES = ("upper right", "upper left", "lower right", "lower left", "center right",
                  "center left", "upper center", "lower center", "center")
#: the most of the axes' height a legend may take once the top is raised to make room for it
_MOST_HEADROOM = 0.6


def _grouped_entries(ax: Axes, models: Sequence[ThresholdChoiceDisplay]
                     ) -> tuple[list[Any], list[str]]:
    """The legend of several models on ``ax``: one entry per model (its colour), per method
    (its line style, in grey), per certainty (its shade of grey), per role (the ROC curve,
    the hull...: its style in grey), the shared references (chance, treat all) and the
    entries a model keeps of its own (the switches of the best method), then which curves
    run off the top: a few entries instead of models x methods x certainties."""
    from matplotlib.collections import LineCollection
    from matplotlib.colors import to_rgb
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    grey = to_rgb(_KEY_GREY)
    entries: dict[str, Any] = {}
    for k, display in enumerate(models):
        text = display.name or f"model {k + 1}"
        summary = display._summary()
        entries[f"{text} ({summary})" if summary else text] = Line2D(
            [], [], color=display._colour or model_colour(k), lw=2.5)
    methods: dict[str, Any] = {}
    gammas: dict[float, Any] = {}
    roles: dict[str, Any] = {}
    shared: dict[str, Any] = {}
    own: dict[str, Any] = {}
    off_top: dict[tuple[str, float], list[str]] = {}
    for handle, label in zip(*ax.get_legend_handles_labels(), strict=True):
        key = getattr(handle, "_threshold_choice_key", None)
        if key is None or key[0] not in models:
            shared.setdefault(label, handle)
            continue
        display, method, gamma, role, keep = key
        if keep:
            own.setdefault(label, handle)
        elif method is not None:
            ls = handle.get_linestyle()
            methods.setdefault(method, Line2D([], [], color=grey, ls=ls, lw=1.6))
            if gamma is not None:
                gammas.setdefault(gamma, Line2D([], [], lw=2.5, color=_lighter(
                    grey, gamma_shade(gamma))))
                if label.endswith(OFF_TOP):
                    off_top.setdefault((method, gamma), []).append(display.name or "")
        elif role:
            if isinstance(handle, Line2D):
                roles.setdefault(role, Line2D(
                    [], [], color=grey, ls=handle.get_linestyle(), lw=handle.get_linewidth(),
                    marker=handle.get_marker(), ms=handle.get_markersize(),
                    markeredgecolor="k", markeredgewidth=0.5))
            elif isinstance(handle, LineCollection):
                roles.setdefault(role, Line2D([], [], color="0.55", lw=0.8))
            else:  # a shaded area
                roles.setdefault(role, Patch(color=grey, alpha=handle.get_alpha()))
    if len(gammas) < 2:
        gammas = {}
    notes: dict[str, Any] = {}  # one per method: its certainties and, unless all, models
    for method in dict.fromkeys(m for m, _ in off_top):
        keys = [(m, g) for m, g in off_top if m == method]
        names = list(dict.fromkeys(n for key in keys for n in off_top[key]))
        which = "" if len(names) == len(models) else f" ({', '.join(names)})"
        certainties = ", ".join(gamma_text(g) for _, g in keys)
        notes[f"{method}, \u03b3={certainties}{which}: off the top"] = Line2D(
            [], [], color=grey, ls=methods[method].get_linestyle(), lw=1.6)
    entries.update(methods)
    entries.update({gamma_legend(g): h for g, h in gammas.items()})
    for part in (roles, shared, own, notes):
        entries.update(part)
    return list(entries.values()), list(entries)


def _legends_inside(ax: Axes, groups: list[tuple[list[Any], list[str]]],
                    style: dict[str, Any], *, headroom: bool) -> list[Legend]:
    """A legend per group of entries inside ``ax``, each where it covers no data nor the
    legends placed before it, tried on the drawn geometry at :data:`_INSIDE_PLACES` in one
    column, then (a long one) in two. If one finds no such place and the y range is free
    (``headroom``), the top is raised to leave a band above the data for them (where only
    curves marked as running off the top may pass); else each goes where it covers the
    fewest curves."""
    from matplotlib.legend import Legend

    renderer = ax.figure._get_renderer()
    ax.apply_aspect()  # the box a fixed aspect (square ROC space) gives the axes when drawn

    def place(handles: list[Any], labels: list[str], boxes: list[Any], places: Sequence[str],
              lenient: bool) -> tuple[int, Legend]:
        best: tuple[int, Legend] | None = None
        for ncols in (1, 2) if len(labels) > 4 else (1,):
            for loc in places:
                legend = Legend(ax, handles, labels, loc=loc, ncols=ncols, **style)
                legend.set_figure(ax.figure)
                box = legend.get_window_extent(renderer)
                covered = _covered(ax, box, lenient) + 1000 * (
                    sum(box.overlaps(b) for b in boxes)
                    + (box.width > ax.get_window_extent(renderer).width))
                if not covered:
                    return 0, legend
                if best is None or covered < best[0]:
                    best = (covered, legend)
        assert best is not None
        return best

    def place_all(places: Sequence[str], lenient: bool) -> tuple[int, list[Legend]]:
        total, placed, boxes = 0, {}, []
        for k in sorted(range(len(groups)), key=lambda k: -len(groups[k][1])):  # big first
            covered, legend = place(*groups[k], boxes, places, lenient)
            total += covered
            placed[k] = legend
            boxes.append(legend.get_window_extent(renderer))
        return total, [placed[k] for k in range(len(groups))]

    covered, legends = place_all(_INSIDE_PLACES, lenient=False)
    if covered and headroom:  # one legend, in as many columns as fit, in a band on top
        handles = [h for group in groups for h in group[0]]
        labels = [t for group in groups for t in group[1]]
        size = ax.get_window_extent(renderer)
        fitting: list[tuple[float, int, dict[str, Any]]] = []
        for size_pt in (7, 6):  # a smaller type before giving up (too wide or too tall)
            fitting = []
            smaller = {**style, "fontsize": size_pt, "title_fontsize": size_pt}
            for ncols in (1, 2, 3):
                legend = Legend(ax, handles, labels, loc="upper right", ncols=ncols, **smaller)
                legend.set_figure(ax.figure)
                box = legend.get_window_extent(renderer)
                if box.width <= size.width - 4:  # inside, with its padding
                    fitting.append((box.height / size.height, ncols, smaller))
            if fitting and min(f[0] for f in fitting) < _MOST_HEADROOM:
                break
        short = [f for f in fitting if f[0] <= 0.4]
        if fitting and min(f[0] for f in fitting) < _MOST_HEADROOM:
            share, ncols, style = short[0] if short else min(fitting, key=lambda f: f[0])
            low, high = ax.get_ylim()
            top = low + (high - low) / (1.0 - share - 0.04)
            ax.set_ylim(low, top)
            # the costs' mark spans the axes' height: it stops below the band, as the data
            marks = [line for line in ax.get_lines() if line.get_gid() == COSTS_GID]
            for line in marks:  # two points, or three (an arrow half-way: log-odds)
                line.set_ydata(np.linspace(0.0, (high - low) / (top - low),
                                           len(line.get_ydata())))
            for loc in ("upper right", "upper left", "upper center"):
                legend = Legend(ax, handles, labels, loc=loc, ncols=ncols, **style)
                legend.set_figure(ax.figure)
                if not _covered(ax, legend.get_window_extent(renderer), lenient=True):
                    legends = [legend]
                    break
            else:
                ax.set_ylim(low, high)  # no better: as it was
                for line in marks:
                    line.set_ydata(np.linspace(0.0, 1.0, len(line.get_ydata())))
    # the last is the axes' legend (as ``ax.legend()`` makes it); the caller keeps the others
    ax.legend_ = legends[-1]
    legends[-1]._remove_method = ax._remove_legend
    return legends


def _covered(ax: Axes, box: Any, lenient: bool = False) -> int:
    """How many of ``ax``'s data artists (lines, their markers, shaded areas; not those
    marked as background) the display-space box ``box`` covers; ``lenient``: not counting
    the curves marked as running off the top."""
    from matplotlib.transforms import Bbox

    count = 0
    artists = [*ax.get_lines(), *ax.collections]
    for artist in artists:
        if not artist.get_visible() or getattr(artist, "_threshold_choice_background", False):
            continue
        if lenient and str(artist.get_label()).endswith(OFF_TOP):
            continue
        transform = artist.get_transform()
        if hasattr(artist, "get_path") and not hasattr(artist, "get_paths"):  # a Line2D
            marker = artist.get_marker()
            pad = artist.get_markersize() * ax.figure.dpi / 144.0 if marker not in (
                None, "None", "none", "", " ") else 0.0
            drawn = artist.get_linestyle() not in ("None", "none", "", " ")
            paths = [(transform.transform_path(artist.get_path()), False, drawn, pad)]
        else:
            paths = [(transform.transform_path(p), True, True, 0.0)
                     for p in artist.get_paths()]
        for path, filled, drawn, pad in paths:
            padded = Bbox.from_extents(box.x0 - pad - 1, box.y0 - pad - 1, box.x1 + pad + 1,
                                       box.y1 + pad + 1)
            v = path.vertices
            v = v[np.isfinite(v).all(axis=1)]
            inside = ((v[:, 0] >= padded.x0) & (v[:, 0] <= padded.x1)
                      & (v[:, 1] >= padded.y0) & (v[:, 1] <= padded.y1))
            if inside.any() or (drawn and len(v) > 1 and path.intersects_bbox(padded, filled)):
                count += 1
                break
    return count


def _refuse_unknown(where: str, given: Any, known: Sequence[str]) -> None:
    """A ``TypeError`` naming the first of ``given``'s keywords not in ``known`` (and the
    nearest known one), as Python's for an unexpected keyword argument."""
    import difflib

    unknown = [k for k in given if k not in known]
    if unknown:
        near = difflib.get_close_matches(unknown[0], known, n=1)
        hint = f"; did you mean {near[0]!r}?" if near else f"; it takes {', '.join(known)}"
        raise TypeError(f"{where}() got an unexpected keyword argument {unknown[0]!r}{hint}")


def _displays_on(ax: Axes) -> list[ThresholdChoiceDisplay]:
    """The Displays drawn on ``ax`` so far (kept on the axes)."""
    drawn = getattr(ax, "_threshold_choice_displays", None)
    if drawn is None:
        drawn = []
        ax._threshold_choice_displays = drawn  # type: ignore[attr-defined]
    return drawn


def save_displays(
    displays: list[ThresholdChoiceDisplay], out: str | Path
) -> dict[str, Path]:
    """Save the figure of ``displays`` (drawn on one figure) to ``out`` (png, pdf or svg) and
    their plotted numbers to the CSV beside it (``out`` with suffix ``.csv``)."""
    path = Path(out)
    ext = path.suffix.lstrip(".").lower()
    check_figure_formats([ext])
    figure = displays[0].figure_
    if figure is None:
        raise UserError("plot the displays before saving them")
    csv = path.with_suffix(".csv")
    frame = pd.concat([d.data for d in displays], ignore_index=True)
    save_figure(figure, path, beside={csv: frame.to_csv(index=False)})  # both or neither
    return {ext: path, "csv": csv}
