"""Expected losses under a density ``w`` on the true cost (beyond the paper's uniform).

The oracle is independent of the package's tables: each method's pieces in ``c_hat`` come from
the raw scores (``tests.library.test_expected_loss_estimators``), the aware methods' break
points from a posterior mean under the prior ``w`` computed by adaptive quadrature, ``K(c)``
from Beta CDFs (or the selected line itself at ``gamma = inf``), and
``L = integral K(c) w(c) dc`` by adaptive quadrature with ``w`` written out here from its
textbook formula.
"""

from __future__ import annotations

import functools
import math

import numpy as np
import pytest
from scipy import stats
from scipy.integrate import quad
from scipy.optimize import brentq
from scipy.special import betainc

from tests.library.test_expected_loss_estimators import (
    ORACLE_CASES,
    lowest_line_threshold,
    oracle_expected_cost,
    oracle_pieces,
)
from threshold_choice.cost_distributions import (
    SPEC_PATTERN,
    UNIFORM,
    CostDistribution,
    parse_cost_distribution,
)
from threshold_choice.costlines import CostLines
from threshold_choice.errors import UserError
from threshold_choice.evaluation import LossSettings, expected_losses
from threshold_choice.expected_loss import expected_cost_curve, expected_loss, paper_grid
from threshold_choice.methods import METHODS, make_selection

INF = float("inf")
DISTRIBUTIONS = ["beta:2,2", "beta:5,1.5", "uniform:0.1,0.45", "logit-uniform:0.02,0.7"]


@functools.cache
def density(spec):
    """``w`` and its support from the spec, written independently of the package."""
    kind, params = spec.split(":")
    p, q = (float(v) for v in params.split(","))
    if kind == "beta":
        # remembered per point: the adaptive quadratures below ask for the same nodes again
        # and again (the values are scipy's, the same bits)
        return functools.lru_cache(maxsize=2**16)(stats.beta(p, q).pdf), (0.0, 1.0)
    if kind == "uniform":
        return (lambda c: 1.0 / (q - p) if p <= c <= q else 0.0), (p, q)
    z = math.log(q / (1 - q)) - math.log(p / (1 - p))
    return (lambda c: 1.0 / (z * c * (1 - c)) if p <= c <= q else 0.0), (p, q)


# -- the aware methods under a prior w -------------------------------------------------------


def posterior_mean(x, gamma, spec):
    """E[c | c_hat = x] with prior w, by adaptive quadrature over c."""
    pdf, (lo, hi) = density(spec)

    def v(c):
        return stats.beta.pdf(x, gamma * c + 1, gamma * (1 - c) + 1) * pdf(c)

    num = quad(lambda c: c * v(c), lo, hi, epsabs=0, epsrel=1e-13, limit=200)[0]
    den = quad(v, lo, hi, epsabs=0, epsrel=1e-13, limit=200)[0]
    return num / den


@functools.cache
def posterior_range(gamma, spec):
    return posterior_mean(1e-9, gamma, spec), posterior_mean(1 - 1e-9, gamma, spec)


def posterior_mean_inverse(m, gamma, spec):
    low, high = posterior_range(gamma, spec)
    if m <= low:
        return 0.0
    if m >= high:
        return 1.0
    return brentq(lambda x: posterior_mean(x, gamma, spec) - m, 1e-9, 1 - 1e-9, xtol=1e-14)


def pieces_under(method, y, s, ty, ts, gamma, spec):
    """``oracle_pieces`` with the aware methods' prior w instead of the uniform, and the
    fixed methods at its mean."""
    if method in ("score-fixed", "rate-fixed"):
        pdf, (lo, hi) = density(spec)
        mean = quad(lambda c: c * pdf(c), lo, hi, epsabs=1e-14)[0]
        return oracle_pieces(method, y, s, ty, ts, gamma, fixed_at=mean)
    if not method.endswith("-aware"):
        return oracle_pieces(method, y, s, ty, ts, gamma)
    base = method.removesuffix("-aware")
    edges, alpha, beta, phi, g = oracle_pieces(base, y, s, ty, ts, gamma)
    _, (lo, hi) = density(spec)
    if gamma == 0:  # E[c | c_hat] = E[c]: one fixed line, chosen at the prior mean
        pdf, _ = density(spec)
        mean = quad(lambda c: c * pdf(c), lo, hi, epsabs=1e-14)[0]
        ly, ls = (ty, ts) if base == "train-optimal" else (y, s)
        t = mean if base == "score-driven" else lowest_line_threshold(ly, ls, mean)
        from tests.library.test_expected_loss_estimators import line_of

        return np.array([0.0, 1.0]), line_of(y, s, t)[None, :], None, None, 0.0
    if gamma == INF:
        return edges, alpha, beta, phi, g
    edges = np.array([posterior_mean_inverse(m, gamma, spec) for m in edges])
    return edges, alpha, beta, phi, g


