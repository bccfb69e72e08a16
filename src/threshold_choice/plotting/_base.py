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

import functools
import inspect
import math
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from sklearn.utils.validation import check_is_fitted

from threshold_choice import costlines
from threshold_choice.errors import UserError
from threshold_choice.estimators import (
    ThresholdChoiceClassifier,
    find_threshold_classifier,
    response_scores,
    warn_implicit_pos_label,
)
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
#: one colour per model once several share an axes (the CLI's and the library's alike): the
#: first model keeps the method colours, each later one the next of these
MODEL_COLOURS = ("tab:orange", "tab:cyan", "tab:brown", "tab:pink", "tab:olive", "tab:gray")
#: legend handles long enough to tell solid, dashed and dotted apart
HANDLE_LENGTH = 3.5
#: the size of the figure a Display makes when it is given no axes (room for the legend)
FIGURE_SIZE = (8.0, 4.6)
#: where a legend goes (:meth:`ThresholdChoiceDisplay.plot`'s ``legend``); any other text is a
#: matplotlib legend location inside the axes ("lower right", ...)
LEGEND_PLACES = ("auto", "outside", "inside")
#: ``legend="auto"`` on a caller's axes puts the legend outside only when the figure has a
#: layout engine (which makes room) and the legend is at most this fraction of the axes' width
_OUTSIDE_SHARE = 0.5


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
    # lightness by certainty, mixed towards white (an opaque colour: overlaps stay readable)
    share = 1.0 if math.isinf(gamma) else 0.35 + 0.65 * gamma / (gamma + 4.0)
    return {"color": _lighter(to_rgb(color), share),
            "ls": _METHOD_STYLES[index % len(_METHOD_STYLES)]}


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
    check_is_fitted(estimator)
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
    test_s, _ = response_scores(estimator, X, response_method, pos)
    test_y = np.asarray(y) == pos
    train_y = train_s = None
    if X_train is not None and y_train is not None:
        train_s, _ = response_scores(estimator, X_train, response_method, pos)
        train_y = np.asarray(y_train) == pos
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
    pos = pos.item() if isinstance(pos, np.generic) else pos
    return RunScores.from_arrays(test_y, test_s, train_y, train_s), pos


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
    ``"auto"``: outside the axes on the right on the Display's own figure, where it never
    covers the data; on the caller's axes outside only when their figure has a layout
    engine to make room and the legend takes at most half the axes' width, else inside;
    the caller's figure and its layout engine are left as they are, as scikit-learn's
    Displays do), legend handles long enough to tell line styles apart, axis labels that
    wrap inside the figure, and several models on one axes told apart: the first keeps the
    method colours, each later one (without a ``color``) gets a colour of its own
    (:data:`MODEL_COLOURS`), methods then differing by line style.

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
        y_true, negative = binary_labels(y_true, pos_label, "y_true")
        if train_y is not None:
            train_y, _ = binary_labels(train_y, pos_label, "train_y")
        run = RunScores.from_arrays(y_true, y_score, train_y, train_score)
        display = cls._compute(run, **kwargs)
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
        run, pos = estimator_scores(
            estimator, X, y, X_train=X_train, y_train=y_train,
            response_method=response_method, pos_label=pos_label,
        )
        display = cls._compute(run, **kwargs)
        display.name = name or model_name(estimator)
        display.event = pos
        display.negative = next(c.item() if isinstance(c, np.generic) else c
                                for c in np.asarray(estimator.classes_) if c != pos)
        return display.plot(ax=ax, **(plot_kwargs or {})) if plot else display

    def plot(self, ax: Axes | None = None, *, name: str | None = None,
             title: str | None = None, legend: str | None = "auto",
             **kwargs: Any) -> ThresholdChoiceDisplay:
        """Draw the display's numbers on a matplotlib axes.

        Another display can then draw on ``self.ax_``: several models on one axes, the first
        keeping the method colours, each later one getting a colour of its own.

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
            or it may be cut off); ``"inside"`` the axes where it covers the least data
            (matplotlib's ``loc="best"``), or a matplotlib location such as ``"lower
            right"``; ``None``: no legend. ``"auto"``: outside on the Display's own figure,
            and on the caller's axes when their figure has a layout engine and the legend
            takes at most half the axes' width (the axes keep their room); inside
            otherwise.
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
        drawn = _displays_on(ax)
        self._order = len(drawn)  # 0: the first display on these axes
        if kwargs.get("color") is None and self._order and self._takes_color():
            kwargs["color"] = MODEL_COLOURS[(self._order - 1) % len(MODEL_COLOURS)]
        if self._order == 1:  # a second model: the first one's entries now need its name
            drawn[0]._name_entries()
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
        """The axes' labels (wrapped inside the figure when longer than it leaves room for),
        a light grid and the legend: the end of every ``_draw``."""
        ax.set_xlabel(xlabel, wrap=True)
        ax.set_ylabel(ylabel, wrap=True)
        ax.grid(alpha=0.25)
        self._legend(ax, legend_title)

    def _legend(self, ax: Axes, title: str | None = None) -> Legend | None:
        """The legend where ``plot(legend=...)`` puts it (see :meth:`plot`)."""
        place = self._legend_place
        if place is None:
            old = ax.get_legend()
            if old is not None:
                old.remove()
            return None
        style = {"fontsize": 7, "title": title, "title_fontsize": 7,
                 "handlelength": HANDLE_LENGTH}
        if place in ("auto", "outside"):
            legend = ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0,
                               frameon=False, **style)
            if place == "outside" or _room_outside(ax, legend):
                return legend
            place = "inside"
        loc = "best" if place == "inside" else place
        return ax.legend(loc=loc, framealpha=0.85, **style)

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
