"""What the Displays and the paper's figures share, without importing matplotlib.

* :class:`RunScores`: the labels and scores of one run (test part, and the training part for
  train-optimal);
* :class:`FigureData`: the plotted numbers as a tidy frame (:data:`DATA_COLUMNS`, the
  figure CSVs' columns);
* the style: :func:`method_colour`, :func:`gamma_linestyle`, :func:`gamma_text`, and
  :func:`c_grid`, the points of ``c`` a curve is drawn at;
* the files: :data:`FIGURE_FORMATS`, :data:`ALLOWED_FIGURE_FORMATS`,
  :func:`check_figure_formats`, :func:`save_figure` (atomic).

Conventions are the package's: class 1 is the class the score estimates, ``c`` the cost
proportion, ``gamma = inf`` complete certainty and ``gamma = 0`` complete uncertainty.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike, NDArray

from threshold_choice.atomic import atomic_output
from threshold_choice.costlines import CostLines, validate_scores
from threshold_choice.errors import UserError
from threshold_choice.methods import Selection, method_spec
from threshold_choice.uncertainty import format_gamma

if TYPE_CHECKING:  # matplotlib is imported by the drawing only
    from matplotlib.figure import Figure

#: the columns of a figure's plotted numbers (long format)
DATA_COLUMNS: tuple[str, ...] = ("panel", "kind", "series", "x", "y")



def method_colour(method: str) -> str | None:
    """The colour of a method's curves, from its record (Fig. 1 of the paper: train-optimal
    blue, score-driven red, test-optimal green); ``None`` when it has none."""
    return method_spec(method).colour

#: Figure formats written by default, and all that can be asked for.
FIGURE_FORMATS: tuple[str, ...] = ("png", "pdf")
ALLOWED_FIGURE_FORMATS: tuple[str, ...] = ("png", "pdf", "svg")

_GRID = 1001  # points of c for the curves
_DPI = 150


@dataclass(frozen=True)
class RunScores:
    """Labels (0/1) and scores of one run: the test part and, for train-optimal, the
    training part (the model's scores on its own training data)."""

    test_y: NDArray[np.int8]
    test_s: NDArray[np.float64]
    train_y: NDArray[np.int8] | None = None
    train_s: NDArray[np.float64] | None = None

    @classmethod
    def from_arrays(
        cls,
        test_y: ArrayLike,
        test_s: ArrayLike,
        train_y: ArrayLike | None = None,
        train_s: ArrayLike | None = None,
    ) -> RunScores:
        # checked as the library checks scores (labels 0/1, finite scores, both classes):
        # a label 0.5 or "yes" is refused, not cast
        y, s = validate_scores(test_y, test_s, what="test scores")
        if train_y is None or train_s is None:
            return cls(y, s, None, None)
        ty, ts = validate_scores(train_y, train_s, what="training scores")
        return cls(y, s, ty, ts)

    @classmethod
    def from_frame(cls, scores: pd.DataFrame, split: int = 1) -> RunScores:
        """From the scores of one (dataset, model): columns ``split, part, row, label,
        score`` (``part`` is ``train`` or ``test``); rows of ``split`` ordered by ``row``."""
        missing = {"split", "part", "row", "label", "score"} - set(scores.columns)
        if missing:
            raise UserError(f"scores lack column(s) {', '.join(sorted(missing))}")
        one = scores[scores["split"] == split].sort_values(["part", "row"])
        if one.empty:
            raise UserError(
                f"no scores for split {split}; splits: {sorted(scores['split'].unique())}"
            )
        test = one[one["part"] == "test"]
        train = one[one["part"] == "train"]
        if test.empty:
            raise UserError(f"split {split} has no test scores")
        return cls.from_arrays(
            test["label"],
            test["score"],
            None if train.empty else train["label"],
            None if train.empty else train["score"],
        )

    def lines(self, kind: type[CostLines] = CostLines) -> tuple[CostLines, CostLines | None]:
        """The test and (if given) training lines of ``kind`` (:class:`CostLines`, or
        :class:`~threshold_choice.fmeasure.FCostLines`)."""
        test = kind.from_scores(self.test_y, self.test_s, what="test scores")
        train = None
        if self.train_y is not None and self.train_s is not None:
            train = kind.from_scores(self.train_y, self.train_s, what="training scores")
        return test, train


class FigureData:
    """Collects the rows of a figure's frame (:data:`DATA_COLUMNS`), in drawing order. The
    series are kept as arrays and made one frame at the end: a figure of cost lines has
    hundreds of series, and a frame per series cost more than the drawing's data."""

    def __init__(self) -> None:
        self._labels: list[tuple[str, str, str]] = []
        self._x: list[np.ndarray] = []
        self._y: list[np.ndarray] = []

    def add(self, panel: str, kind: str, series: str, x: ArrayLike, y: ArrayLike) -> None:
        x_arr = np.atleast_1d(np.asarray(x, dtype=float))
        y_arr = np.atleast_1d(np.asarray(y, dtype=float))
        n = max(x_arr.size, y_arr.size)
        self._labels.append((panel, kind, series))
        self._x.append(np.broadcast_to(x_arr, n))
        self._y.append(np.broadcast_to(y_arr, n))

    def frame(self) -> pd.DataFrame:
        if not self._labels:
            return pd.DataFrame(columns=list(DATA_COLUMNS))
        counts = [x.size for x in self._x]
        labels = {name: np.repeat(np.array([t[k] for t in self._labels], dtype=object),
                                  counts)
                  for k, name in enumerate(DATA_COLUMNS[:3])}
        return pd.DataFrame({**labels, "x": np.concatenate(self._x),
                             "y": np.concatenate(self._y)})


#: metadata that would make two writes of the same figure differ (the creation date), per format
_NO_DATE: dict[str, dict[str, None]] = {"pdf": {"CreationDate": None}, "svg": {"Date": None}}


def save_figure(fig: Figure, path: Path, *, beside: Mapping[Path, str] | None = None) -> None:
    """Write ``fig`` to ``path`` (format from its suffix) atomically, and the texts of
    ``beside`` (path -> text, e.g. the plotted numbers' CSV) with it: every file is written
    to a temporary one first, and none replaces its target unless all were written (a full
    disk leaves the old files, not a new figure beside an old CSV). The same figure gives the
    same bytes in every format: no creation date in PDF and SVG, and SVG's element ids from a
    fixed salt instead of a random one."""
    import contextlib

    import matplotlib

    fmt = path.suffix.lstrip(".")
    with contextlib.ExitStack() as stack:
        for other, text in (beside or {}).items():
            tmp_text = stack.enter_context(atomic_output(other))
            tmp_text.write_text(text, encoding="utf-8", newline="")
        tmp = stack.enter_context(atomic_output(path))
        with matplotlib.rc_context({"svg.hashsalt": "threshold-choice"}):
            if fmt == "png":
                _save_png(fig, tmp)
            else:
                fig.savefig(tmp, format=fmt, dpi=_DPI, metadata=_NO_DATE.get(fmt))


def _save_png(fig: Figure, path: Path) -> None:
    """``fig`` as a PNG with a palette of 256 colours: line art loses nothing visible and
    the file is about a third of the full-colour one (the report's figures: 3.2 -> 1.1 MB).
    Median-cut quantisation is deterministic: the same figure gives the same bytes. The
    full-colour PNG in between is written uncompressed: it is decoded at once, and its
    compression took 0.2 s a figure (the same pixels, so the same file)."""
    from PIL import Image

    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=_DPI, pil_kwargs={"compress_level": 0})
    buffer.seek(0)
    with Image.open(buffer) as image:
        quantised = image.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT)
        quantised.save(path, format="PNG", optimize=True)


