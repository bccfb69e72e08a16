"""WekaSMO: crisp output, Normalize filter, Platt calibration on the training outputs."""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.optimize import minimize
from scipy.special import expit

from threshold_choice.models.svm import WekaSMO


def _data(n: int = 150, seed: int = 0) -> tuple[pd.DataFrame, np.ndarray]:
    rng = np.random.default_rng(seed)
    x1 = rng.normal(size=n)
    x2 = rng.normal(size=n)
    c = rng.choice(["u", "v"], size=n)
    y = (x1 - 0.5 * x2 + 0.7 * (c == "v") + 0.6 * rng.normal(size=n) > 0.3).astype(int)
    X = pd.DataFrame({
        "x1": x1,
        "x2": x2,
        "c": pd.Series(pd.Categorical(c, categories=pd.Index(["u", "v"], dtype=object))),
    })
    return X, y


def test_uncalibrated_output_is_crisp_and_follows_the_sign() -> None:
    X, y = _data()
    model = WekaSMO().fit(X, y)
    proba = model.predict_proba(X)
    assert set(np.unique(proba)) <= {0.0, 1.0}
    np.testing.assert_array_equal(proba[:, 1], (model.decision_function(X) > 0).astype(float))
    assert (model.predict(X) == y).mean() > 0.75


def test_separable_data_are_classified_perfectly() -> None:
    rng = np.random.default_rng(5)
    x = np.concatenate([rng.uniform(0, 1, 40), rng.uniform(2, 3, 40)])
    X = pd.DataFrame({"x": x, "noise": rng.normal(size=80)})
    y = (x > 1.5).astype(int)
    np.testing.assert_array_equal(WekaSMO().fit(X, y).predict_proba(X)[:, 1], y)


def test_normalize_filter_makes_units_irrelevant() -> None:
    X, y = _data(seed=1)
    rescaled = X.assign(x1=X["x1"] * 1000.0 + 5.0, x2=X["x2"] / 300.0 - 2.0)
    a = WekaSMO().fit(X, y).decision_function(X)
    b = WekaSMO().fit(rescaled, y).decision_function(rescaled)
    np.testing.assert_allclose(a, b, atol=1e-7)


def test_calibrated_probabilities_are_a_logistic_fit_to_training_outputs() -> None:
    X, y = _data(seed=2)
    model = WekaSMO(calibrate=True).fit(X, y)
    out = model.decision_function(X)
    # Independent maximum likelihood fit of y ~ a + b * output (ridge 1e-8 is negligible here).

    def nll(ab: np.ndarray) -> tuple[float, np.ndarray]:
        eta = ab[0] + ab[1] * out
        r = expit(eta) - y
        return float(np.sum(np.logaddexp(0, eta) - y * eta)), np.array([r.sum(), r @ out])

    ab = minimize(nll, np.zeros(2), jac=True, method="BFGS", options={"gtol": 1e-10}).x
    got = model.predict_proba(X)[:, 1]
    np.testing.assert_allclose(got, expit(ab[0] + ab[1] * out), atol=1e-6)
    assert ab[1] > 0  # larger SVM output -> more likely class 1
    assert 0 < got.min() and got.max() < 1