def cost_at_certainty(c, edges, alpha, beta, phi):
    """K(c) at gamma = inf: the piece's loss at c_hat = c."""
    k = min(max(int(np.searchsorted(edges, c, side="right")) - 1, 0), len(alpha) - 1)
    out = alpha[k, 0] * (1 - c) + alpha[k, 1] * c
    if beta is not None:
        x = c if phi == "identity" else phi(c)
        out += (beta[k, 0] * (1 - c) + beta[k, 1] * c) * x
    return out


def oracle_loss(method, y, s, ty, ts, gamma, spec):
    edges, alpha, beta, phi, g = pieces_under(method, y, s, ty, ts, gamma, spec)
    pdf, (lo, hi) = density(spec)
    if g == INF:
        points = [e for e in edges if lo < e < hi]

        def integrand(c):
            return cost_at_certainty(c, edges, alpha, beta, phi) * pdf(c)
    else:
        points = None

        def integrand(c):
            return oracle_expected_cost(c, edges, alpha, beta, phi, g) * pdf(c)

    return quad(integrand, lo, hi, points=points, epsabs=1e-13, epsrel=1e-13, limit=400)[0]


CASES = ORACLE_CASES[:2]


@pytest.mark.parametrize("gamma", [INF, 4.0, 0.0])
@pytest.mark.parametrize("spec", DISTRIBUTIONS)
@pytest.mark.parametrize("method", METHODS)
def test_exact_matches_the_quadrature_oracle_under_each_distribution(method, spec, gamma):
    dist = parse_cost_distribution(spec)
    for (y, s), (ty, ts) in CASES:
        sel = make_selection(
            method,
            CostLines.from_scores(y, s),
            train=CostLines.from_scores(ty, ts),
            gamma=gamma,
            distribution=dist,
        )
        oracle = oracle_loss(method, y, s, ty, ts, gamma, spec)
        assert expected_loss(sel, gamma, distribution=dist) == pytest.approx(oracle, abs=1e-9)


def test_the_distributions_change_the_losses():
    # otherwise the oracle comparison above could not tell a weighting from none
    (y, s), _ = CASES[0]
    sel = make_selection("score-driven", CostLines.from_scores(y, s))
    values = [expected_loss(sel, 4.0, distribution=parse_cost_distribution(d)) for d in
              ["uniform", *DISTRIBUTIONS]]
    assert min(abs(a - b) for i, a in enumerate(values) for b in values[i + 1:]) > 1e-4


# -- uniform: unchanged; general paths agree with it -------------------------------------------


def test_the_uniform_spellings_are_the_paper_measure():
    assert parse_cost_distribution("uniform") is UNIFORM
    assert parse_cost_distribution("uniform:0,1") is UNIFORM
    assert parse_cost_distribution(None) is UNIFORM
    assert parse_cost_distribution(" beta : 2 , 2 ").spec == "beta:2,2"


@pytest.mark.parametrize("gamma", [INF, 16.0, 4.0, 0.0])
def test_default_settings_give_the_uniform_numbers_bit_for_bit(gamma):
    (y, s), (ty, ts) = CASES[1]
    for estimator in ("exact", "grid", "montecarlo"):
        plain = expected_losses(y, s, train_y=ty, train_s=ts, methods=METHODS, gammas=[gamma],
                                settings=LossSettings(estimator))
        named = expected_losses(y, s, train_y=ty, train_s=ts, methods=METHODS, gammas=[gamma],
                                settings=LossSettings(estimator, cost_distribution="uniform"))
        assert plain["expected_loss"].tolist() == named["expected_loss"].tolist()


@pytest.mark.parametrize("gamma", [INF, 4.0, 0.5])
def test_beta_1_1_through_the_general_path_equals_the_paper_path(gamma):
    # beta:1,1 is the uniform density computed by the general construction (other quadrature
    # over c, other table cells): agreement to 1e-10 checks both
    (y, s), (ty, ts) = CASES[0]
    dist = CostDistribution("beta", 1.0, 1.0)
    assert not dist.is_standard_uniform
    for method in METHODS:
        kwargs = dict(train=CostLines.from_scores(ty, ts), gamma=gamma)
        a = expected_loss(make_selection(method, CostLines.from_scores(y, s), **kwargs), gamma)
        b = expected_loss(
            make_selection(method, CostLines.from_scores(y, s), distribution=dist, **kwargs),
            gamma,
            distribution=dist,
        )
        assert b == pytest.approx(a, abs=1e-10), method


# -- grid and Monte Carlo weights ---------------------------------------------------------------


def cell_masses(spec, n):
    """P(((i-1)/n, i/n]) under w, from scipy's distributions."""
    kind, params = spec.split(":")
    p, q = (float(v) for v in params.split(","))
    edges = np.arange(n + 1) / n
    if kind == "beta":
        cdf = stats.beta(p, q).cdf(edges)
    elif kind == "uniform":
        cdf = stats.uniform(p, q - p).cdf(edges)
    else:
        lo, hi = math.log(p / (1 - p)), math.log(q / (1 - q))
        with np.errstate(divide="ignore"):
            t = np.log(edges) - np.log1p(-edges)
        cdf = np.clip((t - lo) / (hi - lo), 0, 1)
    return np.diff(cdf)


