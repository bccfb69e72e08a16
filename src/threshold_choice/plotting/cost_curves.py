"""Cost-space Displays: the test cost lines and the expected cost curves ``K(c)`` of threshold
choice methods (paper Figs 1, 3, 4, 7, 9), and the Brier / ROC cost curves of
``001_...`` (score-driven and rate-driven at ``gamma = inf`` with the optimal cost curve).

Conventions: x = the true cost proportion ``c``; y = the loss
``Q = 2 (c pi0 FP0 + (1 - c) pi1 FN1)``; ``K(c) = E[Q(T(c_hat); c) | c]`` with
``c_hat ~ Beta(gamma c + 1, gamma (1 - c) + 1)``; its area is the expected loss (in the
legend, by the settings' estimator, as ``expected_losses``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike, NDArray

from threshold_choice.bootstrap import check_n_boot, percentile_bounds, replicate_cost_lines
from threshold_choice.cost_distributions import parse_cost_distribution
from threshold_choice.costlines import CostLines
from threshold_choice.errors import UserError
from threshold_choice.evaluation import LossSettings, expected_losses, loss_settings
from threshold_choice.expected_loss import expected_cost_curve
from threshold_choice.methods import NEEDS_TRAIN, PAPER_METHODS, Selection, make_selection
from threshold_choice.plotting._base import (
    OFF_TOP,
    ThresholdChoiceDisplay,
    belief_text,
    data_lines,
    gamma_legend,
    hidden_under,
    mark_above,
    method_style,
)
from threshold_choice.plotting._common import RunScores, c_grid
from threshold_choice.uncertainty import format_gamma, parse_gamma

if TYPE_CHECKING:  # matplotlib is imported by the drawing: the paper's figure data need none
    from matplotlib.axes import Axes

INF = math.inf
#: the legend's text for an infinite area (F-cost: a method that can pick a threshold with no
#: true positive), whose curve is drawn where it is finite
INFINITE_AREA = "\u221e (infinite part not drawn)"
_BELIEF_GID = "threshold-choice-belief"

#: the bands' replicate curves held at once (8 bytes each): 1 GiB
#: the most test cost lines a cost-curve display draws (a figure cannot show more)
MAX_DRAWN_LINES = 1000
_MAX_BAND_CELLS = 2**27


def selection(
    method: str, test: CostLines, train: CostLines | None, gamma: float, settings: LossSettings
) -> Selection:
    """The engine's selection of ``method`` at ``gamma`` with the settings' options."""
    if method in NEEDS_TRAIN and train is None:
        raise UserError(f"{method} selects on the training scores: pass train_y and train_s "
                        "(from_predictions), X_train and y_train or a fitted "
                        "ThresholdChoiceClassifier (from_estimator); or drop the method")
    return make_selection(method, test, train=train, gamma=gamma, **settings.selection_options())


def default_methods(methods: Sequence[str] | None, default: Sequence[str],
                    run: RunScores) -> list[str]:
    """``methods``, or ``default`` without the train-optimal methods when there are no
    training scores."""
    if methods is not None:
        return list(methods)
    return [m for m in default if run.train_y is not None or m not in NEEDS_TRAIN]


class CostCurveDisplay(ThresholdChoiceDisplay):
    """Test cost lines and expected cost curves ``K(c)`` per method and gamma.

    Cost space (paper Figs 1, 3, 4, 7, 9): x is the true cost proportion ``c`` (of an error
    on class 0), y the loss ``Q = 2 (c pi0 FP0 + (1 - c) pi1 FN1)``. The test cost lines are
    drawn as a light background and, per method and certainty, the expected cost curve
    ``K(c) = E[Q(T(c_hat); c) | c]`` with ``c_hat ~ Beta(gamma c + 1, gamma (1 - c) + 1)``;
    the legend gives its area (weighted by the belief ``w`` when it is not uniform), the
    expected loss of :func:`~threshold_choice.expected_losses` with the settings' estimator.
    Build with :meth:`from_predictions` or :meth:`from_estimator`, whose options are the
    methods, the gammas, the settings and bootstrap bands.

    Parameters
    ----------
    curves : pandas.DataFrame
        ``method, gamma, c, loss``: the plotted ``K(c)`` (at ``gamma = inf`` the costs
        either side of each jump are included, to draw it vertical).
    areas : pandas.DataFrame
        ``method, gamma, expected_loss`` (``expected_losses`` with the settings).
    cost_lines : ndarray of shape (k, 2) or None, default=None
        The heights of the test cost lines at ``c = 0`` and ``c = 1`` (at the settings'
        deployment ``prior``, as the curves and their areas). Of more than
        ``MAX_DRAWN_LINES`` (1000), that many are kept, evenly spaced in their order (the
        first and the last included), so that a large test set is drawn, not millions of
        lines.
    bands : pandas.DataFrame or None, default=None
        ``method, gamma, c, lower, upper``: pointwise bootstrap bands of ``K(c)``.
    name : str or None, default=None
        The model's name.
    distribution : str, default="uniform"
        The spec of the belief ``w`` about ``c``, shaded when it is not uniform.

    Attributes
    ----------
    cost_line_index : ndarray of int or None
        The numbers of the kept cost lines.
    cost_lines_total : int
        How many cost lines there are (0 without them).
    bound : float
        The drawing's height is at most 1.05 times this (``inf`` here; the F-cost display
        sets it).

    See Also
    --------
    BrierCurveDisplay : The cost curves of paper 001 (optimal, Brier, ROC cost).
    FCostDisplay : The same for the F-measure.
    CertaintyDisplay : The expected losses against gamma.
    threshold_choice.expected_cost_curve : ``K(c)`` of one method.
    ThresholdChoiceDisplay : Their base: ``ax_``, ``figure_``, ``data``, :meth:`plot`.

    Notes
    -----
    Drawing options (:meth:`plot`'s keyword arguments, or ``plot_kwargs``): ``color`` (one
    colour for all this display's curves: several models on one axes, methods then differing
    by line style); ``cost_lines`` (draw the test cost lines; default: only the first
    display on the axes, so that two fans do not blend); ``belief`` (shade the belief ``w``,
    scaled, when it is not uniform; default True); ``focus`` (default True: a curve peaking
    above 3 times the median peak, such as rate-driven at ``gamma = 0``, runs off the top,
    its legend entry saying so; ``False``: every curve fits); ``band_alpha`` (0.2); any
    other keyword goes to every curve's ``Axes.plot``. A curve that a later solid one of the
    display covers wholly (methods that choose alike) has its legend entry say so:
    ``(under score-driven)``.

    A display of another loss in cost space (:class:`FCostDisplay`) subclasses this one and
    sets the class attributes ``LOSS_FUNCTION``, ``LINES``, ``CURVE`` and the texts.

    Examples
    --------
    >>> from threshold_choice.plotting import CostCurveDisplay
    >>> y = [0, 0, 1, 0, 1, 1, 0, 1]
    >>> s = [0.1, 0.3, 0.35, 0.4, 0.6, 0.8, 0.7, 0.9]
    >>> display = CostCurveDisplay.from_predictions(y, s, name="model")
    >>> type(display.ax_).__name__, len(display.ax_.get_lines())  # 3 methods x 2 gammas
    ('Axes', 6)
    >>> display.cost_lines.shape  # 8 distinct scores: 9 cost lines
    (9, 2)
    >>> display.areas.round(4)
             method  gamma  expected_loss
    0  test-optimal    inf         0.1250
    1  score-driven    inf         0.1728
    2   rate-driven    inf         0.1771
    3  test-optimal    0.0         0.2500
    4  score-driven    0.0         0.3562
    5   rate-driven    0.0         0.3438

    From a :class:`~threshold_choice.estimators.ThresholdChoiceClassifier`, whose kept
    training scores give train-optimal:

    >>> from sklearn.datasets import make_classification
    >>> from sklearn.linear_model import LogisticRegression
    >>> from threshold_choice import ThresholdChoiceClassifier
    >>> X, labels = make_classification(n_samples=200, n_features=4, random_state=0)
    >>> clf = ThresholdChoiceClassifier(LogisticRegression(), cv=None).fit(X[:100], labels[:100])
    >>> display = CostCurveDisplay.from_estimator(
    ...     clf, X[100:], labels[100:], methods=["train-optimal"], gammas=[0.0], plot=False)
    >>> display.name, display.ax_ is None
    ('LogisticRegression', True)
    """

    TITLE = "Expected cost curves K(c)"
    DEFAULT_METHODS: tuple[str, ...] = PAPER_METHODS
    DEFAULT_GAMMAS: tuple[float, ...] = (INF, 0.0)
    #: legend names of methods (the cost-space names of ``001_...`` in the Brier display)
    METHOD_LABELS: ClassVar[dict[str, str]] = {}
    #: the loss (``expected_losses``' ``loss_function``), its lines and its curve ``K(c)``
    LOSS_FUNCTION: ClassVar[str] = "accuracy"
    LINES: ClassVar[type[CostLines]] = CostLines
    CURVE: ClassVar[Callable[[Selection, float, NDArray[np.float64]], NDArray[np.float64]]] = (
        staticmethod(expected_cost_curve)
    )
    #: texts of the drawing
    LINES_LABEL: ClassVar[str] = "test cost lines"
    X_LABEL: ClassVar[str] = "cost proportion c"
    Y_LABEL: ClassVar[str] = "loss"
    LEGEND_TITLE: ClassVar[str] = "expected loss (area)"
    #: the drawing's height is at most 1.05 times this (the F-cost display's bound)
    bound: float = INF

    def __init__(
        self,
        *,
        curves: pd.DataFrame,
        areas: pd.DataFrame,
        cost_lines: NDArray[np.float64] | None = None,
        bands: pd.DataFrame | None = None,
        name: str | None = None,
        distribution: str = "uniform",
    ) -> None:
        self.distribution = distribution
        self.curves = curves
        self.areas = areas
        self.cost_lines = cost_lines
        self.cost_lines_total = 0 if cost_lines is None else len(cost_lines)
        self.cost_line_index = None if cost_lines is None else np.arange(len(cost_lines))
        if cost_lines is not None and len(cost_lines) > MAX_DRAWN_LINES:
            self.cost_line_index = np.unique(
                np.linspace(0, len(cost_lines) - 1, MAX_DRAWN_LINES).round().astype(int))
            self.cost_lines = cost_lines[self.cost_line_index]
        self.bands = bands
        self.name = name

    @classmethod
    def _compute(
        cls,
        run: RunScores,
        *,
        methods: Sequence[str] | None = None,
        gammas: Sequence[float] | None = None,
        settings: LossSettings | Mapping[str, Any] | None = None,
        cost_lines: bool = True,
        n_boot: int = 0,
        seed: int | None = 0,
        confidence: float = 0.95,
        band_points: int = 101,
        **settings_kwargs: Any,
    ) -> CostCurveDisplay:
        """Compute the curves, their areas and the bands from one run's scores.

        Parameters
        ----------
        run : RunScores
            The labels and scores of the test part (and of the training part).
        methods : sequence of str, default=None
            The threshold choice methods; ``None``: the class's ``DEFAULT_METHODS``
            (``CostCurveDisplay`` and ``FCostDisplay``: the paper's four;
            ``BrierCurveDisplay``: test-optimal, score-driven, rate-driven), without the
            train-optimal methods when there are no training scores.
        gammas : sequence of float, default=None
            The certainties; ``None``: the class's ``DEFAULT_GAMMAS`` (``CostCurveDisplay``:
            ``inf`` and 0; the others: ``inf``).
        settings : LossSettings, Mapping or None, default=None
            The estimator of the areas and the operating conditions
            (:class:`~threshold_choice.evaluation.LossSettings` or a mapping of its fields).
        cost_lines : bool, default=True
            Keep the test cost lines (``FCostDisplay``: those with ``TP > 0``) to draw them.
        n_boot : int, default=0
            More than 0: pointwise percentile bands of ``K(c)`` from that many bootstrap
            replicates of the test set (stratified; not for ``FCostDisplay``).
        seed : int or None, default=0
            The seed of the bootstrap replicates.
        confidence : float, default=0.95
            The level of the bands.
        band_points : int, default=101
            The number of costs, evenly spaced on [0, 1], the bands are computed at.
        **settings_kwargs : dict
            :class:`~threshold_choice.evaluation.LossSettings` fields replacing those of
            ``settings`` (``estimator="grid"``, ``cost_distribution="beta:2,2"``, ...).

        Returns
        -------
        CostCurveDisplay
            The display (of the class it is called on), not drawn.
        """
        chosen = loss_settings(settings, **settings_kwargs)
        methods = default_methods(methods, cls.DEFAULT_METHODS, run)
        gammas = [parse_gamma(g) for g in (cls.DEFAULT_GAMMAS if gammas is None else gammas)]
        if n_boot and cls.LINES is not CostLines:
            raise UserError(f"{cls.__name__} has no bootstrap bands: leave n_boot at 0")
        # first: it checks the methods, the training scores and the tie-breaking option
        areas = expected_losses(
            run.test_y, run.test_s, train_y=run.train_y, train_s=run.train_s,
            methods=methods, gammas=gammas, settings=chosen, loss_function=cls.LOSS_FUNCTION,
        )
        test, train = run.lines(cls.LINES)
        if chosen.prior is not None:  # reweighted as expected_losses does: areas = integrals
            test = test.with_prior(chosen.prior)
            train = None if train is None else train.with_prior(chosen.prior)
        parts = []
        for method in methods:
            for gamma in gammas:
                sel = selection(method, test, train, gamma, chosen)
                c = c_grid(sel, gamma)
                parts.append(pd.DataFrame({"method": method, "gamma": gamma, "c": c,
                                           "loss": cls.CURVE(sel, gamma, c)}))
        # lines of infinite height (F-cost lines without true positives) are not drawn
        finite = np.isfinite(test.left) & np.isfinite(test.right)
        lines = np.column_stack([test.left[finite], test.right[finite]]) if cost_lines else None
        bands = None
        if n_boot:
            bands = _bands(run, train, methods, gammas, chosen, n_boot, seed, confidence,
                           np.linspace(0.0, 1.0, band_points))
        display = cls(curves=pd.concat(parts, ignore_index=True), areas=areas,
                      cost_lines=lines, bands=bands, distribution=chosen.distribution.spec)
        display._set_bound(test)
        return display

    def _set_bound(self, test: CostLines) -> None:
        """Set :attr:`bound` from the test lines (no bound here)."""

    def _method_label(self, method: str) -> str:
        return self.METHOD_LABELS.get(method, method)

    def _draw(self, ax: Axes, *, color: Any = None, cost_lines: bool | None = None,
              belief: bool = True, focus: bool = True, band_alpha: float = 0.2,
              **line_kwargs: Any) -> None:
        """``color``: one colour for all this display's curves (several models on one axes;
        methods then differ by line style); ``cost_lines``: draw the test cost lines
        (default: only the first display on the axes, so that two fans do not blend);
        ``belief``: shade the belief ``w`` about ``c`` (scaled) when it is not uniform;
        ``focus``: the height fits the curves that matter: a curve peaking above 3 times the
        median peak (rate-driven at ``gamma = 0``, say) runs off the top, its legend entry
        saying so (``False``: every curve fits);
        ``line_kwargs``: passed to every curve's ``plot``."""
        from matplotlib.collections import LineCollection

        if cost_lines is None:
            cost_lines = not getattr(self, "_order", 0)
        if cost_lines and self.cost_lines is not None:
            segments = [[(0.0, a), (1.0, b)] for a, b in self.cost_lines]
            label = self.LINES_LABEL
            if len(self.cost_lines) < self.cost_lines_total:
                label += f" ({len(self.cost_lines)} of {self.cost_lines_total})"
            # a light fan: the fewer the lines, the darker each (they are context, not data)
            alpha = float(np.clip(25.0 / len(self.cost_lines), 0.08, 0.6))
            fan = ax.add_collection(LineCollection(
                segments, colors="0.55", linewidths=0.5, alpha=alpha, zorder=1,
                label=self._label(label),
            ))
            self._key(self._background(fan), role=self.LINES_LABEL)
        methods = list(dict.fromkeys(self.curves["method"]))
        gammas = list(dict.fromkeys(self.curves["gamma"]))
        area = self.areas.set_index(["method", "gamma"])["expected_loss"]
        drawn, keys = [], []  # this display's curves, to tell which another one hides
        for (method, gamma), curve in self.curves.groupby(["method", "gamma"], sort=False):
            style = method_style(method, methods.index(method), gamma, color, gammas)
            value = area[(method, gamma)]
            shown = f"{value:.4f}" if math.isfinite(value) else INFINITE_AREA
            text = f"{self._method_label(method)}, {gamma_legend(gamma)}: {shown}"
            loss = curve["loss"].to_numpy()  # infinite parts (K_F) are not drawn
            (line,) = ax.plot(curve["c"], np.where(np.isfinite(loss), loss, np.nan), lw=1.6,
                              zorder=3, label=self._label(text), **{**style, **line_kwargs})
            self._key(line, method=self._method_label(method), gamma=gamma)
            drawn.append(line)
            keys.append((self._method_label(method), gamma))
            if self.bands is not None:
                band = self.bands[(self.bands["method"] == method) & (self.bands["gamma"] == gamma)]
                ax.fill_between(band["c"], band["lower"], band["upper"], color=style["color"],
                                alpha=band_alpha, lw=0, zorder=2)
        # the curves of every display on the axes set the height (cost lines reach 2 pi),
        # up to the bound (near an infinite part, K_F of a poor method can be far higher)
        top = _focused_top(data_lines(ax), focus)
        if self.bands is not None and not focus:
            top = max(top, self.bands["upper"].max())
        top *= 1.15
        if math.isfinite(self.bound):
            top = min(1.05 * self.bound, top) or 1.05 * self.bound
            # the bound may cut a curve the focus kept: it runs off the top too
            mark_above(data_lines(ax), top)
        # curves that coincide with a later one (methods that choose alike) are hidden under
        # it: the legend says so, rather than list a curve one cannot find
        for i, j in hidden_under(drawn, top).items():
            if str(drawn[i].get_label()).endswith(OFF_TOP):  # a mark other code reads
                continue
            (name, gamma), hidden_gamma = keys[j], keys[i][1]
            if gamma != hidden_gamma:
                name += f", {gamma_legend(gamma)}"
            drawn[i].set_label(f"{drawn[i].get_label()} (under {name})")
        legend_title = self.LEGEND_TITLE
        if self.distribution != "uniform":
            legend_title = legend_title.replace("(area)", "(area weighted by w)")
            if belief:
                self._draw_belief(ax, top)
        self._mark_costs(ax)
        ax.set_xlim(0, 1)
        ax.set_ylim(0, top)
        self._finish(ax, self._x_label(), self.Y_LABEL, legend_title)

    def _x_label(self) -> str:
        """The x axis label (:attr:`X_LABEL`)."""
        return self.X_LABEL

    def _draw_belief(self, ax: Axes, top: float) -> None:
        """The belief ``w(c)`` shaded along the bottom, scaled to a quarter of the height
        (its scale is not the loss's), once per axes."""
        if any(c.get_gid() == _BELIEF_GID for c in ax.collections):
            return
        c = np.linspace(0.0, 1.0, 401)
        w = parse_cost_distribution(self.distribution).pdf(c)
        ax.fill_between(c, 0.0, 0.25 * top * w / np.max(w), color="tan", alpha=0.3, lw=0,
                        zorder=0, gid=_BELIEF_GID,
                        label=f"belief w = {belief_text(self.distribution)} (scaled)")

    def _records(self) -> Iterator[tuple[str, str, ArrayLike, ArrayLike]]:
        if self.cost_lines is not None:
            for j, (a, b) in zip(self.cost_line_index, self.cost_lines, strict=True):
                yield "cost_line", f"test cost line {j}", [0.0, 1.0], [a, b]
        for (method, gamma), curve in self.curves.groupby(["method", "gamma"], sort=False):
            series = f"{method} gamma={format_gamma(gamma)}"
            yield "curve", series, curve["c"], curve["loss"]
        for row in self.areas.itertuples(index=False):
            yield "expected_loss", row.method, row.gamma, row.expected_loss
        if self.bands is not None:
            for (method, gamma), band in self.bands.groupby(["method", "gamma"], sort=False):
                series = f"{method} gamma={format_gamma(gamma)}"
                yield "band_lower", series, band["c"], band["lower"]
                yield "band_upper", series, band["c"], band["upper"]


