"""scikit-learn-style Displays of threshold choice under uncertainty.

Compute first, plot second, as scikit-learn's ``RocCurveDisplay``: ``from_predictions(y,
scores, ...)`` or ``from_estimator(model, X, y, ...)`` compute the numbers (kept as attributes,
equal to the library's functions) and draw them; ``plot(ax=...)`` draws again, on any axes, so
several models share one axes; ``data`` holds the plotted numbers (long format, as the
project's figure CSVs).

* :class:`CostCurveDisplay`: test cost lines and expected cost curves ``K(c)`` per method and
  gamma (paper Figs 1, 3, 4, 7, 9), optional bootstrap bands.
* :class:`BrierCurveDisplay`: the optimal, Brier (score-driven) and ROC cost (rate-driven)
  curves in cost space (``001_...``).
* :class:`CertaintyDisplay`: expected loss against the certainty gamma, per method, with the
  gammas where the best method changes (Fig. 5 for one model), optional bootstrap bands.
* :class:`DecisionCurveDisplay`: net benefit against the threshold probability with treat-all
  and treat-none (``002_...``), the decision curves of methods under an uncertain ``c_hat``,
  exact average net benefits over ranges.
* :class:`LogOddsRegretDisplay`: regret against the log-odds of the threshold, the scores'
  and their isotonic recalibration's, whose areas are the log loss, its calibration and its
  refinement (``002_...``, Figs 5, 7).
* :class:`CostWeightDisplay`: the implicit weights of the scoring rules on the cost proportion
  (Brier score, H-measure, log loss, accuracy's point mass), on ``c`` or its log-odds
  (``002_...``, Figs 2, 3); built from beliefs (``from_distributions``), not scores.
* :class:`FROCDisplay`: the FROC curve, its convex hull, F-measure isometrics and F-optimal
  points (``004_...``, Fig. 2); :class:`FCostDisplay`: F-cost lines and expected F-cost curves
  ``K_F(c)`` per method and gamma (``004_...``, Fig. 3).

* :class:`ROCDisplay`: ROC space, the curve, its convex hull (the optimal cost lines) and
  the optimal vertex at given costs (``000_...``, ``001_...``), to draw beside
  :class:`BrierCurveDisplay`.

A new plot is a subclass of :class:`ThresholdChoiceDisplay` with
``_compute``, ``_draw`` and ``_records``.
"""

from __future__ import annotations

from threshold_choice._lazy import lazy_exports

#: public name -> the module of this package that defines it; loaded on first use, so that
#: the figures' data functions can use :mod:`~threshold_choice.plotting._common` (run scores,
#: frame builder, style) without importing matplotlib
_EXPORTS: dict[str, str] = {
    "ThresholdChoiceDisplay": "_base",
    "save_displays": "_base",
    "CertaintyDisplay": "certainty",
    "BrierCurveDisplay": "cost_curves",
    "CostCurveDisplay": "cost_curves",
    "DecisionCurveDisplay": "decision_curves",
    "LogOddsRegretDisplay": "calibration",
    "CostWeightDisplay": "cost_weights",
    "FCostDisplay": "fmeasure",
    "FROCDisplay": "fmeasure",
    "ROCDisplay": "roc",
}

__all__ = sorted(_EXPORTS)

__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