@pytest.mark.parametrize("spec", DISTRIBUTIONS)
@pytest.mark.parametrize("method", ["test-optimal", "rate-driven", "rate-driven-z"])
def test_grid_weights_each_point_by_its_cell_probability(method, spec):
    (y, s), (ty, ts) = CASES[1]
    dist = parse_cost_distribution(spec)
    sel = make_selection(method, CostLines.from_scores(y, s), train=CostLines.from_scores(ty, ts))
    n = 200
    weights = cell_masses(spec, n)
    c = paper_grid(n)
    for gamma in (INF, 4.0):
        if gamma == INF:
            k = sel.loss(c, c)
        else:  # K(c_i) from Beta CDFs (no moment table)
            k = expected_cost_curve(sel, gamma, c)
        got = expected_loss(sel, gamma, estimator="grid", grid_size=n, distribution=dist)
        assert got == pytest.approx(weights @ k, abs=1e-9)


def test_montecarlo_is_unbiased_for_the_weighted_grid():
    (y, s), _ = CASES[1]
    spec = "uniform:0.1,0.45"
    dist = parse_cost_distribution(spec)
    sel = make_selection("score-driven", CostLines.from_scores(y, s))
    target = cell_masses(spec, 1000) @ expected_cost_curve(sel, 4.0, paper_grid(1000))
    draws = np.array(
        [expected_loss(sel, 4.0, estimator="montecarlo", seed=k, distribution=dist)
         for k in range(300)]
    )
    se = draws.std(ddof=1) / np.sqrt(draws.size)
    assert 0 < se < 2e-3
    assert abs(draws.mean() - target) < 4 * se


# -- specs ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("gauss", "not understood"),
        ("beta:2", "needs two numbers"),
        ("beta", "needs two parameters"),
        ("beta:a,b", "needs two numbers"),
        ("beta:0.5,2", "1 <= A, B"),
        ("uniform:0.3,0.2", "LO < HI"),
        ("uniform:-0.1,0.2", "LO < HI"),
        ("logit-uniform:0,0.5", "logit-uniform:LO,HI needs"),
        ("beta:nan,2", "finite"),
    ],
)
def test_bad_specs_get_a_one_line_error(spec, message):
    with pytest.raises(UserError, match=message) as info:
        parse_cost_distribution(spec)
    assert "\n" not in str(info.value)


def test_spec_pattern_accepts_the_canonical_specs():
    import re

    for spec in ["uniform", *DISTRIBUTIONS, "uniform:0.05,0.2"]:
        assert re.match(SPEC_PATTERN, parse_cost_distribution(spec).spec)
    assert not re.match(SPEC_PATTERN, "normal:0,1")


def test_partial_moments_match_quadrature_of_the_density():
    for spec in DISTRIBUTIONS:
        dist = parse_cost_distribution(spec)
        pdf, (lo, hi) = density(spec)
        for k in range(4):
            for x in (0.05, 0.3, 0.8):
                expected = quad(lambda c, k=k, pdf=pdf: c**k * pdf(c), 0, x, epsabs=1e-14,
                                points=[v for v in (lo, hi) if 0 < v < x])[0]
                assert dist.partial_moment(k, x) == pytest.approx(expected, abs=1e-12)
        assert dist.cdf(1.0) == pytest.approx(1.0, abs=1e-14)


def test_the_moment_table_for_a_distribution_matches_adaptive_quadrature():
    from threshold_choice.moment_tables import moment_table

    for spec in DISTRIBUTIONS:
        dist = parse_cost_distribution(spec)
        pdf, (lo, hi) = density(spec)
        for gamma in (4.0, 300.0, 1e5):  # 1e5: the windowed construction
            table = moment_table(gamma, None, dist)
            points = np.array([1e-6, 0.02, 0.1, 0.1001, 0.45, 0.6, 0.7, 0.95])
            got = table(points)
            for i, x in enumerate(points):
                def inner(c, x=x, gamma=gamma):
                    a, b = gamma * c + 1, gamma * (1 - c) + 1
                    return betainc(a, b, x), a / (a + b) * betainc(a + 1, b, x)

                for row, (pa, pb) in enumerate([(0, 0), (1, 0), (0, 1), (1, 1)]):
                    expected = quad(
                        lambda c, pa=pa, pb=pb, inner=inner, pdf=pdf: c**pa * inner(c)[pb] * pdf(c),
                        lo, hi, points=[x], epsabs=1e-15, epsrel=1e-13, limit=400,
                    )[0]
                    assert got[row, i] == pytest.approx(expected, abs=1e-10), (spec, gamma, x)


def test_a_huge_beta_parameter_is_shown_as_a_float_not_a_301_digit_integer():
    from threshold_choice.cost_distributions import parse_cost_distribution
    from threshold_choice.errors import UserError

    with pytest.raises(UserError) as info:
        parse_cost_distribution("beta:1e300,2")
    assert "beta:1e+300,2" in str(info.value) and len(str(info.value)) < 200