#: a curve peaking above this many times the median peak does not set the height (focus)
FOCUS_RATIO = 3.0


def _focused_top(lines: Sequence[Any], focus: bool) -> float:
    """The highest peak of ``lines``, or with ``focus`` the highest of those within
    :data:`FOCUS_RATIO` times the median peak, the others' labels marked (and the marks of
    those a later model's curves brought back within the height taken off)."""
    peaks = np.array([np.nanmax(np.asarray(line.get_ydata(), float), initial=0.0)
                      for line in lines])
    if not peaks.size:
        return 0.0
    if not focus:
        return float(peaks.max())
    limit = FOCUS_RATIO * float(np.median(peaks))
    kept = peaks[peaks <= limit]
    if not kept.size or kept.max() <= 0:
        return float(peaks.max())
    for line, peak in zip(lines, peaks, strict=True):
        label = str(line.get_label())
        if label.startswith("_"):
            continue
        marked = label.endswith(OFF_TOP)
        if peak > limit and not marked:
            line.set_label(label + OFF_TOP)
        elif peak <= limit and marked:  # the axes now reach its peak
            line.set_label(label.removesuffix(OFF_TOP))
    return float(kept.max())


def _bands(
    run: RunScores,
    train: CostLines | None,
    methods: Sequence[str],
    gammas: Sequence[float],
    settings: LossSettings,
    n_boot: int,
    seed: int | None,
    confidence: float,
    c: NDArray[np.float64],
) -> pd.DataFrame:
    """Pointwise percentile bands of ``K(c)`` over bootstrap replicates of the test set."""
    pairs = [(m, g) for m in methods for g in gammas]
    n_boot = check_n_boot(n_boot)
    cells = n_boot * len(pairs) * c.size  # the bands need every replicate's curves at once
    if cells > _MAX_BAND_CELLS:
        raise UserError(
            f"{n_boot} bootstrap replicates of {len(pairs)} curves at {c.size} points would "
            f"hold {cells * 8 / 2**30:.1f} GiB; give at most "
            f"{max(1, _MAX_BAND_CELLS // (len(pairs) * c.size))} replicates"
        )
    curves = np.empty((n_boot, len(pairs), c.size))
    for r, lines in enumerate(replicate_cost_lines(run.test_y, run.test_s, n_boot, seed)):
        lines = lines.with_prior(settings.prior)
        for k, (method, gamma) in enumerate(pairs):
            sel = selection(method, lines, train, gamma, settings)
            curves[r, k] = expected_cost_curve(sel, gamma, c)
    lo, hi = percentile_bounds(curves, confidence)
    return pd.concat(
        [pd.DataFrame({"method": m, "gamma": g, "c": c, "lower": lo[k], "upper": hi[k]})
         for k, (m, g) in enumerate(pairs)],
        ignore_index=True,
    )


