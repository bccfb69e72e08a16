"""Weka's ``functions.Logistic`` (the paper's *Logist*): ridge logistic regression."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from numpy.typing import NDArray
from scipy.special import expit

from threshold_choice._typing import FloatArray
from threshold_choice.models.preprocessing import (
    WekaAttributeEncoder,
    WekaLikeClassifier,
)

__all__ = ["RidgeLogisticFit", "WekaLogistic", "fit_ridge_logistic"]


@dataclass(frozen=True)
class RidgeLogisticFit:
    """``P(class 1 | z) = expit(intercept + z @ coef)`` in the original units of ``z``."""

    intercept: float
    coef: FloatArray
    n_iter: int
    converged: bool

    def decision(self, Z: FloatArray) -> FloatArray:
        return self.intercept + Z @ self.coef if Z.shape[1] else np.full(Z.shape[0], self.intercept)


def _objective(A: FloatArray, t: FloatArray, beta: FloatArray, ridge: float) -> float:
    eta = A @ beta
    # -log-likelihood: log(1 + e^eta) - t * eta, stable through logaddexp.
    return float(np.sum(np.logaddexp(0.0, eta) - t * eta) + ridge * np.sum(beta[1:] ** 2))


def fit_ridge_logistic(Z: FloatArray, t: NDArray[np.int64], ridge: float = 1e-8,
                       max_iter: int = 200) -> RidgeLogisticFit:
    """Weka Logistic's penalised maximum likelihood for two classes.

    As ``Logistic.buildClassifier``: columns are standardised by the training mean and the
    sample sd (n - 1), a column with sd 0 is left as it is; the objective is
    ``-loglik + ridge * sum(beta_std ** 2)`` over the standardised coefficients (intercept not
    penalised); the start is the null model ``log((n1 + 1) / (n0 + 1))``; the coefficients
    are mapped back to the original units at the end.

    Weka minimises with its own BFGS (``weka.core.Optimization``); here a damped Newton
    method with the exact Hessian is run to the optimum (Newton decrement below 1e-20), which
    the strictly convex objective (ridge > 0) has. On (quasi-)separable data Weka's BFGS
    stops at its own tolerances somewhere on a very flat objective, so coefficients, and
    extreme probabilities, can differ there.
    """
    Z = np.asarray(Z, dtype=np.float64)
    n, p = Z.shape
    tt = np.asarray(t, dtype=np.float64)
    mean = Z.mean(axis=0) if n else np.zeros(p)
    sd = Z.std(axis=0, ddof=1) if n > 1 else np.zeros(p)
    scale_ok = sd != 0
    Zs = np.where(scale_ok, (Z - mean) / np.where(scale_ok, sd, 1.0), Z)
    A = np.column_stack([np.ones(n), Zs])
    pen = np.full(p + 1, 2.0 * ridge)
    pen[0] = 0.0
    n1 = float(tt.sum())
    beta = np.zeros(p + 1)
    beta[0] = np.log(n1 + 1.0) - np.log(n - n1 + 1.0)
    f = _objective(A, tt, beta, ridge)
    converged = False
    it = 0
    for it in range(1, max_iter + 1):  # noqa: B007 - the count is reported
        mu = expit(A @ beta)
        grad = A.T @ (mu - tt) + pen * beta
        w = mu * (1.0 - mu)
        hess = (A * w[:, None]).T @ A + np.diag(pen)
        try:
            step = np.linalg.solve(hess, grad)
        except np.linalg.LinAlgError:
            step = np.linalg.lstsq(hess, grad, rcond=None)[0]
        decrement = float(grad @ step)
        if not np.isfinite(decrement) or decrement <= 0.0:
            step, decrement = grad, float(grad @ grad)  # fall back to steepest descent
        if decrement / 2.0 < 1e-20:
            converged = True
            break
        size, improved = 1.0, False
        while size > 1e-12:
            cand = beta - size * step
            fc = _objective(A, tt, cand, ridge)
            if fc <= f - 1e-4 * size * decrement:  # Armijo condition
                improved = True
                break
            size /= 2.0
        if not improved:
            converged = True  # no further decrease is representable in float64
            break
        beta, f = cand, fc
    coef = np.where(scale_ok, beta[1:] / np.where(scale_ok, sd, 1.0), beta[1:])
    intercept = float(beta[0] - np.sum(np.where(scale_ok, coef * mean, 0.0)))
    return RidgeLogisticFit(intercept, coef, it, converged)


class WekaLogistic(WekaLikeClassifier):
    """Weka ``weka.classifiers.functions.Logistic`` with its defaults (ridge 1e-8).

    Pipeline, as ``Logistic.buildClassifier``: ``ReplaceMissingValues`` (training mean /
    mode, also used for missing values at prediction) -> ``RemoveUseless`` (constant columns
    and nominal columns with > 99 % distinct values dropped) -> ``NominalToBinary`` (a
    nominal attribute with <= 2 declared values -> one 0/1 column, else one indicator per
    value) -> standardisation (mean, sd with n - 1) -> penalised likelihood with
    ``ridge * ||beta_std||^2`` (intercept free): see :func:`fit_ridge_logistic`.

    Note: Weka *does* standardise before penalising, so the ridge acts on standardised
    coefficients; with ridge 1e-8 the fit is essentially the maximum-likelihood one except on
    (quasi-)separable data.

    Differences from Weka: the optimiser (exact damped Newton instead of Weka's BFGS with its
    stopping rules; identical optimum up to ~1e-8 relative on well-posed data, may differ on
    separable data), instance weights are not supported, two classes only.

    Parameters
    ----------
    ridge:
        Weka's ``-R`` (default 1e-8).
    max_iter:
        Newton iterations at most (Weka's default ``-M -1`` means until convergence).
    """

    def __init__(self, ridge: float = 1e-8, max_iter: int = 200) -> None:
        self.ridge = ridge
        self.max_iter = max_iter

    def _validate_params(self) -> None:
        if not (isinstance(self.ridge, (int, float)) and self.ridge >= 0):
            raise ValueError(f"ridge must be a number >= 0, got {self.ridge!r}")
        if not (isinstance(self.max_iter, int) and self.max_iter >= 1):
            raise ValueError(f"max_iter must be an int >= 1, got {self.max_iter!r}")

    def fit(self, X: pd.DataFrame, y: NDArray[np.int64]) -> WekaLogistic:
        self._validate_params()
        V, t = self._fit_input(X, y)
        self.encoder_ = WekaAttributeEncoder(remove_useless=True, normalize=False).fit(
            V, self.schema_
        )
        self.fit_ = fit_ridge_logistic(self.encoder_.transform(V), t, float(self.ridge),
                                       self.max_iter)
        return self

    def decision_function(self, X: pd.DataFrame) -> FloatArray:
        """Log-odds of class 1."""
        return self.fit_.decision(self.encoder_.transform(self._predict_input(X)))

    def predict_proba(self, X: pd.DataFrame) -> FloatArray:
        eta = self.decision_function(X)
        return np.column_stack([expit(-eta), expit(eta)])
