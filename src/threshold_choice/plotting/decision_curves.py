"""The decision curve Display (decision curve analysis; paper ``002_...``, Sect. 4.3).

Conventions (those of :mod:`threshold_choice.decision_curves`): label 1 is the event (e.g. the
disease) whose probability the score estimates; at the threshold probability ``t`` an example
is treated iff ``score > t`` (``inclusive=True``: ``score >= t``, as ``dcurves``). The net
benefit is ``NB(t) = TP/n - FP/n * t/(1 - t)``; treating everyone gives
``pi1 - pi0 t/(1 - t)``, treating no one 0.

A threshold choice method whose threshold comes from an uncertain estimate ``c_hat`` of the
threshold probability (``c_hat ~ Beta(gamma t + 1, gamma (1 - t) + 1)``) has the decision
curve ``E[NB](t) = pi1 - K(t) / (2 (1 - t))`` (:func:`expected_net_benefit`); score-driven at
``gamma = inf`` is the plain curve (strict convention).

Rescaled (paper 002, App. C): against ``x = -(1 - t)^2 / 2`` (Thm C.3) the area between
``pi1`` and the net benefit over a range ``[a, b]`` is the regret integrated over it, half the
bounded Brier score; against ``x = ln t`` (Thm C.4) it is the bounded log loss.
"""


from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from numpy.typing import ArrayLike

from threshold_choice.decision_curves import (
    DEFAULT_THRESHOLDS,
    RESCALINGS,
    average_net_benefit,
    average_treat_all_net_benefit,
    decision_curve,
    expected_net_benefit,
    rescale_thresholds,
)
from threshold_choice.errors import UserError
from threshold_choice.evaluation import LossSettings, _check_once_each, loss_settings
from threshold_choice.metrics import bounded_brier_score, bounded_log_loss
from threshold_choice.plotting._base import (
    ThresholdChoiceDisplay,
    data_lines,
    gamma_legend,
    method_style,
    number_text,
)
from threshold_choice.plotting._common import RunScores, clipped_span
from threshold_choice.plotting.cost_curves import selection
from threshold_choice.uncertainty import format_gamma, parse_gamma

#: the x-axis labels of the rescaled curves
_SCALE_TEXT = {"linear": "",
               "quadratic": "\naxis x = \u2212(1 \u2212 t)\u00b2/2 (paper 002, Thm C.3)",
               "log": "\naxis x = ln t (paper 002, Thm C.4)"}
#: the thresholds marked on the rescaled axes (those inside the drawn range)
_SCALE_TICKS = {"quadratic": (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.7),
                "log": (0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 0.99)}
#: what the area above a rescaled curve is
_AREA_TEXT = {"quadratic": "\u00bd bounded Brier", "log": "bounded log loss"}
_PREVALENCE_GID = "decision-curve prevalence"
#: gids of the reference curves, to draw them once per axes
_REFERENCE_GID = {"treat_all": "decision-curve treat all",
                  "treat_none": "decision-curve treat none"}


def threshold_ranges(average: ArrayLike | None) -> list[tuple[float, float]]:
    """``average`` as a list of ``(low, high)``: one pair ``(low, high)`` or several."""
    if average is None:
        return []
    pairs = np.asarray(average, dtype=np.float64)
    if pairs.ndim == 1 and pairs.size == 2:
        pairs = pairs.reshape(1, 2)
    if pairs.ndim != 2 or pairs.shape[1] != 2:
        raise UserError(
            f"average must be one (low, high) pair or a list of them, got {average!r}"
        )
    return [(float(lo), float(hi)) for lo, hi in pairs]


