"""Metrics of one set of labelled scores."""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import random_scores
from threshold_choice.errors import UserError
from threshold_choice.metrics import (
    bounded_brier_score,
    bounded_log_loss,
    compute_metrics,
    h_measure,
)


@pytest.mark.parametrize("seed", range(5))
def test_brier_score_is_calibration_plus_refinement(seed):
    y, s = random_scores(seed, 120, decimals=1 if seed % 2 else None)
    m = compute_metrics(y, s)
    assert m["BS"] == pytest.approx(m["CL"] + m["RL"], abs=1e-14)


def test_hand_computed_example():
    y = np.array([1, 0, 1, 0, 1, 0])
    s = np.array([0.9, 0.2, 0.6, 0.6, 0.3, 0.1])
    m = compute_metrics(y, s)
    # pairs (pos, neg): 0.9 beats all 3; 0.6 beats 0.2, 0.1 and ties 0.6; 0.3 beats 0.2, 0.1
    assert m["AUC"] == pytest.approx((3 + 2.5 + 2) / 9)
    assert m["BS"] == pytest.approx(np.mean([0.01, 0.04, 0.16, 0.36, 0.49, 0.01]))
    assert m["MAE"] == pytest.approx(np.mean([0.1, 0.2, 0.4, 0.6, 0.7, 0.1]))
    # bins: {0.1:0}, {0.2:0}, {0.3:1}, {0.6: 1 and 0}, {0.9: 1}: only the 0.6 bin is impure
    assert m["RL"] == pytest.approx(2 * 0.25 / 6)
    # PAV pools 0.2 (0), 0.3 (1), 0.6 (1, 0)? values 0, 0, 1, 0.5, 1 -> pool {1, 0.5} = 2/3
    assert m["RL_conv"] == pytest.approx(3 * (2 / 3) * (1 / 3) / 6)
    assert m["pi0"] == pytest.approx(0.5)


def test_log_loss_is_clipped_for_certain_mistakes():
    m = compute_metrics(np.array([0, 1]), np.array([1.0, 1.0]))
    assert np.isfinite(m["LogLoss"]) and m["LogLoss"] > 10


@pytest.mark.parametrize(
    ("y", "s", "message"),
    [
        ([0, 1, 2], [0.1, 0.2, 0.3], "labels must be 0 or 1"),
        ([0, 1], [0.1, float("nan")], "NaN"),
        ([1, 1, 1], [0.1, 0.2, 0.3], "only class 1"),
        ([], [], "no examples"),
        ([0, 1], [0.5], "2 labels but 1 scores"),
    ],
)
def test_bad_input_is_named(y, s, message):
    with pytest.raises(UserError, match=message):
        compute_metrics(np.array(y), np.array(s, dtype=float))


@pytest.mark.parametrize(("call", "message"), [
    (lambda y, s: h_measure(y, s, 0, 2), r"shape a must be a number in \(0, inf\), got 0"),
    (lambda y, s: h_measure(y, s, 2, float("nan")), "shape b must be a number"),
    (lambda y, s: h_measure(y, s, "2", -1), "shape b must be a number"),
    (lambda y, s: bounded_brier_score(y, s, 0.5, 0.2), "needs lo < hi, got lo=0.5, hi=0.2"),
    (lambda y, s: bounded_brier_score(y, s, float("nan"), 0.2), r"lo must be a number in \[0, 1\]"),
    (lambda y, s: bounded_log_loss(y, s, 0.0, 0.2), r"lo must be a number in \(0, 1\)"),
    (lambda y, s: bounded_log_loss(y, s, 0.1, 1.0), r"hi must be a number in \(0, 1\)"),
    (lambda y, s: compute_metrics(y, s, eps=0.6), r"eps .* must be a number in \[0, 0.5\)"),
    (lambda y, s: compute_metrics(y, s, eps=float("nan")), "eps"),
], ids=["a-0", "b-nan", "b-negative", "brier-lo>hi", "brier-nan", "log-lo-0", "log-hi-1",
        "eps-0.6", "eps-nan"])
def test_a_metrics_parameter_out_of_its_range_is_named_not_a_number_returned(call, message):
    y, s = np.array([0, 1, 0, 1, 1]), np.array([0.1, 0.7, 0.4, 0.3, 0.9])
    with pytest.raises(UserError, match=message):
        call(y, s)


def _exact_mean(values) -> float:
    """The mean of exact rationals (Python's Fraction): no rounding, no overflow."""
    from fractions import Fraction

    return float(sum(Fraction(float(v)) for v in values) / len(values))


def test_scores_near_the_float_limit_give_the_metrics_without_overflow_warnings():
    import warnings

    rng = np.random.default_rng(0)
    y = np.array([0, 1] * 20)
    s = np.where(y == 1, 1.0, -1.0) * 1e308 * rng.uniform(0.5, 1.0, y.size)  # rank-based use
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an overflow warning fails the test
        m = compute_metrics(y, s)
    assert m["AUC"] == 1.0
    # the squares are ~1e616: the true Brier score and CL are above the largest float
    assert m["BS"] == np.inf and m["CL"] == np.inf
    # the mean absolute error is finite, < 1e308, though the plain sum overflows
    assert m["MAE"] == pytest.approx(_exact_mean(np.abs(y - s)), rel=1e-12)


def test_a_square_that_overflows_in_a_finite_mean_gives_the_finite_mean():
    import warnings
    from fractions import Fraction

    y = np.array([0, 1, 0, 1] * 25)
    s = np.full(y.size, 0.5)
    s[0] = 1.5e154  # its square, 2.25e308, overflows; the mean over 100 examples does not
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        m = compute_metrics(y, s)
    exact = float(sum(Fraction(float(d)) ** 2 for d in y - s) / y.size)
    assert np.isfinite(exact)
    assert m["BS"] == pytest.approx(exact, rel=1e-12)
    assert m["BS"] == pytest.approx(m["CL"] + m["RL"], rel=1e-12)


@pytest.mark.parametrize("seed", range(3))
def test_ordinary_scores_give_the_plain_sums_bit_for_bit(seed):
    y, s = random_scores(seed, 90, decimals=None)
    m = compute_metrics(y, s)
    assert m["BS"] == float(np.mean((y - s) ** 2))
    assert m["MAE"] == float(np.mean(np.abs(y - s)))