class BrierCurveDisplay(CostCurveDisplay):
    """The optimal, Brier and ROC cost curves of paper ``001_...`` (Figs 6-7 there).

    The optimal cost curve (test-optimal), the Brier curve (score-driven: its area is the
    Brier score) and the ROC cost curve (rate-driven: area ``pi0 pi1 (1 - 2 AUC) + 1/3``),
    at ``gamma = inf`` by default, with the test cost lines. A :class:`CostCurveDisplay`
    with other defaults and legend names: the same parameters, options, attributes and
    drawing options.

    Parameters
    ----------
    curves, areas, cost_lines, bands, name, distribution : see CostCurveDisplay
        The computed numbers, as :class:`CostCurveDisplay` holds them.

    See Also
    --------
    CostCurveDisplay : Any methods and gammas.
    ROCDisplay : The same classifier in ROC space, to draw beside it.

    Examples
    --------
    >>> from threshold_choice import compute_metrics
    >>> from threshold_choice.plotting import BrierCurveDisplay
    >>> labels = [0, 0, 1, 0, 1, 1, 0, 1]
    >>> scores = [0.1, 0.3, 0.35, 0.4, 0.6, 0.8, 0.7, 0.9]
    >>> brier = BrierCurveDisplay.from_predictions(labels, scores)
    >>> [line.get_label().split(",")[0] for line in brier.ax_.get_lines()]
    ['optimal cost curve', 'Brier curve (score-driven)', 'ROC cost curve (rate-driven)']
    >>> area = brier.areas.set_index("method")["expected_loss"]["score-driven"]
    >>> abs(float(area) - compute_metrics(labels, scores)["BS"]) < 1e-12  # the Brier score
    True

    From a pipeline, named after its last step:

    >>> from sklearn.datasets import make_classification
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.preprocessing import StandardScaler
    >>> X, y = make_classification(n_samples=200, n_features=4, random_state=0)
    >>> model = make_pipeline(StandardScaler(), LogisticRegression()).fit(X[:100], y[:100])
    >>> BrierCurveDisplay.from_estimator(model, X[100:], y[100:], plot=False).name
    'LogisticRegression'
    """

    TITLE = "Brier and ROC cost curves"
    DEFAULT_METHODS = ("test-optimal", "score-driven", "rate-driven")
    DEFAULT_GAMMAS = (INF,)
    METHOD_LABELS: ClassVar[dict[str, str]] = {
        "test-optimal": "optimal cost curve",
        "score-driven": "Brier curve (score-driven)",
        "rate-driven": "ROC cost curve (rate-driven)",
    }


__all__ = ["BrierCurveDisplay", "CostCurveDisplay"]
