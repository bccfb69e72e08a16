"""The implicit cost weights Display (paper ``002_...``, Figs 2 and 3): the density each scoring
rule puts on the cost proportion ``c``, drawn on ``c`` or on its log-odds.

A scoring rule that averages the regret over costs weights each cost by a belief ``w``
(:mod:`threshold_choice.cost_distributions`): the Brier score by ``uniform`` (``beta:1,1``),
Hand's H-measure by ``beta:A,B`` (``beta:2,2`` his default), the bounded Brier score by
``uniform:LO,HI``, the (bounded) log loss by ``logit-uniform:LO,HI``; accuracy puts all its
weight on ``c = 1/2``. Unlike the other Displays, this one draws beliefs, not a model's scores:
build it with :meth:`CostWeightDisplay.from_distributions`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from numpy.typing import ArrayLike
from scipy.special import expit, logit

from threshold_choice.cost_distributions import (
    WEIGHT_SCALES,
    CostDistribution,
    cost_weight_density,
    parse_cost_distribution,
)
from threshold_choice.errors import UserError
from threshold_choice.plotting._base import (
    _METHOD_STYLES,
    ThresholdChoiceDisplay,
    belief_text,
    mark_above,
)

#: the entry of ``distributions`` that stands for accuracy's point mass at ``c = 1/2``
ACCURACY = "accuracy"
#: half the width of the log-odds drawn by default (widened to hold a bounded range's ends)
_HALF_WIDTH = 8.0
_POINTS = 1601
#: colours of the densities, in order (accuracy's point mass is black)
_COLOURS = ("tab:blue", "tab:green", "tab:red", "tab:purple", "tab:orange", "tab:brown",
            "tab:cyan", "tab:olive")
#: the cost proportions marked on the top axis of the log-odds scale
_TOP_TICKS = (0.001, 0.01, 0.1, 0.5, 0.9, 0.99, 0.999)


def implied_name(distribution: str | CostDistribution | None) -> str:
    """The legend text of a belief: the scoring rule it is the weighting of, and its spec
    (``"H-measure (beta:2,2)"``); ``"accuracy"`` gives accuracy's point mass."""
    if isinstance(distribution, str) and distribution.strip().lower() == ACCURACY:
        return "accuracy (point mass at c = 1/2)"
    dist = parse_cost_distribution(distribution)
    if dist.kind == "beta":
        rule = "Brier score" if dist.p == dist.q == 1.0 else "H-measure"
    elif dist.kind == "uniform":
        rule = "Brier score" if dist.is_standard_uniform else "bounded Brier score"
    else:
        rule = "log loss"
    return f"{rule} ({belief_text(dist)})"


def _grid(dists: list[CostDistribution], scale: str) -> np.ndarray:
    """The points drawn: evenly spaced, with both sides of every jump of a bounded range."""
    jumps = np.array([j for d in dists for j in d.jumps], dtype=np.float64)
    if scale == "cost":
        x = np.linspace(0.0, 1.0, 1001)
    else:
        jumps = logit(jumps)
        half = max([_HALF_WIDTH, *(np.abs(jumps) + 1.0)])
        x = np.linspace(-half, half, _POINTS)
    step = 1e-9 * (x[-1] - x[0])
    return np.unique(np.concatenate([x, jumps, jumps - step, jumps + step]))


