"""Weka's ``bayes.NaiveBayes`` (the paper's *NB*): a mixed naive Bayes."""

from __future__ import annotations

import numpy as np
import pandas as pd
from numpy.typing import NDArray
from scipy.special import logsumexp, ndtr

from threshold_choice._typing import FloatArray
from threshold_choice.models.preprocessing import WekaLikeClassifier

__all__ = ["WekaNaiveBayes", "weka_numeric_precision"]

_DEFAULT_PRECISION = 0.01  # NaiveBayes.DEFAULT_NUM_PRECISION
_FLOOR = 1e-75  # NaiveBayes.distributionForInstance floors every factor at this value


def weka_numeric_precision(values: FloatArray) -> float:
    """Weka's precision of a numeric attribute: the mean gap between consecutive distinct
    training values (all classes), summed in sorted order as Weka does; 0.01 when fewer than
    two distinct values are present. Missing values (NaN) are ignored."""
    known = np.unique(values[~np.isnan(values)])
    if known.size < 2:
        return _DEFAULT_PRECISION
    # Sequential sum (np.cumsum), not pairwise, to add the gaps in Weka's order.
    return float(np.cumsum(np.diff(known))[-1] / (known.size - 1))


class WekaNaiveBayes(WekaLikeClassifier):
    """Weka ``weka.classifiers.bayes.NaiveBayes`` with its defaults (no kernel, no
    discretisation).

    * Class prior: Laplace, ``(n_c + 1) / (n + 2)``.
    * Nominal attribute: ``(count(value, c) + 1) / (n_c_known + k)`` with ``k`` the number of
      declared values and ``n_c_known`` the class-``c`` rows where it is not missing.
    * Numeric attribute (``NormalEstimator``): a precision ``delta`` per attribute (see
      :func:`weka_numeric_precision`); values are rounded to multiples of ``delta``
      (``rint(v / delta) * delta``); per class the mean and population sd of the rounded known
      values, sd replaced by ``delta / 6`` when it is ~0 (<= 1e-10) or smaller than that; a
      class without known values has mean 0 and sd ``delta / 6``. The likelihood of a value
      ``v`` (rounded) is ``(Phi((v - m + delta/2) / s) - Phi((v - m - delta/2) / s)) / delta``,
      computed as that difference (so, as in Weka, it is 0 far in the upper tail and then
      floored).
    * Every factor is floored at 1e-75; missing attribute values are skipped in fitting and
      in prediction.

    Differences from Weka: products are accumulated as sums of logs and normalised with
    log-sum-exp (Weka multiplies and rescales by 1e75 when it underflows); the resulting
    probabilities agree to rounding error, including where they saturate at 0 or 1. Sums are
    taken in row order (Weka's order is sorted by the last numeric attribute), a rounding-level
    difference. Instance and attribute weights are not supported.
    """

    def fit(self, X: pd.DataFrame, y: NDArray[np.int64]) -> WekaNaiveBayes:
        V, t = self._fit_input(X, y)
        nominal = self.schema_.nominal
        n_values = self.schema_.n_values
        n_cls = np.bincount(t, minlength=2).astype(np.float64)
        self.log_prior_ = np.log((n_cls + 1.0) / (n_cls.sum() + 2.0))
        self.precision_ = np.full(V.shape[1], np.nan)
        self.mean_ = np.zeros((2, V.shape[1]))
        self.sd_ = np.zeros((2, V.shape[1]))
        self.log_tables_: dict[int, FloatArray] = {}
        for j in range(V.shape[1]):
            col = V[:, j]
            if nominal[j]:
                k = int(n_values[j])
                table = np.ones((2, max(k, 1)))
                for c in (0, 1):
                    known = col[(t == c) & ~np.isnan(col)].astype(np.int64)
                    table[c] += np.bincount(known, minlength=max(k, 1))
                self.log_tables_[j] = np.log(table / table.sum(axis=1, keepdims=True))
                continue
            delta = weka_numeric_precision(col)
            self.precision_[j] = delta
            for c in (0, 1):
                known = col[(t == c) & ~np.isnan(col)]
                mean, sd = 0.0, delta / 6.0
                if known.size:
                    r = np.rint(known / delta) * delta
                    s, ss = r.sum(), (r * r).sum()
                    mean = s / known.size
                    raw = np.sqrt(abs(ss - mean * s) / known.size)
                    if raw > 1e-10:
                        sd = max(delta / 6.0, raw)
                self.mean_[c, j], self.sd_[c, j] = mean, sd
        return self

    def _joint_log(self, V: FloatArray) -> FloatArray:
        """Unnormalised log posterior per row and class, shape (n, 2)."""
        out = np.tile(self.log_prior_, (V.shape[0], 1))
        for j in range(V.shape[1]):
            col = V[:, j]
            ok = ~np.isnan(col)
            if not ok.any():
                continue
            if j in self.log_tables_:
                codes = col[ok].astype(np.int64)
                out[ok] += np.maximum(self.log_tables_[j][:, codes].T, np.log(_FLOOR))
                continue
            delta = self.precision_[j]
            v = np.rint(col[ok] / delta) * delta
            for c in (0, 1):
                m, s = self.mean_[c, j], self.sd_[c, j]
                lower = ndtr((v - m - delta / 2.0) / s)
                upper = ndtr((v - m + delta / 2.0) / s)
                dens = (upper - lower) / delta
                out[ok, c] += np.log(np.maximum(dens, _FLOOR))
        return out

    def predict_proba(self, X: pd.DataFrame) -> FloatArray:
        joint = self._joint_log(self._predict_input(X))
        return np.exp(joint - logsumexp(joint, axis=1, keepdims=True))
