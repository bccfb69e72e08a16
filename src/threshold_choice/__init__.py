"""Threshold choice methods under operating-condition uncertainty.

Conventions used throughout the package
---------------------------------------
* Labels are in {0, 1}, or any two labels with ``pos_label=`` naming class 1 (the
  *positive* class, whose probability the score estimates; labels other than 0/1 without
  it are refused, never read as scikit-learn's ``classes_[1]``). In the paper's
  experiments class 1 is the majority class of the dataset; a library user's positive
  class is whichever they name, a minority one as often as not.
* A threshold ``t`` predicts class 1 iff ``score > t`` (strict) and class 0 otherwise.
* ``c`` is the cost proportion (cost of misclassifying a class-0 example, normalised so
  that the two costs sum to b = 2). The loss of threshold ``t`` at ``c`` is
  ``Q(t; c) = 2 * (c * pi0 * FP0(t) + (1 - c) * pi1 * FN1(t))`` with the class
  proportions of the evaluation (test) set.

Public API
----------
The names below are importable from the package itself (``from threshold_choice import
expected_losses``); each is defined in the module named beside it, where its documentation
lives. They load on first use, so ``import threshold_choice`` stays cheap.

* cost lines and methods: :class:`CostLines` (``costlines``); :data:`METHODS`,
  :data:`PAPER_METHODS`, :func:`make_selection`, :class:`Selection`, one
  :class:`MethodSpec` per method (:func:`method_spec`; :func:`register_method` adds one)
  (``methods``);
* operating conditions: :class:`Uncertainty`, :data:`PAPER_GAMMAS`, :func:`parse_gamma`,
  :func:`gamma_for_spread` (``uncertainty``); :class:`CostDistribution`,
  :func:`parse_cost_distribution`, :func:`beta_from_interval`, and
  :func:`cost_weight_density` (a belief's density on ``c`` or its log-odds)
  (``cost_distributions``);
* expected loss: :class:`LossSettings`, :func:`expected_losses` (``evaluation``),
  :func:`expected_cost_curve` and :func:`segment_contributions` (each cost line's share,
  Theorem 1; ``expected_loss``), :func:`bootstrap` and :func:`paired_difference`
  (``bootstrap``: ``from threshold_choice import bootstrap`` gives the module, callable as
  the function). The function ``expected_loss`` shares its module's name, which Python
  binds to the package once the module is imported: import it from its module;
* metrics: :func:`auc`, :func:`compute_metrics`, :func:`h_measure`,
  :func:`bounded_brier_score`, :func:`bounded_log_loss`, :func:`shifted_brier_score`, the
  top-K metrics :func:`precision_at_k`, :func:`recall_at_k`, :func:`average_precision`
  (``metrics``); the isotonic calibration / refinement decompositions
  :func:`brier_decomposition`, :func:`log_loss_decomposition` (a :class:`ScoreDecomposition`)
  and the :func:`regret_curves` they are areas of (``calibration``); net benefit and decision
  curves, :func:`rescaled_decision_curve` included (``decision_curves``); F-measure
  contexts, the F-optimal threshold and the isometrics (:func:`f_optimal_threshold`,
  :func:`f_isometric`, :func:`accuracy_isometric`; ``fmeasure``); ROC space,
  :func:`roc_points`, :func:`auch`, :func:`step_roc_cost_area`,
  :func:`instance_uniform_loss` (``roc``); score transformations :func:`evenly_spaced`,
  :func:`pav_calibrated` (``score_transforms``); class-prior contexts
  :func:`adjust_posterior`, :func:`prior_change_cost`, :func:`skew_density` (``priors``);
* scikit-learn: :class:`ThresholdChoiceClassifier` (``estimators``), the scorer factories
  (``scorers``; :func:`make_threshold_choice_scorer` scores a classifier's own method, for
  choosing it by cross-validation) and the ``*Display`` plots (``plotting``);
* costs in the user's terms: :class:`Costs` (``costs``: a cost matrix, the costs of the
  two errors or a range of their ratio, with the positive class named, give ``c``, a
  belief about it and losses in their units); every function's ``costs=`` takes one;
* :class:`UserError` (``errors``): every error a caller can fix.

The reproduction of the paper (datasets, splits, models, workflow steps, tables, figures,
comparison) lives in the subpackages ``datasets``, ``splits``, ``models`` and
``reproduction``; the command line in ``cli``.
"""

