"""Class-prior contexts of paper 004 (Sect. 3): Elkan's posterior adjustment against Bayes'
rule on known class-conditional densities (and the paper's Eq. 6 as printed, which is not the
identity when the prior does not change), the cost proportion a prior change amounts to
(the paper's examples), and the skew's density (Lemma 1) against its distribution function."""

from __future__ import annotations

import doctest

import numpy as np
import pytest
from scipy import stats
from scipy.integrate import quad

import threshold_choice.priors
from threshold_choice.cost_distributions import parse_cost_distribution
from threshold_choice.methods import skew_map
from threshold_choice.priors import adjust_posterior, prior_change_cost, skew_density


def test_the_docstring_examples_run():
    result = doctest.testmod(threshold_choice.priors)
    assert result.attempted > 0 and result.failed == 0


def _posterior(x, prior1):
    """P(class 1 | x) for class 0 ~ N(0, 1), class 1 ~ N(1.5, 1) and P(class 1) = prior1."""
    f0, f1 = stats.norm.pdf(x, 0, 1), stats.norm.pdf(x, 1.5, 1)
    return prior1 * f1 / (prior1 * f1 + (1 - prior1) * f0)


@pytest.mark.parametrize(("train", "deploy"), [(0.5, 0.2), (0.3, 0.7), (0.1, 0.1)])
def test_the_adjusted_posterior_is_bayes_rule_under_the_new_prior(train, deploy):
    x = np.linspace(-3, 4, 50)
    adjusted = adjust_posterior(_posterior(x, train), train, deploy)
    np.testing.assert_allclose(adjusted, _posterior(x, deploy), rtol=1e-12, atol=1e-15)


def test_the_papers_equation_6_as_printed_is_not_the_identity_for_an_unchanged_prior():
    p, pi = 0.3, 0.5
    printed = pi * (p - p * pi) / (p - p * pi + pi * p - pi * pi)  # Eq. 6 with z = pi
    assert printed == pytest.approx(1.5)  # not even a probability
    assert adjust_posterior(p, pi, pi) == pytest.approx(p, abs=1e-15)
    # at p = 1/2, Bayes' rule gives Eq. 7's last expression
    for pi, z in [(0.25, 0.6), (0.7, 0.2)]:
        eq7 = (1 - pi) * z / ((1 - pi) * z + pi * (1 - z))
        bayes = adjust_posterior(0.5, 1 - pi, 1 - z)  # 004's pi, z: of its positive class 0
        assert 1 - bayes == pytest.approx(eq7, abs=1e-15)


def test_a_prior_change_is_the_cost_proportion_of_the_papers_examples():
    # 004: training pi = 0.2, deployment balanced -> c = 0.8; and pi = 0.4, z = 0.73 is
    # "the same context change" (its priors are of class 0, ours of class 1)
    assert prior_change_cost(1 - 0.2, 1 - 0.5) == pytest.approx(0.8, abs=1e-15)
    assert prior_change_cost(1 - 0.4, 1 - 0.73) == pytest.approx(0.8, abs=0.005)


@pytest.mark.parametrize(("train", "deploy"), [(0.5, 0.2), (0.3, 0.7)])
def test_thresholding_at_the_prior_change_cost_decides_as_the_adjusted_posterior(train, deploy):
    p = np.linspace(0.0005, 0.9995, 2000)
    c = prior_change_cost(train, deploy)
    np.testing.assert_array_equal(p > c, adjust_posterior(p, train, deploy) > 0.5)


@pytest.mark.parametrize("spec", ["uniform", "beta:2,5"])
@pytest.mark.parametrize("pi0", [0.25, 0.6])
def test_the_skew_density_integrates_to_the_distribution_of_the_skew(spec, pi0):
    dist = parse_cost_distribution(spec)
    forward, inverse = skew_map(pi0)
    for z0 in (0.1, 0.4, 0.8):
        mass = quad(lambda z: float(skew_density(z, pi0, spec)), 0, z0, epsabs=1e-13)[0]
        c0 = float(inverse(np.array([z0]))[0])
        assert mass == pytest.approx(float(dist.cdf(c0)), abs=1e-10)
    total = quad(lambda z: float(skew_density(z, pi0, spec)), 0, 1, epsabs=1e-13)[0]
    assert total == pytest.approx(1.0, abs=1e-10)
    if spec == "uniform":  # Lemma 1's remark: the median is pi
        assert float(forward.forward(np.array([0.5]))[0]) == pytest.approx(pi0, abs=1e-15)