class CostWeightDisplay(ThresholdChoiceDisplay):
    """The implicit weights of the scoring rules on the cost proportion (paper 002, Figs 2, 3).

    One line per belief ``w`` about the cost proportion ``c``
    (:func:`~threshold_choice.cost_weight_density`), on ``c`` (``scale="cost"``) or on its
    log-odds ``z = logit(c)`` (``scale="log-odds"``, the default; a top axis gives ``c``),
    labelled by the scoring rule it makes of the average regret: "Brier score (uniform)",
    "H-measure (beta:2,2)", "log loss (logit-uniform:0.001,0.999)"... The entry
    ``"accuracy"`` is accuracy's point mass at ``c = 1/2`` (``z = 0``), a vertical dashed
    line. On ``c`` the Brier score's weight is flat and the log loss's peaks at the ends; on
    ``z`` the Brier score's is the logistic density, unimodal at 0, and the log loss's flat.
    Build with :meth:`from_distributions` (it has no ``from_predictions``: no scores).

    Parameters
    ----------
    curves : pandas.DataFrame
        ``label, spec, x, density``: the densities drawn, long format, ``x`` on ``scale``.
    point_masses : pandas.DataFrame
        ``label, x``: the point masses (accuracy's), at ``x`` on ``scale``.
    scale : {"cost", "log-odds"}
        The variable ``x`` is (``c`` or ``logit(c)``).
    name : str or None, default=None
        A name for the set of beliefs (the ``panel`` column of ``data``, the title).

    See Also
    --------
    threshold_choice.cost_weight_density : The densities.
    threshold_choice.parse_cost_distribution : The beliefs' specs.
    ThresholdChoiceDisplay : The base: ``ax_``, ``figure_``, ``data``, :meth:`plot`.

    Notes
    -----
    ``data`` has the kind ``"density of c"`` or ``"density of logit(c)"`` for the lines and
    ``"point mass"`` for accuracy's (``y`` infinite). The drawing options of :meth:`plot`:
    ``lw``, the lines' width.

    Examples
    --------
    >>> from threshold_choice.plotting import CostWeightDisplay
    >>> display = CostWeightDisplay.from_distributions(
    ...     ["uniform", "beta:2,2", "logit-uniform:0.001,0.999", "accuracy"])
    >>> list(display.curves["label"].unique())
    ['Brier score (uniform)', 'H-measure (beta:2,2)', 'log loss (logit-uniform:0.001,0.999)']
    >>> at_zero = display.curves[display.curves["x"] == 0.0]
    >>> [round(v, 4) for v in at_zero["density"]]  # 1/4, 3/8, 1 / (2 logit(0.999))
    [0.25, 0.375, 0.0724]
    >>> display.point_masses.to_dict("records")
    [{'label': 'accuracy (point mass at c = 1/2)', 'x': 0.0}]

    On the cost proportion, Zhu et al.'s Beta(2, 8) named as such:

    >>> display = CostWeightDisplay.from_distributions(
    ...     ["uniform", "beta:2,8"], scale="cost", names=["Brier score", "Zhu et al."],
    ...     plot=False)
    >>> round(float(display.curves["density"].max()), 4)  # Beta(2, 8) at its mode 1/8
    3.5343
    """

    TITLE = "Implicit weights of the cost proportion"
    FROM_SCORES = False

    def __init__(
        self,
        *,
        curves: pd.DataFrame,
        point_masses: pd.DataFrame,
        scale: str,
        name: str | None = None,
    ) -> None:
        self.curves = curves
        self.point_masses = point_masses
        self.scale = scale
        self.name = name

    @classmethod
    def from_distributions(
        cls,
        distributions: Sequence[str | CostDistribution | None] | str,
        *,
        scale: str = "log-odds",
        names: Sequence[str] | None = None,
        x: ArrayLike | None = None,
        name: str | None = None,
        ax: Axes | None = None,
        plot: bool = True,
        plot_kwargs: dict[str, Any] | None = None,
    ) -> CostWeightDisplay:
        """Compute the densities of beliefs about ``c``, then plot them.

        Parameters
        ----------
        distributions : sequence of str or CostDistribution, or str
            The beliefs, as :func:`~threshold_choice.parse_cost_distribution` takes them
            (``"uniform"``, ``"beta:2,2"``, ``"logit-uniform:0.001,0.999"``...), and
            ``"accuracy"`` for accuracy's point mass at ``c = 1/2``; one string: one belief.
        scale : {"log-odds", "cost"}, default="log-odds"
            The variable drawn: the log-odds ``z = logit(c)`` or ``c`` itself.
        names : sequence of str, default=None
            The legend labels, one per distribution; ``None``: the scoring rule each belief
            weights the regret for and its spec ("H-measure (beta:2,2)").
        x : array-like of float, default=None
            The points drawn, on ``scale``; ``None``: 1001 points of [0, 1] on ``c``, 1601
            of [-8, 8] on ``z`` (widened to hold the ends of a bounded range), with both
            sides of each end of a bounded range.
        name : str, default=None
            A name for the set (the title and the ``panel`` column of ``data``).
        ax : matplotlib.axes.Axes, default=None
            The axes to draw on; ``None``: a new figure.
        plot : bool, default=True
            Draw the display; ``False``: compute only.
        plot_kwargs : dict, default=None
            Keyword arguments of :meth:`plot`.

        Returns
        -------
        CostWeightDisplay
            The display, drawn unless ``plot=False``.

        Raises
        ------
        UserError
            For an unknown ``scale``, an invalid spec, no distribution, or ``names`` of
            another length than ``distributions``.

        See Also
        --------
        plot : Draw the display again, on other axes.

        Examples
        --------
        >>> from threshold_choice.plotting import CostWeightDisplay
        >>> display = CostWeightDisplay.from_distributions("beta:2,2", scale="cost",
        ...                                                 plot=False)
        >>> float(display.curves["density"].max())
        1.5
        """
        if scale not in WEIGHT_SCALES:
            raise UserError(f"scale must be one of {', '.join(WEIGHT_SCALES)}; got {scale!r}")
        entries = [distributions] if isinstance(distributions, str) else list(distributions)
        if not entries:
            raise UserError("give at least one distribution (e.g. uniform, beta:2,2)")
        if names is not None and len(names) != len(entries):
            raise UserError(f"names needs one label per distribution ({len(entries)}), got "
                            f"{len(names)}")
        labels = list(names) if names is not None else [implied_name(e) for e in entries]
        is_mass = [isinstance(e, str) and e.strip().lower() == ACCURACY for e in entries]
        dists = {i: parse_cost_distribution(e)
                 for i, (e, mass) in enumerate(zip(entries, is_mass, strict=True)) if not mass}
        if x is None:
            points = _grid(list(dists.values()), scale)
        else:
            points = np.sort(np.atleast_1d(np.asarray(x, dtype=np.float64)).ravel())
            if points.size < 2 or not np.all(np.isfinite(points)):
                raise UserError("x must be at least two finite points")
        rows = [pd.DataFrame({"label": labels[i], "spec": d.spec, "x": points,
                              "density": cost_weight_density(d, points, scale)})
                for i, d in dists.items()]
        curves = (pd.concat(rows, ignore_index=True) if rows else
                  pd.DataFrame(columns=["label", "spec", "x", "density"]))
        centre = 0.5 if scale == "cost" else 0.0
        masses = pd.DataFrame({"label": [lab for lab, m in zip(labels, is_mass, strict=True)
                                         if m],
                               "x": [centre] * sum(is_mass)})
        display = cls(curves=curves, point_masses=masses, scale=scale, name=name)
        return display.plot(ax=ax, **(plot_kwargs or {})) if plot else display

    @classmethod
    def from_predictions(cls, *args: Any, **kwargs: Any) -> CostWeightDisplay:
        """Refuse: a display of beliefs about ``c`` has no scores.

        Parameters
        ----------
        *args, **kwargs
            Ignored.

        Returns
        -------
        CostWeightDisplay
            Never returns.

        Raises
        ------
        UserError
            Always: use :meth:`from_distributions`.

        Examples
        --------
        >>> from threshold_choice import UserError
        >>> from threshold_choice.plotting import CostWeightDisplay
        >>> try:
        ...     CostWeightDisplay.from_predictions([0, 1], [0.2, 0.8])
        ... except UserError as error:
        ...     print(error)
        CostWeightDisplay draws beliefs about c, not scores: use from_distributions
        """
        raise UserError("CostWeightDisplay draws beliefs about c, not scores: use "
                        "from_distributions")

    from_estimator = from_predictions

    def _draw(self, ax: Axes, *, lw: float = 1.8) -> None:
        """Draw the densities, the point masses, the axes' labels and the legend."""
        start = sum(1 for line in ax.get_lines() if not line.get_label().startswith("_"))
        densities = [g for _, g in self.curves.groupby("label", sort=False)]
        peak = 0.0
        for i, group in enumerate(densities):
            k = start + i
            x, y = group["x"].to_numpy(), group["density"].to_numpy()
            ax.plot(x, y, color=_COLOURS[k % len(_COLOURS)],
                    ls=_METHOD_STYLES[k % len(_METHOD_STYLES)], lw=lw,
                    label=str(group["label"].iloc[0]), zorder=3)
            peak = max(peak, self._shown_peak(x, y))
        for row in self.point_masses.itertuples():
            ax.axvline(row.x, color="black", ls=(0, (4, 2)), lw=lw * 0.8, zorder=2,
                       label=f"{row.label}")
            ax.annotate("point mass", xy=(row.x, 0.97), xycoords=("data", "axes fraction"),
                        xytext=(3, 0), textcoords="offset points", ha="left", va="top",
                        fontsize=7, rotation=90)
        old = ax.get_ylim()[1] if getattr(ax, "_threshold_choice_displays", None) else 0.0
        top = max(old, 1.12 * peak if peak > 0 else 1.0)
        ax.set_ylim(0.0, top)
        # a density above the top says so (the curves: not the two-point marks)
        mark_above([line for line in ax.get_lines() if np.size(line.get_ydata()) > 2], top)
        if self.scale == "cost":
            ax.set_xlim(0.0, 1.0)
            xlabel, ylabel = "cost proportion c", "density of c,  w(c)"
        else:
            if self.curves.empty:
                ax.set_xlim(-_HALF_WIDTH, _HALF_WIDTH)
            else:
                ax.set_xlim(float(self.curves["x"].min()), float(self.curves["x"].max()))
            xlabel = "log-odds of the cost,  z = log(c / (1 \u2212 c))"
            ylabel = "density of z,  w(c) c (1 \u2212 c)"
            if not getattr(ax, "_threshold_choice_displays", None):
                top_axis = ax.secondary_xaxis("top", functions=(_expit, _logit))
                lo, hi = ax.get_xlim()
                ticks = [c for c in _TOP_TICKS if lo <= logit(c) <= hi]
                top_axis.set_xticks(ticks, [f"{c:g}" for c in ticks], fontsize=8)
                top_axis.set_xlabel("cost proportion c", fontsize=9)
        self._finish(ax, xlabel, ylabel, legend_title="belief about c (scoring rule)")

    def _shown_peak(self, x: np.ndarray, y: np.ndarray) -> float:
        """The height a density sets the y range to: its maximum, but on ``c`` away from the
        ends (2% each side), where the log loss's density grows without bound."""
        if self.scale == "cost":
            inner = (x >= 0.02) & (x <= 0.98)
            if inner.any():
                return float(np.nanmax(y[inner]))
        return float(np.nanmax(y))

    def _records(self) -> Iterator[tuple[str, str, ArrayLike, ArrayLike]]:
        kind = "density of c" if self.scale == "cost" else "density of logit(c)"
        for label, group in self.curves.groupby("label", sort=False):
            yield kind, str(label), group["x"], group["density"]
        for row in self.point_masses.itertuples():
            yield "point mass", row.label, [row.x], [np.inf]


def _expit(z: ArrayLike) -> np.ndarray:
    return expit(np.asarray(z, dtype=np.float64))


def _logit(c: ArrayLike) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        return logit(np.clip(np.asarray(c, dtype=np.float64), 1e-300, 1.0 - 1e-16))


__all__ = ["CostWeightDisplay", "implied_name"]
