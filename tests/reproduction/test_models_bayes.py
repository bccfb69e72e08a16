"""WekaNaiveBayes against a small example computed by hand from Weka's estimators."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from threshold_choice.errors import UserError
from threshold_choice.models.bayes import WekaNaiveBayes, weka_numeric_precision


def _phi(z: float) -> float:
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


def _frame(a: list[float], b: list[str | None]) -> pd.DataFrame:
    cats = pd.Index(["x", "y", "z"], dtype=object)
    return pd.DataFrame({
        "a": pd.Series(a, dtype="float64"),
        "b": pd.Series(pd.Categorical(b, categories=cats)),
    })


@pytest.fixture
def fitted() -> WekaNaiveBayes:
    # class 1: a = 1, 2, 3 with b = x, x, y; class 0: a = 5, 7 with b = z, missing
    X = _frame([1, 2, 3, 5, 7], ["x", "x", "y", "z", None])
    y = np.array([1, 1, 1, 0, 0])
    return WekaNaiveBayes().fit(X, y)


def test_precision_is_mean_gap_between_distinct_values() -> None:
    # distinct 1, 2, 3, 5, 7: gaps sum to 6 over 4 gaps
    assert weka_numeric_precision(np.array([3.0, 1, 2, 7, 5, 5, np.nan])) == pytest.approx(1.5)
    assert weka_numeric_precision(np.array([4.0, 4.0])) == 0.01


def test_hand_computed_posterior(fitted: WekaNaiveBayes) -> None:
    delta = 1.5
    # Rounded to multiples of 1.5: class 1 -> 1.5, 1.5, 3.0 (mean 2, population sd sqrt(0.5));
    # class 0 -> 4.5, 7.5 (mean 6, sd 1.5); both sds exceed delta / 6 = 0.25.
    m1, s1, m0, s0 = 2.0, math.sqrt(0.5), 6.0, 1.5
    v = 4.5  # the query a = 4.0 rounds to 3 * 1.5
    like1 = (_phi((v - m1 + delta / 2) / s1) - _phi((v - m1 - delta / 2) / s1)) / delta
    like0 = (_phi((v - m0 + delta / 2) / s0) - _phi((v - m0 - delta / 2) / s0)) / delta
    # b = x: class 1 counts x2 y1 z0 -> (2+1)/(3+3); class 0 knows only z -> (0+1)/(1+3)
    nom1, nom0 = 3 / 6, 1 / 4
    prior1, prior0 = 4 / 7, 3 / 7  # (3+1)/(5+2), (2+1)/(5+2)
    j1, j0 = prior1 * like1 * nom1, prior0 * like0 * nom0
    got = fitted.predict_proba(_frame([4.0], ["x"]))[0]
    assert got[1] == pytest.approx(j1 / (j0 + j1), rel=1e-12)
    assert got[0] == pytest.approx(j0 / (j0 + j1), rel=1e-12)


def test_missing_values_are_skipped_at_prediction(fitted: WekaNaiveBayes) -> None:
    # Only the prior and the nominal factor remain.
    j1, j0 = 4 / 7 * 2 / 6, 3 / 7 * 1 / 4  # b = y: class 1 (1+1)/6, class 0 (0+1)/4
    got = fitted.predict_proba(_frame([np.nan], ["y"]))[0, 1]
    assert got == pytest.approx(j1 / (j0 + j1), rel=1e-12)
    only_prior = fitted.predict_proba(_frame([np.nan], [None]))[0, 1]
    assert only_prior == pytest.approx(4 / 7, rel=1e-12)


def test_minimum_sd_rule_when_a_class_is_constant() -> None:
    # class 1 has a single distinct value: sd falls back to delta / 6
    X = _frame([2.0, 2.0, 0.0, 4.0], ["x", "x", "x", "x"])
    y = np.array([1, 1, 0, 0])
    nb = WekaNaiveBayes().fit(X, y)
    delta = 2.0  # distinct 0, 2, 4
    assert nb.sd_[1, 0] == pytest.approx(delta / 6)
    assert nb.mean_[1, 0] == pytest.approx(2.0)


def test_rejects_non_categorical_strings() -> None:
    X = pd.DataFrame({"a": [1.0, 2.0], "s": ["u", "v"]})
    with pytest.raises(UserError, match="Categorical"):
        WekaNaiveBayes().fit(X, np.array([0, 1]))