class DecisionCurveDisplay(ThresholdChoiceDisplay):
    """Net benefit against the threshold probability, with treat-all and treat-none.

    Decision curve analysis (paper ``002_...``, Sect. 4.3): label 1 is the event whose
    probability the score estimates, an example is treated iff ``score > t`` (``score >= t``
    with ``inclusive``), and ``NB(t) = TP/n - FP/n * t/(1 - t)``. Optionally the decision
    curves of threshold choice methods given an uncertain ``c_hat`` instead of ``t``
    (``E[NB](t) = pi1 - K(t) / (2 (1 - t))``), and exact average net benefits over ranges of
    ``t``. Build with :meth:`from_predictions` or :meth:`from_estimator`.

    Parameters
    ----------
    curve : pandas.DataFrame
        ``threshold, net_benefit, treat_all, treat_none``
        (:func:`~threshold_choice.decision_curves.decision_curve`).
    method_curves : pandas.DataFrame or None, default=None
        ``method, gamma, threshold, net_benefit``
        (:func:`~threshold_choice.decision_curves.expected_net_benefit`).
    averages : pandas.DataFrame or None, default=None
        ``low, high, net_benefit, treat_all, treat_none``: exact means over each range
        (:func:`~threshold_choice.decision_curves.average_net_benefit`; strict or inclusive
        does not matter for a mean); ``None``: none.
    name : str or None, default=None
        The model's name.
    event : object, default=None
        The event (the positive class, class 1) when known (``from_estimator``), named in
        the axis label.
    scale : {"linear", "quadratic", "log"}, default="linear"
        The threshold axis: ``t``, or paper 002's rescalings ``-(1 - t)^2 / 2`` (Thm C.3)
        and ``ln t`` (Thm C.4), on which the area between ``pi1`` and the curve over a range
        is half the bounded Brier score or the bounded log loss (then in ``averages``'
        column ``area``, shaded over the range).

    See Also
    --------
    threshold_choice.decision_curve : The curve of one model.
    threshold_choice.rescaled_decision_curve : Against a rescaled axis.
    threshold_choice.expected_net_benefit : The curve of a method under uncertainty.
    ThresholdChoiceDisplay : Their base: ``ax_``, ``figure_``, ``data``, :meth:`plot`.

    Notes
    -----
    Drawing options, as keywords of :meth:`plot` or in ``plot_kwargs``: ``color`` gives a
    model all one colour (its methods' curves differ by line style); ``references=False``
    leaves out treat-all and treat-none (drawn once per axes: a treat-all curve equal to
    one already drawn, as for models on the same test set, is not drawn again); the other
    keywords style every net benefit curve (``Axes.plot``).

    Examples
    --------
    >>> from threshold_choice.plotting import DecisionCurveDisplay
    >>> display = DecisionCurveDisplay.from_predictions(
    ...     [0, 0, 1, 0, 1, 1, 0, 1], [0.1, 0.3, 0.35, 0.4, 0.6, 0.8, 0.7, 0.9],
    ...     methods=["score-driven"], gammas=[0.0], average=(0.05, 0.2))
    >>> type(display.ax_).__name__, len(display.ax_.get_lines())
    ('Axes', 5)
    >>> display.averages.round(4)
        low  high  net_benefit  treat_all  treat_none
    0  0.05   0.2        0.442     0.4272         0.0

    Rescaled (Thm C.4): over ``x = ln t`` the area above the curve is the bounded log loss:

    >>> display = DecisionCurveDisplay.from_predictions(
    ...     [0, 0, 1, 0, 1, 1, 0, 1], [0.1, 0.3, 0.35, 0.4, 0.6, 0.8, 0.7, 0.9],
    ...     scale="log", average=(0.05, 0.2), plot=False)
    >>> round(float(display.averages["area"].iloc[0]), 6)  # bounded_log_loss(y, s, 0.05, 0.2)
    0.071202

    From a classifier with named classes, the event ``pos_label`` (without it ``classes_[1]``,
    with a warning saying so):

    >>> import numpy as np
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.linear_model import LogisticRegression
    >>> X, labels = make_classification(n_samples=200, n_features=4, random_state=0)
    >>> names = np.array(["healthy", "sick"])[labels]
    >>> model = LogisticRegression().fit(X[:100], names[:100])
    >>> display = DecisionCurveDisplay.from_estimator(model, X[100:], names[100:],
    ...                                               pos_label="sick",
    ...                                               thresholds=[0.1, 0.2, 0.3])
    >>> display.event, len(display.curve)
    ('sick', 3)
    """

    TITLE = "Decision curves"

    def __init__(
        self,
        *,
        curve: pd.DataFrame,
        method_curves: pd.DataFrame | None = None,
        averages: pd.DataFrame | None = None,
        name: str | None = None,
        event: Any = None,
        scale: str = "linear",
    ) -> None:
        #: the event (the positive class, class 1) when known (``from_estimator``)
        self.event = event
        self.scale = scale
        self.curve = curve
        self.method_curves = method_curves
        self.averages = averages if averages is not None else pd.DataFrame(
            columns=["low", "high", "net_benefit", "treat_all", "treat_none"]
        )
        self.name = name

    @classmethod
    def _compute(
        cls,
        run: RunScores,
        *,
        thresholds: ArrayLike | None = None,
        inclusive: bool = False,
        methods: Sequence[str] | None = None,
        gammas: Sequence[float] | None = None,
        average: ArrayLike | None = None,
        scale: str = "linear",
        settings: LossSettings | Mapping[str, Any] | None = None,
        **settings_kwargs: Any,
    ) -> DecisionCurveDisplay:
        """Compute the decision curve, the methods' curves and the averages from one run.

        Parameters
        ----------
        run : RunScores
            The labels and scores of the test part (and of the training part); the scores
            must be probabilities in [0, 1].
        thresholds : array-like of float, default=None
            Threshold probabilities in [0, 1); ``None``: 0, 0.01, ..., 0.99, as
            ``dcurves``.
        inclusive : bool, default=False
            Treat iff ``score >= t`` instead of ``score > t``.
        methods : sequence of str, default=None
            Threshold choice methods whose decision curves given an uncertain ``c_hat`` are
            drawn; ``None``: ``["score-driven"]`` if ``gammas`` is given, else none.
            Train-optimal needs the training scores.
        gammas : sequence of float, default=None
            Their certainties; ``None``: ``[inf]`` if ``methods`` is given.
        average : array-like of float, default=None
            One ``(low, high)`` range of thresholds or several (``0 <= low < high < 1``):
            the exact average net benefit over ``t`` uniform on each, drawn as a segment
            over it (on a rescaled axis: the area between ``pi1`` and the curve, shaded).
        scale : {"linear", "quadratic", "log"}, default="linear"
            The threshold axis: ``t``, ``-(1 - t)^2 / 2`` (paper 002's Thm C.3) or ``ln t``
            (Thm C.4; thresholds > 0, by default 0.01, ..., 0.99).
        settings : LossSettings, Mapping or None, default=None
            The methods' selection options
            (:class:`~threshold_choice.evaluation.LossSettings` or a mapping of its fields).
        **settings_kwargs : dict
            :class:`~threshold_choice.evaluation.LossSettings` fields replacing those of
            ``settings``.

        Returns
        -------
        DecisionCurveDisplay
            The display, not drawn.
        """
        if scale not in ("linear", *RESCALINGS):
            raise UserError(f"scale must be one of linear, {', '.join(RESCALINGS)}; got "
                            f"{scale!r}")
        if thresholds is None:
            thresholds = DEFAULT_THRESHOLDS[1:] if scale == "log" else DEFAULT_THRESHOLDS
        rescale_thresholds(thresholds, scale)  # refuses t = 0 on the log scale
        curve = decision_curve(run.test_y, run.test_s, thresholds, inclusive=inclusive)
        test, train = run.lines()
        method_curves = None
        if methods is not None or gammas is not None:
            chosen = loss_settings(settings, **settings_kwargs)
            grid = [parse_gamma(g) for g in (gammas if gammas is not None else [math.inf])]
            # a gamma twice drew a second, made-up curve; none, a pandas error
            _check_once_each(methods or ["score-driven"], grid)
            parts = [
                pd.DataFrame({
                    "method": method, "gamma": gamma, "threshold": curve["threshold"],
                    "net_benefit": expected_net_benefit(
                        selection(method, test, train, gamma, chosen), gamma,
                        curve["threshold"], pi1=test.pi1,
                    ),
                })
                for method in (methods or ["score-driven"]) for gamma in grid
            ]
            method_curves = pd.concat(parts, ignore_index=True)
        rows = [
            (lo, hi, average_net_benefit(run.test_y, run.test_s, lo, hi),
             average_treat_all_net_benefit(test.pi1, lo, hi), 0.0)
            for lo, hi in threshold_ranges(average)
        ]
        averages = pd.DataFrame(rows, columns=["low", "high", "net_benefit", "treat_all",
                                               "treat_none"])
        if scale != "linear":  # the area between pi1 and the curve over each range
            if scale == "log" and (averages["low"] <= 0.0).any():
                raise UserError("the log-rescaled curve needs ranges with low > 0 (x = ln t)")
            area = (bounded_log_loss if scale == "log"
                    else lambda y, s, lo, hi: bounded_brier_score(y, s, lo, hi) / 2.0)
            averages["area"] = [area(run.test_y, run.test_s, lo, hi)
                                for lo, hi in zip(averages["low"], averages["high"],
                                                  strict=True)]
        return cls(curve=curve, method_curves=method_curves, averages=averages, scale=scale)

    def _draw(self, ax: Axes, *, color: Any = None, references: bool = True,
              **line_kwargs: Any) -> None:
        """``color``: one colour for this display (several models; methods by line style);
        ``references``: draw treat-all and treat-none (once per axes: a treat-all curve equal
        to one already drawn, as for models on the same test set, is not drawn again);
        ``line_kwargs``: passed to every net benefit curve's ``plot``."""
        t = self.curve["threshold"].to_numpy()
        x = rescale_thresholds(t, self.scale)
        if references:
            self._draw_references(ax, x, color)
        (line,) = ax.plot(x, self.curve["net_benefit"], lw=1.8, zorder=3,
                          label=self.name or "model", **{"color": color or "k", **line_kwargs})
        self._key(line, role="")  # the model's own entry
        if self.method_curves is not None:
            methods = list(dict.fromkeys(self.method_curves["method"]))
            gammas = list(dict.fromkeys(self.method_curves["gamma"]))
            for (method, gamma), rows in self.method_curves.groupby(["method", "gamma"],
                                                                  sort=False):
                # with one colour per model, the model's own curve is the solid one: the methods
                # take the next line styles
                style = method_style(method, methods.index(method) + (color is not None),
                                     gamma, color, gammas)
                (line,) = ax.plot(rescale_thresholds(rows["threshold"], self.scale),
                                  rows["net_benefit"], lw=1.4, zorder=3,
                                  label=self._label(f"{method}, {gamma_legend(gamma)}"),
                                  **{**style, **line_kwargs})
                self._key(line, method=method, gamma=gamma)
        if self.scale != "linear":
            self._draw_areas(ax, t, x, color)
        for row in self.averages.itertuples(index=False) if self.scale == "linear" else ():
            self._background(ax.axvspan(row.low, row.high, color=color or "0.85", alpha=0.12,
                                        lw=0, zorder=0))
            (line,) = ax.plot([row.low, row.high], [row.net_benefit] * 2, color=color or "k",
                              lw=4, alpha=0.45, solid_capstyle="butt", zorder=2,
                              label=self._label(
                                  f"mean NB on [{number_text(row.low)}, "
                                  f"{number_text(row.high)}]: {row.net_benefit:.4f} (treat "
                                  f"all {row.treat_all:.4f})"))
            self._key(line, own=True)
        # net benefit is at most pi1 (treat-all at t = 0); below 0 only a margin is useful
        top = max(np.nanmax(np.asarray(line.get_ydata(), float)) for line in data_lines(ax))
        top = top if top > 0 else 1.0
        ax.set_ylim(-0.15 * top, 1.1 * top)
        if t.size > 1:
            ax.set_xlim(float(x.min()), float(x.max()))
        if self.user_costs is not None:  # the threshold their costs call for: t = c
            c = self.user_costs.cost_proportion
            try:
                t = float(rescale_thresholds([c], self.scale)[0])
            except UserError as exc:  # not the user's thresholds: their costs' c
                raise UserError(f"the costs put the threshold t = c at {c:g}, which this "
                                f"decision curve cannot draw ({exc}); give costs of both "
                                "errors above 0") from None
            self._mark_costs(ax, t)
        if self.scale != "linear":  # ticks at round thresholds, labelled with t
            ticks = np.array([v for v in _SCALE_TICKS[self.scale] if t.min() <= v <= t.max()])
            ax.set_xticks(rescale_thresholds(ticks, self.scale), [f"{v:g}" for v in ticks])
        # short enough for a panel: the event once, a rescaled axis on a second line
        self._finish(ax, f"threshold probability t: treat iff P({self._class_text(1)}) > t"
                     f"{_SCALE_TEXT[self.scale]}",
                     "net benefit  TP/n \u2212 FP/n \u00b7 t/(1 \u2212 t)")

    def _draw_areas(self, ax: Axes, t: np.ndarray, x: np.ndarray, color: Any) -> None:
        """On a rescaled axis: the prevalence ``pi1`` (the curve's ceiling) and, over each
        range of ``averages``, the area between it and the curve (half the bounded Brier
        score on the quadratic axis, the bounded log loss on the log axis)."""
        odds = t[0] / (1.0 - t[0])
        pi1 = (float(self.curve["treat_all"].iloc[0]) + odds) / (1.0 + odds)
        drawn = [line for line in ax.get_lines() if line.get_gid() == _PREVALENCE_GID
                 and np.allclose(line.get_ydata(), pi1)]
        if not drawn:  # once per axes (models on the same test set share it)
            ax.axhline(pi1, color="0.3", lw=0.9, ls="-.", zorder=2, gid=_PREVALENCE_GID,
                       label=f"prevalence \u03c0\u2081 = {pi1:.4f}")
        nb = self.curve["net_benefit"].to_numpy()
        for row in self.averages.itertuples(index=False):
            span, below = clipped_span(x, nb, rescale_thresholds([row.low, row.high], self.scale))
            area = ax.fill_between(span, below, pi1, color=color or "0.5", alpha=0.25, lw=0,
                                   zorder=1, label=self._label(
                                       f"area on [{number_text(row.low)}, "
                                       f"{number_text(row.high)}] = "
                                       f"{_AREA_TEXT[self.scale]} {row.area:.4f}"))
            self._key(area, own=True)

    def _draw_references(self, ax: Axes, t: np.ndarray, color: Any = None) -> None:
        """Treat-all and treat-none, once per axes; a later model's different treat-all (on
        another test set) in its own colour, named."""
        drawn = {gid: [line for line in ax.get_lines() if line.get_gid() == gid]
                 for gid in _REFERENCE_GID.values()}
        treat_all = self.curve["treat_all"].to_numpy()
        same = [line for line in drawn[_REFERENCE_GID["treat_all"]]
                if np.array_equal(line.get_xdata(), t)
                and np.array_equal(line.get_ydata(), treat_all)]
        if not same:
            first = not drawn[_REFERENCE_GID["treat_all"]]
            ax.plot(t, treat_all, color="0.45" if first or color is None else color, ls="--",
                    lw=1.2, zorder=2, label="treat all" if first else self._label("treat all"),
                    gid=_REFERENCE_GID["treat_all"])
        if not drawn[_REFERENCE_GID["treat_none"]]:
            ax.plot(t, self.curve["treat_none"], color="0.45", ls=":", lw=1.2, zorder=2,
                    label="treat none", gid=_REFERENCE_GID["treat_none"])

    def _records(self) -> Iterator[tuple[str, str, ArrayLike, ArrayLike]]:
        # x: the threshold, or its rescaling (the plotted numbers)
        t = rescale_thresholds(self.curve["threshold"], self.scale)
        yield "net_benefit", "model", t, self.curve["net_benefit"]
        yield "treat_all", "treat all", t, self.curve["treat_all"]
        yield "treat_none", "treat none", t, self.curve["treat_none"]
        if self.method_curves is not None:
            for (method, gamma), rows in self.method_curves.groupby(["method", "gamma"],
                                                                  sort=False):
                yield ("expected_net_benefit", f"{method} gamma={format_gamma(gamma)}",
                       rescale_thresholds(rows["threshold"], self.scale), rows["net_benefit"])
        if self.scale != "linear":
            for row in self.averages.itertuples(index=False):
                ends = rescale_thresholds([row.low, row.high], self.scale)
                yield "area_above_curve", f"model [{row.low:g}, {row.high:g}]", ends, [
                    row.area] * 2
            return
        for row in self.averages.itertuples(index=False):
            span = f"[{row.low:g}, {row.high:g}]"
            for column, what in (("net_benefit", "model"), ("treat_all", "treat all"),
                                 ("treat_none", "treat none")):
                value = getattr(row, column)
                yield "average_net_benefit", f"{what} {span}", [row.low, row.high], [value] * 2


__all__ = ["DecisionCurveDisplay", "threshold_ranges"]