from __future__ import annotations

import importlib

from threshold_choice._lazy import lazy_exports

__version__ = "0.1.0"

#: public name -> the module (of this package) that defines it
_EXPORTS: dict[str, str] = {
    "CostLines": "costlines",
    "METHODS": "methods",
    "PAPER_METHODS": "methods",
    "Selection": "methods",
    "make_selection": "methods",
    "MethodSpec": "methods",
    "method_spec": "methods",
    "register_method": "methods",
    "Uncertainty": "uncertainty",
    "PAPER_GAMMAS": "uncertainty",
    "parse_gamma": "uncertainty",
    "gamma_for_spread": "uncertainty",
    "CostDistribution": "cost_distributions",
    "parse_cost_distribution": "cost_distributions",
    "beta_from_interval": "cost_distributions",
    "cost_weight_density": "cost_distributions",
    "expected_cost_curve": "expected_loss",
    "segment_contributions": "expected_loss",
    "LossSettings": "evaluation",
    "expected_losses": "evaluation",
    "paired_difference": "bootstrap",
    "auc": "metrics",
    "compute_metrics": "metrics",
    "h_measure": "metrics",
    "bounded_brier_score": "metrics",
    "bounded_log_loss": "metrics",
    "shifted_brier_score": "metrics",
    "ScoreDecomposition": "calibration",
    "brier_decomposition": "calibration",
    "log_loss_decomposition": "calibration",
    "regret_curves": "calibration",
    "net_benefit": "decision_curves",
    "decision_curve": "decision_curves",
    "expected_net_benefit": "decision_curves",
    "rescaled_decision_curve": "decision_curves",
    "FCostLines": "fmeasure",
    "expected_f_loss": "fmeasure",
    "f_optimal_threshold": "fmeasure",
    "f_isometric": "fmeasure",
    "accuracy_isometric": "fmeasure",
    "precision_at_k": "metrics",
    "recall_at_k": "metrics",
    "average_precision": "metrics",
    "ThresholdChoiceClassifier": "estimators",
    "make_expected_loss_scorer": "scorers",
    "make_metric_scorer": "scorers",
    "make_cost_scorer": "scorers",
    "make_threshold_choice_scorer": "scorers",
    "CostCurveDisplay": "plotting",
    "BrierCurveDisplay": "plotting",
    "CertaintyDisplay": "plotting",
    "DecisionCurveDisplay": "plotting",
    "LogOddsRegretDisplay": "plotting",
    "CostWeightDisplay": "plotting",
    "FROCDisplay": "plotting",
    "FCostDisplay": "plotting",
    "ROCDisplay": "plotting",
    "roc_points": "roc",
    "auch": "roc",
    "step_roc_cost_area": "roc",
    "instance_uniform_loss": "roc",
    "evenly_spaced": "score_transforms",
    "pav_calibrated": "score_transforms",
    "adjust_posterior": "priors",
    "prior_change_cost": "priors",
    "skew_density": "priors",
    "UserError": "errors",
    "Costs": "costs",
}

#: public names that are modules callable as their function (the module's name is the
#: function's, and Python binds a submodule to the package once imported)
_CALLABLE_MODULES: frozenset[str] = frozenset({"bootstrap"})

__all__ = sorted([*_EXPORTS, *_CALLABLE_MODULES])

_lazy_getattr, _lazy_dir = lazy_exports(__name__, _EXPORTS)


def __getattr__(name: str) -> object:
    if name in _CALLABLE_MODULES:
        return importlib.import_module(f"{__name__}.{name}")
    return _lazy_getattr(name)


def __dir__() -> list[str]:
    return sorted({*_lazy_dir(), *_CALLABLE_MODULES})