def cost_proportions(costs: ArrayLike | None) -> NDArray[np.float64]:
    """``costs`` (none, one or several cost proportions) as an array, each checked to lie in
    [0, 1] (the points a Display marks at given costs)."""
    c = np.atleast_1d(np.asarray([] if costs is None else costs, dtype=np.float64))
    bad = ~((c >= 0.0) & (c <= 1.0))
    if bad.any():
        raise UserError(f"cost proportions must be in [0, 1], got {c[bad][0]}")
    return c


def clipped_span(
    x: NDArray[np.float64], y: NDArray[np.float64], ends: ArrayLike
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The drawn curve ``(x, y)`` (increasing ``x``, straight between points) cut to ``x`` in
    ``ends = (low, high)``, its values at the ends interpolated: what a shading over exactly
    that range follows."""
    low, high = (float(v) for v in np.asarray(ends, dtype=np.float64))
    inside = (x > low) & (x < high)
    span = np.concatenate(([low], x[inside], [high]))
    return span, np.interp(span, x, y)


def check_figure_formats(formats: Sequence[str]) -> tuple[str, ...]:
    """``formats`` as a tuple after checking each is one of :data:`ALLOWED_FIGURE_FORMATS`."""
    formats = tuple(formats)
    bad = [f for f in formats if f not in ALLOWED_FIGURE_FORMATS]
    if not formats or bad or len(set(formats)) != len(formats):
        raise UserError(
            f"figure formats must be distinct values among {', '.join(ALLOWED_FIGURE_FORMATS)}, "
            f"got {list(formats)}"
        )
    return formats


def gamma_text(gamma: float) -> str:
    """A certainty level as plotted: infinity as its sign, others as :func:`format_gamma`."""
    return "\u221e" if math.isinf(gamma) else format_gamma(gamma)


def gamma_linestyle(gamma: float) -> str:
    """The line style of a curve at ``gamma``: solid inf, dashed 0, dotted between."""
    if math.isinf(gamma):
        return "-"
    return "--" if gamma == 0 else ":"


#: the most jumps of a curve at gamma = inf drawn vertically (evenly spaced in their order)
_MAX_BREAKS = 5000


def c_grid(sel: Selection, gamma: float) -> NDArray[np.float64]:
    """The c grid of a curve; at gamma = inf the curve jumps at the method's break points,
    so the points just either side of each break are added to draw the jumps vertically."""
    c = np.linspace(0.0, 1.0, _GRID)
    if math.isinf(gamma):
        b = sel.breaks[np.isfinite(sel.breaks) & (sel.breaks > 0) & (sel.breaks < 1)]
        if b.size > _MAX_BREAKS:  # a large test set: the jumps a figure can show
            b = b[np.unique(np.linspace(0, b.size - 1, _MAX_BREAKS).round().astype(int))]
        c = np.unique(np.concatenate([c, b - 1e-9, b + 1e-9]).clip(0.0, 1.0))
    return c


__all__ = [
    "ALLOWED_FIGURE_FORMATS",
    "DATA_COLUMNS",
    "FIGURE_FORMATS",
    "FigureData",
    "RunScores",
    "c_grid",
    "check_figure_formats",
    "clipped_span",
    "gamma_linestyle",
    "gamma_text",
    "method_colour",
    "save_figure",
]
