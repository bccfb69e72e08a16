"""Uncertainty from a sentence: an interval belief about c as a ``beta:A,B`` cost distribution,
and the typical error of c_hat as a certainty gamma (checked against scipy.stats)."""

from __future__ import annotations

import math

import pytest
from scipy import stats

from threshold_choice import beta_from_interval, gamma_for_spread
from threshold_choice.errors import UserError


@pytest.mark.parametrize(("low", "high", "mass"), [(0.7, 0.9, 0.9), (0.05, 0.2, 0.8),
                                                   (0.4, 0.6, 0.5)])
def test_an_interval_belief_becomes_a_beta_with_that_mass_and_mean(low, high, mass):
    belief = beta_from_interval(low, high, mass)
    assert belief.kind == "beta"
    a, b = belief.p, belief.q
    assert 1.0 <= min(a, b) and max(a, b) <= 200.0
    beta = stats.beta(a, b)
    assert beta.cdf(high) - beta.cdf(low) == pytest.approx(mass, abs=1e-5)
    assert beta.mean() == pytest.approx((low + high) / 2, abs=1e-6)


def test_a_belief_too_vague_or_too_sharp_is_refused_with_the_alternative():
    with pytest.raises(UserError, match=r"better written uniform:0\.1,0\.9"):
        beta_from_interval(0.1, 0.9, 0.5)
    with pytest.raises(UserError, match="too narrow"):
        beta_from_interval(0.5, 0.501, 0.99)


@pytest.mark.parametrize(("c", "spread"), [(0.8, 0.05), (0.3, 0.1), (0.5, 0.01)])
def test_a_typical_error_of_c_hat_becomes_the_gamma_that_gives_it(c, spread):
    gamma = gamma_for_spread(c, spread)
    c_hat = stats.beta(gamma * c + 1, gamma * (1 - c) + 1)
    assert c_hat.std() == pytest.approx(spread, rel=1e-9)


@pytest.mark.parametrize("spread", [1e-9, 1e-60, 1e-140])
def test_a_tiny_spread_gets_its_gamma_far_beyond_the_first_bracket(spread):
    c = 0.3
    gamma = gamma_for_spread(c, spread)
    a, b = gamma * c + 1, gamma * (1 - c) + 1
    # the Beta's standard deviation, in a form that does not overflow at these gammas
    assert math.sqrt(a / (a + b) * (b / (a + b)) / (a + b + 1)) == pytest.approx(spread,
                                                                                 rel=1e-9)
    assert gamma == pytest.approx(c * (1 - c) / spread**2, rel=1e-6)  # sd ~ sqrt(c(1-c)/g)
    with pytest.raises(UserError, match="beyond the floats' range: give gamma = inf"):
        gamma_for_spread(c, 1e-170)


def test_no_information_is_gamma_0_and_more_spread_than_that_is_refused():
    assert gamma_for_spread(0.5, 1 / math.sqrt(12)) == 0.0
    with pytest.raises(UserError, match=r"spread of c_hat must be a number in \(0, 0\.2887\]"):
        gamma_for_spread(0.5, 0.3)
    with pytest.raises(UserError, match=r"c, the true cost proportion, must be a number in \(0, "
                                        r"1\), got 'a'"):
        gamma_for_spread("a", 0.1)


def test_an_interval_given_as_text_or_none_is_named():
    assert beta_from_interval("0.7", "0.9").mean == beta_from_interval(0.7, 0.9).mean
    with pytest.raises(UserError, match=r"mass, the probability the belief puts on \[low, "
                                        r"high\], must be a number in \(0, 1\), got None"):
        beta_from_interval(0.7, 0.9, None)
    with pytest.raises(UserError, match=r"upper end high must be a number in \[0, 1\], got 'x'"):
        beta_from_interval(0.7, "x")
    with pytest.raises(UserError, match=r"needs low < high, got \[0\.9, 0\.7\]"):
        beta_from_interval(0.9, 0.7)
