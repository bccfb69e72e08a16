"""WekaLogistic: close to the unpenalised MLE on non-separable data (computed independently
with scipy on a dummy-coded design), ridge on standardised coefficients, missing values."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.optimize import minimize
from scipy.special import expit

from threshold_choice.models.logistic import WekaLogistic


def _data(n: int = 400, seed: int = 1) -> tuple[pd.DataFrame, np.ndarray]:
    rng = np.random.default_rng(seed)
    x1 = rng.normal(3.0, 2.0, size=n)
    x2 = rng.uniform(-50, 50, size=n)
    g = rng.choice(["a", "b", "c"], size=n)
    eta = -0.5 + 0.8 * (x1 - 3) + 0.02 * x2 + np.select([g == "b", g == "c"], [1.0, -1.0], 0.0)
    y = (rng.uniform(size=n) < expit(eta)).astype(int)
    X = pd.DataFrame({
        "x1": x1,
        "x2": x2,
        "g": pd.Series(pd.Categorical(g, categories=pd.Index(["a", "b", "c"], dtype=object))),
    })
    return X, y


def _mle_probabilities(X: pd.DataFrame, y: np.ndarray, Xnew: pd.DataFrame) -> np.ndarray:
    """Unpenalised MLE with a full-rank design (intercept, x1, x2, g=b, g=c)."""

    def design(F: pd.DataFrame) -> np.ndarray:
        g = F["g"].astype(str).to_numpy()
        cols = [np.ones(len(F)), F["x1"], F["x2"], g == "b", g == "c"]
        return np.column_stack(cols).astype(float)

    A = design(X)

    def nll(beta: np.ndarray) -> tuple[float, np.ndarray]:
        eta = A @ beta
        return float(np.sum(np.logaddexp(0, eta) - y * eta)), A.T @ (expit(eta) - y)

    res = minimize(nll, np.zeros(A.shape[1]), jac=True, method="BFGS",
                   options={"gtol": 1e-10, "maxiter": 10_000})
    return expit(design(Xnew) @ res.x)


def test_close_to_unpenalised_mle() -> None:
    X, y = _data()
    model = WekaLogistic().fit(X, y)
    assert model.fit_.converged
    got = model.predict_proba(X)[:, 1]
    np.testing.assert_allclose(got, _mle_probabilities(X, y, X), atol=1e-6)
    np.testing.assert_allclose(model.predict_proba(X).sum(axis=1), 1.0)


def test_huge_ridge_leaves_only_the_unpenalised_intercept() -> None:
    X, y = _data(n=200, seed=2)
    got = WekaLogistic(ridge=1e9).fit(X, y).predict_proba(X)[:, 1]
    # every (standardised) slope is shrunk to ~0; the free intercept fits the class rate
    np.testing.assert_allclose(got, y.mean(), atol=1e-4)


def test_missing_value_at_prediction_is_replaced_by_training_mean() -> None:
    X, y = _data(n=200, seed=3)
    model = WekaLogistic().fit(X, y)
    row = X.iloc[[0]].copy()
    with_nan = row.copy()
    with_nan.loc[with_nan.index[0], "x1"] = np.nan
    with_mean = row.copy()
    with_mean.loc[with_mean.index[0], "x1"] = X["x1"].mean()
    assert model.predict_proba(with_nan)[0, 1] == pytest.approx(
        model.predict_proba(with_mean)[0, 1], rel=1e-12
    )


def test_constant_column_is_removed_and_harmless() -> None:
    X, y = _data(n=200, seed=4)
    base = WekaLogistic().fit(X, y).predict_proba(X)[:, 1]
    Xc = X.assign(k=7.0)
    with_const = WekaLogistic().fit(Xc, y)
    np.testing.assert_allclose(with_const.predict_proba(Xc)[:, 1], base, atol=1e-9)
    assert not with_const.encoder_.keep_[-1]
