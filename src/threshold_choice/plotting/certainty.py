"""Expected loss against the certainty ``gamma`` as a continuous curve, one per method, with
the certainties where the best method changes marked (the paper's Fig. 5 for one model).

The x axis is ``u = 1 / (1 + gamma)``: 0 is an exactly known cost (``gamma = inf``), 1 no
information (``gamma = 0``), ``gamma = 1`` sits at 1/2; ticks are labelled with ``gamma``.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from numpy.typing import ArrayLike, NDArray

from threshold_choice.bootstrap import bootstrap
from threshold_choice.evaluation import LossSettings, expected_losses, loss_settings
from threshold_choice.methods import ORACLES
from threshold_choice.plotting._base import ThresholdChoiceDisplay, method_style
from threshold_choice.plotting._common import RunScores, gamma_text
from threshold_choice.plotting.cost_curves import default_methods
from threshold_choice.uncertainty import parse_gamma

_TICK_GAMMAS = (math.inf, 16.0, 4.0, 1.0, 0.25, 0.0)
#: line styles of the vertical lines at the switches of the best method, in order: long-dash
#: patterns none of the methods' lines use (with several models a method is a line style:
#: ``_base._METHOD_STYLES``), each line ending in a triangle at its top
_SWITCH_STYLES = ((0, (8, 3)), (0, (8, 3, 1, 3)), (0, (8, 3, 1, 3, 1, 3)), (0, (14, 4)))


def to_uncertainty(gamma: ArrayLike) -> NDArray[np.float64]:
    """``u = 1 / (1 + gamma)`` (``inf`` -> 0)."""
    g = np.asarray(gamma, dtype=np.float64)
    with np.errstate(divide="ignore"):
        return np.where(np.isinf(g), 0.0, 1.0 / (1.0 + g))


def from_uncertainty(u: ArrayLike) -> NDArray[np.float64]:
    """``gamma = 1 / u - 1`` (``u = 0`` -> inf)."""
    u_arr = np.asarray(u, dtype=np.float64)
    with np.errstate(divide="ignore"):
        return np.where(u_arr == 0, np.inf, 1.0 / u_arr - 1.0)


def default_gammas(points: int = 21) -> list[float]:
    """``points`` certainties equally spaced in ``u = 1 / (1 + gamma)``, inf to 0."""
    return [float(g) for g in from_uncertainty(np.linspace(0.0, 1.0, points))]


class CertaintyDisplay(ThresholdChoiceDisplay):
    """Expected loss against the certainty gamma per method, with the switches of the best.

    One continuous curve per method (the paper's Fig. 5 for one model), on the x axis
    ``u = 1 / (1 + gamma)``: 0 is an exactly known cost (``gamma = inf``), 1 no information
    (``gamma = 0``), ``gamma = 1`` at 1/2; ticks are labelled with gamma. The certainties
    where the best non-oracle method changes are marked and named. Build with
    :meth:`from_predictions` or :meth:`from_estimator`.

    Parameters
    ----------
    losses : pandas.DataFrame
        ``method, gamma, expected_loss`` (and ``lower, upper`` with bootstrap bands), on
        the gammas computed.
    switches : pandas.DataFrame
        ``gamma, before, after, expected_loss``: where the best non-oracle method changes
        from ``before`` (higher certainty) to ``after``, located by bisection in ``u``
        between the grid points where it changes, then by linear interpolation.
    name : str or None, default=None
        The model's name.

    See Also
    --------
    CostCurveDisplay : The curves ``K(c)`` behind each expected loss.
    threshold_choice.expected_losses : The losses at given gammas.
    ThresholdChoiceDisplay : Their base: ``ax_``, ``figure_``, ``data``, :meth:`plot`.

    Notes
    -----
    :meth:`plot` (or ``plot_kwargs``) takes ``color``, one colour for the whole display when
    several models share the axes (the methods then told apart by line style),
    ``band_alpha`` (the bands' opacity, 0.2), and keywords of ``Axes.plot`` for the curves.

    Examples
    --------
    >>> import math
    >>> from threshold_choice.plotting import CertaintyDisplay
    >>> display = CertaintyDisplay.from_predictions(
    ...     [0, 0, 1, 0, 1, 1, 0, 1], [0.1, 0.3, 0.35, 0.4, 0.6, 0.8, 0.7, 0.9],
    ...     gammas=[math.inf, 0.0], refine=0)
    >>> type(display.ax_).__name__, len(display.losses)  # 2 methods x 2 gammas
    ('Axes', 4)
    >>> display.switches.round(4)  # no bisection: interpolated between inf and 0
        gamma        before        after  expected_loss
    0  2.9268  score-driven  rate-driven         0.2195

    From a fitted classifier (its own name in the title):

    >>> from sklearn.datasets import make_classification
    >>> from sklearn.naive_bayes import GaussianNB
    >>> X, labels = make_classification(n_samples=200, n_features=4, random_state=1)
    >>> model = GaussianNB().fit(X[:100], labels[:100])
    >>> display = CertaintyDisplay.from_estimator(model, X[100:], labels[100:],
    ...                                           gammas=[math.inf, 0.0], refine=0)
    >>> display.ax_.get_title()
    'Expected loss against certainty: GaussianNB'
    """

    TITLE = "Expected loss against certainty"
    COSTS_MARKED = None  # it averages over every cost proportion
    DEFAULT_METHODS: tuple[str, ...] = ("train-optimal", "score-driven", "rate-driven")

    def __init__(self, *, losses: pd.DataFrame, switches: pd.DataFrame,
                 name: str | None = None) -> None:
        self.losses = losses
        self.switches = switches
        self.name = name

    @classmethod
    def _compute(
        cls,
        run: RunScores,
        *,
        methods: Sequence[str] | None = None,
        gammas: Sequence[float] | None = None,
        settings: LossSettings | Mapping[str, Any] | None = None,
        refine: int = 4,
        n_boot: int = 0,
        seed: int | None = 0,
        confidence: float = 0.95,
        **settings_kwargs: Any,
    ) -> CertaintyDisplay:
        """Compute the expected losses on the gammas and the switches of the best method.

        Parameters
        ----------
        run : RunScores
            The labels and scores of the test part (and of the training part).
        methods : sequence of str, default=None
            The threshold choice methods; ``None``: train-optimal (with training scores),
            score-driven, rate-driven.
        gammas : sequence of float, default=None
            The certainties (sorted, duplicates dropped); ``None``:
            :func:`~threshold_choice.plotting.certainty.default_gammas`,
            21 points equally spaced in ``u`` (each new gamma costs a moment table, about
            half a second once per machine).
        settings : LossSettings, Mapping or None, default=None
            The estimator and the operating conditions
            (:class:`~threshold_choice.evaluation.LossSettings` or a mapping of its fields).
        refine : int, default=4
            Bisection steps locating each change of the best method (each computes the
            losses of the two methods at one more gamma).
        n_boot : int, default=0
            More than 0: percentile bands from that many bootstrap replicates of the test
            set (:func:`~threshold_choice.bootstrap.bootstrap`, stratified).
        seed : int or None, default=0
            The seed of the bootstrap replicates.
        confidence : float, default=0.95
            The level of the bands.
        **settings_kwargs : dict
            :class:`~threshold_choice.evaluation.LossSettings` fields replacing those of
            ``settings``.

        Returns
        -------
        CertaintyDisplay
            The display, not drawn.
        """
        chosen = loss_settings(settings, **settings_kwargs)
        methods = default_methods(methods, cls.DEFAULT_METHODS, run)
        grid = sorted({parse_gamma(g) for g in (gammas or default_gammas())}, reverse=True)
        kw = {"train_y": run.train_y, "train_s": run.train_s, "settings": chosen}
        if n_boot:
            boot = bootstrap(run.test_y, run.test_s, methods=methods, gammas=grid,
                             n_boot=n_boot, seed=seed, **kw)
            losses = boot.intervals(confidence)
        else:
            losses = expected_losses(run.test_y, run.test_s, methods=methods, gammas=grid, **kw)
        switches = _switches(run, losses, methods, refine, kw)
        return cls(losses=losses, switches=switches)

    def _draw(self, ax: Axes, *, color: Any = None, band_alpha: float = 0.2,
              **line_kwargs: Any) -> None:
        """``color``: one colour for this display (several models; methods by line style)."""
        methods = list(dict.fromkeys(self.losses["method"]))
        for i, method in enumerate(methods):
            rows = self.losses[self.losses["method"] == method].sort_values("gamma")
            u = to_uncertainty(rows["gamma"])
            style = method_style(method, i, math.inf, color)
            (line,) = ax.plot(u, rows["expected_loss"], marker="o", ms=2.5, lw=1.6,
                              label=self._label(method), **{**style, **line_kwargs})
            self._key(line, method=method)
            if "lower" in rows:
                ax.fill_between(u, rows["lower"], rows["upper"], color=style["color"],
                                alpha=band_alpha, lw=0)
        top = float(np.nanmax(self.losses[[c for c in ("expected_loss", "upper")
                                           if c in self.losses]].to_numpy(), initial=0.0))
        for k, row in enumerate(self.switches.itertuples(index=False)):
            # named in the legend, not on the plot, where a note would cross the curves;
            # switches told apart by line style
            # over the curves, and (with the margin below) off the spine even at gamma 500
            # from 0 up to the curves (not across the whole height: a legend may sit above)
            u = float(to_uncertainty(row.gamma))
            (line,) = ax.plot([u, u], [0.0, top], color=color or "0.3", zorder=4, lw=1.2,
                              ls=_SWITCH_STYLES[k % len(_SWITCH_STYLES)], marker="v",
                              markevery=[1], ms=5,
                              label=self._label(f"best changes at \u03b3\u2248{row.gamma:.3g}: "
                                                f"{row.before} \u2192 {row.after}"))
            self._key(line, own=True)
        ticks = list(_TICK_GAMMAS)
        ax.set_xticks(to_uncertainty(ticks), [gamma_text(g) for g in ticks])
        # a margin either side: gamma = inf (u = 0) and a switch at a large gamma (u = 0.002
        # at 500) are not drawn on the spines
        ax.set_xlim(-_MARGIN, 1 + _MARGIN)
        self._finish(ax, "certainty \u03b3 (axis: 1/(1+\u03b3); left known cost, right none)",
                     "expected loss")

    def _records(self) -> Iterator[tuple[str, str, ArrayLike, ArrayLike]]:
        for method, rows in self.losses.groupby("method", sort=False):
            yield "gamma_curve", method, rows["gamma"], rows["expected_loss"]
            if "lower" in rows:
                yield "band_lower", method, rows["gamma"], rows["lower"]
                yield "band_upper", method, rows["gamma"], rows["upper"]
        for row in self.switches.itertuples(index=False):
            yield "switch", f"{row.before} -> {row.after}", row.gamma, row.expected_loss


#: the margin either side of the certainty axis u in [0, 1]
_MARGIN = 0.03


def _switches(
    run: RunScores,
    losses: pd.DataFrame,
    methods: Sequence[str],
    refine: int,
    kw: dict[str, Any],
) -> pd.DataFrame:
    candidates = [m for m in methods if m not in ORACLES] or list(methods)
    table = losses.pivot(index="gamma", columns="method", values="expected_loss")
    table = table.sort_index(ascending=False)[candidates]  # inf first
    best = table.idxmin(axis=1).to_numpy()
    gammas = table.index.to_numpy()
    rows = []
    for k in np.flatnonzero(best[1:] != best[:-1]):
        before, after = best[k], best[k + 1]
        lo, hi = to_uncertainty(gammas[k]), to_uncertainty(gammas[k + 1])
        at_lo = table.iloc[k][[before, after]].to_numpy()
        at_hi = table.iloc[k + 1][[before, after]].to_numpy()
        for _ in range(refine):  # bisection in u on loss(before) - loss(after)
            mid = (lo + hi) / 2.0
            frame = expected_losses(run.test_y, run.test_s, methods=[before, after],
                                    gammas=[float(from_uncertainty(mid))], **kw)
            at_mid = frame.set_index("method").loc[[before, after], "expected_loss"].to_numpy()
            if at_mid[0] <= at_mid[1]:
                lo, at_lo = mid, at_mid
            else:
                hi, at_hi = mid, at_mid
        # the crossing of the two differences, linear in u within the last bracket
        d_lo, d_hi = at_lo[0] - at_lo[1], at_hi[0] - at_hi[1]
        w = d_lo / (d_lo - d_hi) if d_lo != d_hi else 0.5
        u = lo + w * (hi - lo)
        rows.append((float(from_uncertainty(u)), before, after,
                     float(at_lo[0] + w * (at_hi[0] - at_lo[0]))))
    return pd.DataFrame(rows, columns=["gamma", "before", "after", "expected_loss"])


__all__ = ["CertaintyDisplay", "default_gammas", "from_uncertainty",
           "to_uncertainty"]
