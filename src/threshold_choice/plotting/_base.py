"""The Display base class: compute first (``from_predictions`` / ``from_estimator`` build the
numbers and keep them as attributes), plot second (``plot(ax=...)``), as scikit-learn's
``RocCurveDisplay``.

A new kind of plot is a subclass with a ``_compute`` classmethod (scores -> the instance),
``_draw(ax, **kwargs)`` and ``_records()`` (the plotted numbers, for :attr:`data`); it gets
``from_predictions``, ``from_estimator``, ``plot`` and ``savefig`` from here.
"""

from __future__ import annotations

import functools
import inspect
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
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
    """Base class of the Displays (see the module docstring). Attributes set by
    :meth:`plot`: ``ax_``, ``figure_``; ``name`` names the model in legends, title and data.

    Drawing conventions shared by every Display: a title (the kind of plot and the model;
    ``plot(title="")`` for none), the legend outside the axes on the right (it never covers
    the data; a figure of the caller's without a layout engine gets the constrained layout,
    which makes room for it), legend handles long enough to tell line styles apart, and
    several models on one axes told apart: the first keeps the method colours, each later
    one (without a ``color``) gets a colour of its own (:data:`MODEL_COLOURS`), methods then
    differing by line style."""

    name: str | None = None
    ax_: Axes | None = None
    figure_: Any = None
    #: the kind of plot, the start of the default title
    TITLE: ClassVar[str] = ""
    #: the positive class (class 1) when known (``from_estimator``), named in axis labels
    event: Any = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Give the subclass ``from_predictions`` / ``from_estimator`` whose signatures
        (``help``, ``inspect.signature``, the docs) list its ``_compute`` options instead of
        ``**kwargs``; the options are defined once, in ``_compute``."""
        super().__init_subclass__(**kwargs)
        options = [p for p in inspect.signature(cls._compute).parameters.values()
                   if p.kind in (p.KEYWORD_ONLY, p.VAR_KEYWORD)]
        names = ", ".join(f"``{p.name}``" for p in options if p.kind == p.KEYWORD_ONLY)
        for name in ("from_predictions", "from_estimator"):
            setattr(cls, name, classmethod(_with_options(
                getattr(ThresholdChoiceDisplay, name).__func__, options,
                f"{cls.__name__}'s options: {names} (see the class docstring).")))

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
        """Compute from labels (0/1, 1 = the class the score estimates) and scores, then
        plot on ``ax`` (a new figure if ``None``; ``plot=False`` computes only).
        ``train_y``/``train_score``: the training scores, for train-optimal."""
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
        """Compute from a fitted classifier's scores on ``X`` (and on ``X_train`` for
        train-optimal, or those a ``ThresholdChoiceClassifier`` kept), then plot."""
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
        """Draw on ``ax`` (default: a new pyplot figure with room for the legend); returns
        ``self`` with ``ax_`` and ``figure_`` set. Another display can then draw on
        ``self.ax_`` (several models). ``title``: default the kind of plot and the model's
        name (the kind alone once several models share the axes); ``""`` for none."""
        if ax is None:
            import matplotlib.pyplot as plt

            _, ax = plt.subplots(figsize=FIGURE_SIZE, layout="constrained")
        if name is not None:
            self.name = name
        elif ax.figure.get_layout_engine() is None:
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


def _with_options(base: Any, options: list[inspect.Parameter], note: str) -> Any:
    """``base`` (a ``from_*`` function) under a signature ending in ``options``."""

    @functools.wraps(base)
    def method(cls: Any, *args: Any, **kwargs: Any) -> Any:
        return base(cls, *args, **kwargs)

    shared = [p for p in inspect.signature(base).parameters.values()
              if p.kind != p.VAR_KEYWORD]
    method.__signature__ = inspect.signature(base).replace(  # type: ignore[attr-defined]
        parameters=[*shared, *options])
    method.__doc__ = f"{base.__doc__}\n\n        {note}"
    return method


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
