"""The Display base class: compute first (``from_predictions`` / ``from_estimator`` build the
numbers and keep them as attributes), plot second (``plot(ax=...)``), as scikit-learn's
``RocCurveDisplay``.

A new kind of plot is a subclass with a ``_compute`` classmethod (scores -> the instance),
``_draw(ax, **kwargs)`` and ``_records()`` (the plotted numbers, for :attr:`data`); it gets
``from_predictions``, ``from_estimator``, ``plot`` and ``savefig`` from here.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from numpy.typing import ArrayLike

from threshold_choice.errors import UserError
from threshold_choice.estimators import find_threshold_classifier, response_scores
from threshold_choice.plotting._common import (
    METHOD_COLOURS,
    FigureData,
    RunScores,
    check_figure_formats,
    gamma_linestyle,
    gamma_text,
    save_figure,
)

#: line styles of the methods when one colour is given to a whole display (several models)
_METHOD_STYLES = ("-", "--", ":", "-.", (0, (5, 1, 1, 1)), (0, (1, 3)))


def method_style(method: str, index: int, gamma: float, color: Any = None) -> dict[str, Any]:
    """Matplotlib line properties of a method's curve at ``gamma``: by default the method's
    colour (:data:`~threshold_choice.plotting._common.METHOD_COLOURS`) and the gamma's line style
    (solid inf, dashed 0, dotted between), as the project's figures; with ``color`` (one
    colour per model), the method's line style and a lighter line for lower certainty."""
    if color is None:
        colour = METHOD_COLOURS.get(method, f"C{4 + index % 6}")
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
) -> RunScores:
    """Test (and training) labels 0/1 and scores of a fitted classifier. Training scores:
    from ``X_train``/``y_train``, else those a fitted
    :class:`~threshold_choice.estimators.ThresholdChoiceClassifier` kept (train-optimal),
    which are for its own ``pos_label``: another ``pos_label`` then needs ``X_train``."""
    classes = np.asarray(estimator.classes_)
    pos = classes[-1] if pos_label is None else pos_label
    test_s, _ = response_scores(estimator, X, response_method, pos)
    test_y = np.asarray(y) == pos
    train_y = train_s = None
    if X_train is not None and y_train is not None:
        train_s, _ = response_scores(estimator, X_train, response_method, pos)
        train_y = np.asarray(y_train) == pos
    elif (clf := find_threshold_classifier(estimator)) is not None:
        kept = clf.pos_label_
        if kept != pos:
            # numpy scalars as plain values in the message (1, not np.int64(1))
            kept, pos = (v.item() if isinstance(v, np.generic) else v for v in (kept, pos))
            raise UserError(
                f"the training scores the fitted {type(clf).__name__} kept are for pos_label="
                f"{kept!r}, not {pos!r}: pass X_train and y_train, or pos_label={kept!r}"
            )
        train_y, train_s = clf.train_labels_, clf.train_scores_
    return RunScores.from_arrays(test_y, test_s, train_y, train_s)


class ThresholdChoiceDisplay:
    """Base class of the Displays (see the module docstring). Attributes set by
    :meth:`plot`: ``ax_``, ``figure_``; ``name`` names the model in legends and data."""

    name: str | None = None
    ax_: Axes | None = None
    figure_: Any = None

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
        run = estimator_scores(
            estimator, X, y, X_train=X_train, y_train=y_train,
            response_method=response_method, pos_label=pos_label,
        )
        display = cls._compute(run, **kwargs)
        display.name = name or type(estimator).__name__
        return display.plot(ax=ax, **(plot_kwargs or {})) if plot else display

    def plot(self, ax: Axes | None = None, *, name: str | None = None,
             **kwargs: Any) -> ThresholdChoiceDisplay:
        """Draw on ``ax`` (default: new pyplot axes); returns ``self`` with ``ax_`` and
        ``figure_`` set. Another display can then draw on ``self.ax_`` (several models)."""
        if ax is None:
            import matplotlib.pyplot as plt

            _, ax = plt.subplots()
        if name is not None:
            self.name = name
        self._draw(ax, **kwargs)
        self.ax_, self.figure_ = ax, ax.figure
        return self

    def _label(self, text: str) -> str:
        return f"{self.name}: {text}" if self.name else text

    @property
    def data(self) -> pd.DataFrame:
        """The plotted numbers, long format (columns ``panel, kind, series, x, y`` as the
        project's figure CSVs; ``panel`` = the model's name)."""
        data = FigureData()
        for kind, series, x, y in self._records():
            data.add(self.name or "", kind, series, x, y)
        return data.frame()


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
