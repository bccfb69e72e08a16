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
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from threshold_choice.errors import UserError
from threshold_choice.estimators import (
    ThresholdChoiceClassifier,
    find_threshold_classifier,
    response_scores,
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

#: line styles of the methods when one colour is given to a whole display (several models)
_METHOD_STYLES = ("-", "--", ":", "-.", (0, (5, 1, 1, 1)), (0, (1, 3)))
#: colours of the second and later models drawn on one axes without a colour (the first keeps
#: the method colours, which these avoid)
MODEL_COLOURS = ("tab:orange", "tab:cyan", "tab:brown", "tab:pink", "tab:olive", "tab:gray")
#: legend handles long enough to tell solid, dashed and dotted apart
HANDLE_LENGTH = 3.5
#: the size of the figure a Display makes when it is given no axes (room for the legend)
FIGURE_SIZE = (8.0, 4.6)


def method_style(method: str, index: int, gamma: float, color: Any = None) -> dict[str, Any]:
    """Matplotlib line properties of a method's curve at ``gamma``: by default the method's
    colour (:func:`~threshold_choice.plotting._common.method_colour`) and the gamma's line style
    (solid inf, dashed 0, dotted between), as the project's figures; with ``color`` (one
    colour per model), the method's line style and a lighter line for lower certainty."""
    if color is None:
        colour = method_colour(method) or f"C{4 + index % 6}"
        return {"color": colour, "ls": gamma_linestyle(gamma)}
    alpha = 1.0 if math.isinf(gamma) else 0.35 + 0.65 * gamma / (gamma + 4.0)
    return {"color": color, "ls": _METHOD_STYLES[index % len(_METHOD_STYLES)], "alpha": alpha}


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
    positive class: another ``pos_label`` then needs ``X_train``."""
    classes = np.asarray(estimator.classes_)
    clf = find_threshold_classifier(estimator)
    if pos_label is None:
        pos_label = clf.pos_label_ if clf is not None else None
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
    ``plot(title="")`` for none), the legend outside the axes on the right (it never covers
    the data; a figure of the caller's without a layout engine gets the constrained layout,
    which makes room for it), legend handles long enough to tell line styles apart, and
    several models on one axes told apart: the first keeps the method colours, each later
    one (without a ``color``) gets a colour of its own (:data:`MODEL_COLOURS`), methods then
    differing by line style.

    Attributes
    ----------
    name : str or None
        The model's name, in legends, the title and the ``panel`` column of :attr:`data`.
    ax_ : matplotlib.axes.Axes or None
        The axes drawn on, set by :meth:`plot`.
    figure_ : matplotlib.figure.Figure or None
        Their figure.
    event : object
        The positive class (class 1) when known (``from_estimator``), named in axis labels.
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
    #: the positive class (class 1) when known (``from_estimator``), named in axis labels
    event: Any = None
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
            Test labels, 0 or 1 (class 1: the class the score estimates); both classes
            present.
        y_score : array-like of shape (n,)
            Test scores; probabilities of class 1 in [0, 1] for the methods that read them
            as probabilities and for decision curves, any real numbers otherwise.
        train_y : array-like of shape (n_train,), default=None
            Training labels, 0 or 1, for the methods that select on training scores
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
            For invalid labels or scores, or invalid options.

        See Also
        --------
        from_estimator : The same from a fitted classifier.
        plot : Draw the display again, on other axes.
        """
        run = RunScores.from_arrays(y_true, y_score, train_y, train_score)
        display = cls._compute(run, **kwargs)
        display.name = name
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
            ``pos_label_``, else ``classes_[1]``. Kept as the display's ``event``.
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
        UserError
            For a classifier that is not binary or has no scores, a ``pos_label`` that is
            not a class (or differs from the one the kept training scores are for), or
            invalid options.

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
        return display.plot(ax=ax, **(plot_kwargs or {})) if plot else display

    def plot(self, ax: Axes | None = None, *, name: str | None = None,
             title: str | None = None, **kwargs: Any) -> ThresholdChoiceDisplay:
        """Draw the display's numbers on a matplotlib axes.

        Another display can then draw on ``self.ax_``: several models on one axes, the first
        keeping the method colours, each later one getting a colour of its own.

        Parameters
        ----------
        ax : matplotlib.axes.Axes, default=None
            The axes; ``None``: a new pyplot figure with room for the legend (on a figure
            of the caller's without a layout engine, the constrained layout is set).
        name : str, default=None
            A new name for the model (legend and title); ``None``: keep the name it was
            built with.
        title : str, default=None
            The axes' title; ``None``: the kind of plot and the model's name (the kind alone
            once several models share the axes); ``""``: none.
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
        if ax is None:
            import matplotlib.pyplot as plt

            _, ax = plt.subplots(figsize=FIGURE_SIZE, layout="constrained")
        if name is not None:
            self.name = name
        if ax.figure.get_layout_engine() is None:
            # room for the legend outside the axes, on a figure of the caller's
            ax.figure.set_layout_engine("constrained")
        drawn = _displays_on(ax)
        self._order = len(drawn)  # 0: the first display on these axes
        if kwargs.get("color") is None and self._order and self._takes_color():
            kwargs["color"] = MODEL_COLOURS[(self._order - 1) % len(MODEL_COLOURS)]
        self._draw(ax, **kwargs)
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
        return f"{self.name}: {text}" if self.name else text

    def _finish(self, ax: Axes, xlabel: str, ylabel: str, legend_title: str | None = None) -> None:
        """The axes' labels, a light grid and the legend: the end of every ``_draw``."""
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.grid(alpha=0.25)
        self._legend(ax, legend_title)

    @staticmethod
    def _legend(ax: Axes, title: str | None = None) -> None:
        """The legend, outside the axes on the right (see the class docstring)."""
        ax.legend(fontsize=7, title=title, title_fontsize=7, loc="upper left",
                  bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, handlelength=HANDLE_LENGTH,
                  frameon=False)

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
