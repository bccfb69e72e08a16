"""Weka's ``functions.SMO`` (the paper's *SVM* and *SVMp*): a linear support vector machine."""

from __future__ import annotations

import numpy as np
import pandas as pd
from numpy.typing import NDArray
from scipy.special import expit
from sklearn.svm import SVC

from threshold_choice._typing import FloatArray
from threshold_choice.models.logistic import RidgeLogisticFit, fit_ridge_logistic
from threshold_choice.models.preprocessing import (
    WekaAttributeEncoder,
    WekaLikeClassifier,
)

__all__ = ["WekaSMO"]


class WekaSMO(WekaLikeClassifier):
    """Weka ``weka.classifiers.functions.SMO`` with its defaults: ``PolyKernel`` with exponent
    1 (a linear machine), ``C = 1``, tolerance 1e-3, ``Normalize`` filter; with
    ``calibrate=True`` Weka's ``-M`` (fit calibration models, default ``-V -1``: on the
    training data itself).

    Pipeline, as ``SMO.buildClassifier``: ``ReplaceMissingValues`` (training mean / mode, also
    at prediction) -> ``NominalToBinary`` (<= 2 declared values -> one 0/1 column, else one
    indicator per value) -> ``Normalize`` (training min/max to [0, 1], constant -> 0, not
    clipped at prediction) -> the SVM.

    Output:

    * ``calibrate=False``: Weka's ``distributionForInstance`` is the (one) pairwise vote, so
      ``predict_proba`` is crisp: class 1 gets probability 1 iff the SVM output ``w.x + b`` is
      > 0 (Weka: the second class of the ARFF header wins iff its output is > 0).
    * ``calibrate=True``: a Weka ``Logistic`` (ridge ``ridge``, see
      :func:`~threshold_choice.models.logistic.fit_ridge_logistic`) is fitted to the SVM
      outputs on the training rows the SVM was fitted on, with their classes, and gives the
      probabilities (Platt scaling without cross-validation, as Weka's default; not
      scikit-learn's cross-validated ``CalibratedClassifierCV``). If the outputs on the
      training rows are all equal, Weka's ``RemoveUseless`` drops them and the calibrator is
      the intercept-only model (the training class proportions, Laplace-free).

    Differences from Weka: the dual problem is solved by libsvm (scikit-learn ``SVC`` with a
    linear kernel, ``tol`` as its stopping tolerance) instead of Weka's SMO with Keerthi's
    modification 1 (``-L 1e-3``, ``-P 1e-12``, data shuffled with seed 1); both stop at a
    1e-3 KKT tolerance, so ``w`` and especially ``b`` (Weka: midpoint of ``b_low``/``b_up``;
    libsvm: mean over free support vectors) can differ in the third decimal, which flips the
    crisp output only for rows on the margin of the decision boundary. Instance weights are
    not supported.

    Parameters
    ----------
    C:
        Complexity constant (Weka ``-C``, default 1).
    tol:
        Stopping tolerance (Weka ``-L``, default 1e-3).
    calibrate:
        Fit the logistic calibrator (Weka ``-M``).
    ridge:
        Ridge of the calibrator's Logistic (Weka default 1e-8).
    """

    def __init__(self, C: float = 1.0, tol: float = 1e-3, calibrate: bool = False,
                 ridge: float = 1e-8) -> None:
        self.C = C
        self.tol = tol
        self.calibrate = calibrate
        self.ridge = ridge

    def _validate_params(self) -> None:
        for name in ("C", "tol"):
            value = getattr(self, name)
            if not (isinstance(value, (int, float)) and value > 0):
                raise ValueError(f"{name} must be a number > 0, got {value!r}")
        if not isinstance(self.calibrate, bool):
            raise ValueError(f"calibrate must be true or false, got {self.calibrate!r}")
        if not (isinstance(self.ridge, (int, float)) and self.ridge >= 0):
            raise ValueError(f"ridge must be a number >= 0, got {self.ridge!r}")

    def fit(self, X: pd.DataFrame, y: NDArray[np.int64]) -> WekaSMO:
        self._validate_params()
        V, t = self._fit_input(X, y)
        self.encoder_ = WekaAttributeEncoder(remove_useless=False, normalize=True).fit(
            V, self.schema_
        )
        Z = self.encoder_.transform(V)
        if Z.shape[1] == 0:
            Z = np.zeros((Z.shape[0], 1))  # no attribute at all: a constant one changes nothing
            self._pad_ = True
        else:
            self._pad_ = False
        self.svm_ = SVC(kernel="linear", C=float(self.C), tol=float(self.tol), shrinking=True)
        self.svm_.fit(Z, t)
        self.calibrator_: RidgeLogisticFit | None = None
        if self.calibrate:
            out = self.svm_.decision_function(Z)
            # Weka's Logistic on the single attribute "pred": RemoveUseless drops it if constant.
            useful = np.unique(out).size > 1
            z = out[:, None] if useful else np.zeros((out.shape[0], 0))
            self.calibrator_ = fit_ridge_logistic(z, t, float(self.ridge))
            self._calibrator_uses_output_ = useful
        return self

    def decision_function(self, X: pd.DataFrame) -> FloatArray:
        """The SVM output ``w.x + b``; > 0 means class 1."""
        Z = self.encoder_.transform(self._predict_input(X))
        if self._pad_:
            Z = np.zeros((Z.shape[0], 1))
        return self.svm_.decision_function(Z)

    def predict_proba(self, X: pd.DataFrame) -> FloatArray:
        out = self.decision_function(X)
        if self.calibrator_ is None:
            p1 = (out > 0).astype(np.float64)
            return np.column_stack([1.0 - p1, p1])
        z = out[:, None] if self._calibrator_uses_output_ else np.zeros((out.shape[0], 0))
        eta = self.calibrator_.decision(z)
        return np.column_stack([expit(-eta), expit(eta)])
