"""The three estimators against an independent oracle and against each other.

The oracle does not use the package: it rebuilds each method's choice from the raw scores
(the threshold, or for rate-driven the pair of thresholds and their weights, at each
``c_hat``; its break points in ``c_hat``), then integrates with the Beta distribution
directly: ``K(c)`` by exact sums of Beta CDF differences over the break points (Beta partial
means for rate-driven, adaptive quadrature over ``c_hat`` for the nonlinear skew map), and
``L = integral K(c) dc`` by adaptive quadrature over ``c``. Its error is ~1e-12 (tolerances
1e-13), so the exact estimator, documented as accurate to 1e-9, is held to 1e-9.
"""

from __future__ import annotations

import functools
import itertools
import math

import numpy as np
import pytest
from scipy.integrate import quad
from scipy.optimize import brentq
from scipy.special import betainc, betaln, expit

from tests.conftest import random_scores
from threshold_choice.costlines import CostLines
from threshold_choice.evaluation import LossSettings, expected_losses
from threshold_choice.expected_loss import expected_cost_curve, expected_loss, paper_grid
from threshold_choice.methods import METHODS, make_selection

INF = float("inf")
PAPER_METHODS = ["test-optimal", "train-optimal", "score-driven", "rate-driven"]


# -- the oracle ------------------------------------------------------------------------------


def line_of(y, s, t):
    """The cost line of threshold t (predict 1 iff s > t) on labels y, scores s, as its
    heights at c = 0 and c = 1: Q(t; c) = 2 (c #{y=0, s>t} + (1 - c) #{y=1, s<=t}) / n."""
    n = len(y)
    return np.array([2.0 * np.sum((y == 1) & (s <= t)) / n, 2.0 * np.sum((y == 0) & (s > t)) / n])


def candidate_thresholds(s):
    u = np.unique(s)
    return np.concatenate(([-np.inf], (u[:-1] + u[1:]) / 2, [np.inf]))


def lowest_line_threshold(ly, ls, c_hat):
    """The threshold of the lowest cost line of (ly, ls) at c_hat (the first on ties)."""
    cands = candidate_thresholds(ls)
    q = np.array([line_of(ly, ls, t) for t in cands])
    return cands[int(np.argmin(q[:, 0] * (1 - c_hat) + q[:, 1] * c_hat))]


def optimal_pieces(ly, ls, y, s):
    """Break points: every crossing in (0, 1) of two cost lines of (ly, ls); between two
    consecutive ones the lowest line is fixed. Returns the break points (with 0 and 1) and
    the test line (y, s) of the lowest line's threshold on each piece."""
    cands = candidate_thresholds(ls)
    q = np.array([line_of(ly, ls, t) for t in cands])
    d0 = q[:, 0][:, None] - q[:, 0][None, :]
    d1 = q[:, 1][:, None] - q[:, 1][None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        cross = d0 / (d0 - d1)
    cross = cross[np.isfinite(cross) & (cross > 0) & (cross < 1)]
    edges = np.unique(np.concatenate(([0.0, 1.0], cross)))
    mids = (edges[:-1] + edges[1:]) / 2
    lowest = np.argmin(q[:, 0] * (1 - mids[:, None]) + q[:, 1] * mids[:, None], axis=1)
    lines = np.array([line_of(y, s, t) for t in cands[lowest]])
    keep = np.concatenate(([True], np.any(lines[1:] != lines[:-1], axis=1)))  # merge repeats
    return np.append(edges[:-1][keep], 1.0), lines[keep]


def score_pieces(y, s):
    """Threshold t = c_hat: the line changes at the scores in (0, 1)."""
    u = np.unique(s)
    edges = np.concatenate(([0.0], u[(u > 0) & (u < 1)], [1.0]))
    mids = (edges[:-1] + edges[1:]) / 2
    return edges, np.array([line_of(y, s, m) for m in mids])


def rate_pieces(y, s):
    """Rate-driven (protocol): for a rate v in [r_{j-1}, r_j) the loss is
    p Q(scores < u_j predicted 0) + (1 - p) Q(scores <= u_j predicted 0),
    p = 1 - (v - r_{j-1}) / (r_j - r_{j-1}); i.e. alpha_j + beta_j * v."""
    u = np.unique(s)
    r = np.concatenate(([0.0], [np.mean(s <= v) for v in u]))
    strict = np.array([line_of(y, s, t) for t in np.concatenate(([-np.inf], u[:-1]))])
    inclusive = np.array([line_of(y, s, t) for t in u])
    beta = (inclusive - strict) / np.diff(r)[:, None]
    return r, strict - r[:-1, None] * beta, beta


def instance_pieces(y, s):
    """Instance-uniform: cut k (the k lowest scores predicted 0, a tied group at the cut
    split in proportion) on c_hat in [k/(n+1), (k+1)/(n+1))."""
    n = len(y)
    sorted_s = np.sort(s)
    alpha = []
    for k in range(n + 1):
        if k == 0:
            ones0, zeros1 = 0.0, float(np.sum(y == 0))
        else:
            t = sorted_s[k - 1]
            below, tied = s < t, s == t
            share = (k - below.sum()) / tied.sum()
            ones0 = np.sum(y[below] == 1) + share * np.sum(y[tied] == 1)  # class 1 predicted 0
            zeros1 = np.sum((y == 0) & (s > t)) + (1 - share) * np.sum(y[tied] == 0)
        alpha.append([2.0 * ones0 / n, 2.0 * zeros1 / n])
    return np.arange(n + 2) / (n + 1), np.array(alpha)


def posterior_mean(w, gamma):
    """E[c | logit(c_hat) = w] under a uniform prior on c, by adaptive quadrature over c."""

    def log_density(c):  # of c given c_hat, up to a constant
        return gamma * c * w - betaln(gamma * c + 1, gamma * (1 - c) + 1)

    grid = np.linspace(0, 1, 401)
    top = int(np.argmax(log_density(grid)))
    shift = log_density(grid[top])

    def moment(k):
        return quad(
            lambda c: c**k * math.exp(log_density(c) - shift),
            0,
            1,
            points=[grid[top]],
            epsabs=0,
            epsrel=1e-13,
            limit=200,
        )[0]

    return moment(1) / moment(0)


@functools.cache
def posterior_mean_range(gamma, w_max=60.0):
    return posterior_mean(-w_max, gamma), posterior_mean(w_max, gamma)


def posterior_mean_inverse(m, gamma, w_max=60.0):
    """The c_hat whose posterior mean is m (0 or 1 beyond logit +-60: no mass there)."""
    lowest, highest = posterior_mean_range(gamma, w_max)
    if m <= lowest:
        return 0.0
    if m >= highest:
        return 1.0
    w = brentq(lambda w: posterior_mean(w, gamma) - m, -w_max, w_max, xtol=1e-13, rtol=1e-15)
    return float(expit(w))


def oracle_pieces(method, y, s, ty, ts, gamma, fixed_at=0.5):
    """The method as pieces of c_hat: break points ``edges`` and, on piece k, the loss
    ``alpha_k(c) + beta_k(c) * phi(c_hat)`` (alpha_k, beta_k linear in c, given by their
    values at c = 0 and 1; beta None for one line per piece). Also the effective gamma.
    ``fixed_at``: the threshold of score-fixed and the rate of rate-fixed (the belief's mean)."""
    pi0 = float(np.mean(ty == 0))  # the skew variants use the training proportion

    def skew(c):
        return c * pi0 / (c * pi0 + (1 - c) * (1 - pi0))

    def skew_inverse(z):
        return z * (1 - pi0) / (z * (1 - pi0) + (1 - z) * pi0)

    base = method.removesuffix("-aware")
    beta, phi = None, None
    if base == "test-optimal":
        edges, alpha = optimal_pieces(y, s, y, s)
    elif base == "train-optimal":
        edges, alpha = optimal_pieces(ty, ts, y, s)
    elif base in ("score-driven", "score-uniform"):
        edges, alpha = score_pieces(y, s)
    elif base == "score-driven-z":  # threshold skew(c_hat)
        edges, alpha = score_pieces(y, s)
        edges = skew_inverse(edges)
    elif base in ("rate-driven", "rate-uniform"):
        (edges, alpha, beta), phi = rate_pieces(y, s), "identity"
    elif base == "rate-driven-z":  # rate skew(c_hat)
        (edges, alpha, beta), phi = rate_pieces(y, s), skew
        edges = skew_inverse(edges)
    elif base == "instance-uniform":
        edges, alpha = instance_pieces(y, s)
    elif base == "score-fixed":  # the line of threshold E[c] (paper 000, Definition 4)
        edges, alpha = np.array([0.0, 1.0]), line_of(y, s, fixed_at)[None, :]
    elif base == "rate-fixed":  # rate-driven's mixture at the rate E[c], whatever c_hat
        r, a0, b0 = rate_pieces(y, s)
        k = min(int(np.searchsorted(r, fixed_at, side="right")) - 1, len(a0) - 1)
        edges, alpha = np.array([0.0, 1.0]), (a0[k] + fixed_at * b0[k])[None, :]
    else:
        raise AssertionError(method)
    if method.endswith("-aware") and gamma == 0:  # E[c | c_hat] = 1/2: one fixed line
        (ly, ls) = (ty, ts) if base == "train-optimal" else (y, s)
        t = 0.5 if base == "score-driven" else lowest_line_threshold(ly, ls, 0.5)
        edges, alpha = np.array([0.0, 1.0]), line_of(y, s, t)[None, :]
    elif method.endswith("-aware"):  # the plain method applied to E[c | c_hat]
        edges = np.array([posterior_mean_inverse(m, gamma) for m in edges])
    return edges, alpha, beta, phi, 0.0 if base.endswith("uniform") else gamma


def oracle_expected_cost(c, edges, alpha, beta, phi, gamma):
    """K(c) = E[loss | c], c_hat ~ Beta(gamma c + 1, gamma (1 - c) + 1)."""
    a, b = gamma * c + 1.0, gamma * (1.0 - c) + 1.0
    total = (alpha[:, 0] * (1 - c) + alpha[:, 1] * c) @ np.diff(betainc(a, b, edges))
    if beta is None:
        return total
    if phi == "identity":  # E[c_hat 1{c_hat <= x}] = a / (a + b) I_x(a + 1, b)
        moments = a / (a + b) * np.diff(betainc(a + 1.0, b, edges))
    else:
        norm = math.exp(-betaln(a, b))

        def integrand(x):
            return phi(x) * x ** (a - 1) * (1 - x) ** (b - 1) * norm

        moments = np.array(
            [
                quad(integrand, lo, hi, epsabs=1e-15, epsrel=1e-13, limit=200)[0]
                for lo, hi in itertools.pairwise(edges)
            ]
        )
    return total + (beta[:, 0] * (1 - c) + beta[:, 1] * c) @ moments


def oracle_expected_loss(method, y, s, ty, ts, gamma):
    pieces = oracle_pieces(method, y, s, ty, ts, gamma)
    return quad(
        lambda c: oracle_expected_cost(c, *pieces), 0, 1, epsabs=1e-13, epsrel=1e-13, limit=200
    )[0]


# small test and training sets with ties (one decimal), scores at 0 and 1, and training class
# proportions away from 1/2 so that the skew map is far from the identity
ORACLE_CASES = [
    (random_scores(11, 12, decimals=1), random_scores(12, 10, decimals=1, pi1=0.35)),
    (random_scores(13, 15, decimals=1, pi1=0.8), random_scores(14, 14, decimals=1, pi1=0.85)),
    (random_scores(15, 25, decimals=2, pi1=0.3), random_scores(16, 20, decimals=2, pi1=0.15)),
]


@pytest.mark.parametrize("gamma", [16.0, 4.0, 1.0, 0.0])
@pytest.mark.parametrize("method", METHODS)
def test_exact_matches_the_independent_quadrature_oracle(method, gamma):
    for (y, s), (ty, ts) in ORACLE_CASES:
        sel = make_selection(
            method, CostLines.from_scores(y, s), train=CostLines.from_scores(ty, ts), gamma=gamma
        )
        oracle = oracle_expected_loss(method, y, s, ty, ts, gamma)
        assert expected_loss(sel, gamma) == pytest.approx(oracle, abs=1e-9)


@pytest.mark.parametrize("gamma", [0.25, 1.0])
def test_rate_driven_z_is_exact_on_the_end_segments(gamma):
    # Regression: the skew map's moment on [0, x_1] was integrated by Gauss-Legendre in
    # c_hat, where G(c_hat) ~ c_hat / (gamma log(1/c_hat)) is not smooth: 7e-9 off at 0.25.
    rng = np.random.default_rng(7)
    n = 60
    y = (rng.random(n) < 0.6).astype(np.int8)
    y[:2] = [0, 1]
    s = np.round(np.clip(0.3 * y + 0.7 * rng.random(n), 0, 1), 2)
    ty = (rng.random(n) < 0.5).astype(np.int8)
    ty[:2] = [0, 1]
    ts = rng.random(n)
    sel = make_selection(
        "rate-driven-z", CostLines.from_scores(y, s), train=CostLines.from_scores(ty, ts)
    )
    oracle = oracle_expected_loss("rate-driven-z", y, s, ty, ts, gamma)
    assert expected_loss(sel, gamma) == pytest.approx(oracle, abs=1e-10)
    if gamma == 0.25:
        assert oracle == pytest.approx(0.33748116101, abs=1e-11)


def test_oracle_reproduces_known_closed_forms():
    # the oracle itself: score-driven under no information is the MAE, and rate-driven
    # follows the AUC (JMLR 2012), at any gamma for the uniform variants
    (y, s), (ty, ts) = ORACLE_CASES[0]
    pos, neg = s[y == 1], s[y == 0]
    auc = np.mean((pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :]))
    pi1 = np.mean(y)
    for gamma in (0.0, 4.0):
        assert oracle_expected_loss("score-uniform", y, s, ty, ts, gamma) == pytest.approx(
            np.mean(np.abs(y - s)), abs=1e-12
        )
        assert oracle_expected_loss("rate-uniform", y, s, ty, ts, gamma) == pytest.approx(
            pi1 * (1 - pi1) * (1 - 2 * auc) + 0.5, abs=1e-12
        )


# -- grid and Monte Carlo against exact ------------------------------------------------------


def _derivative_at_ends(sel, gamma, h=1e-3):
    """K'(0) and K'(1) by one-sided 5-point differences of the exact expected cost."""
    k = np.arange(5)
    w = np.array([-25.0, 48.0, -36.0, 16.0, -3.0]) / (12 * h)
    return (
        w @ expected_cost_curve(sel, gamma, k * h),
        -(w @ expected_cost_curve(sel, gamma, 1 - k * h)),
    )


@pytest.mark.parametrize("gamma", [8.0, 1.0, 0.0])
@pytest.mark.parametrize("method", PAPER_METHODS)
def test_grid_error_is_the_euler_maclaurin_correction_of_the_right_endpoint_rule(method, gamma):
    # For finite gamma K(c) is smooth, so the grid c = i/N (a right-endpoint rule) errs by
    # (K(1) - K(0)) / 2N + (K'(1) - K'(0)) / 12N^2 + O(1/N^4): that prediction, from the
    # exact K at the ends, must match grid - exact far below the first-order term.
    y, s = random_scores(5, 60, decimals=2)
    ty, ts = random_scores(6, 60, decimals=2)
    sel = make_selection(method, CostLines.from_scores(y, s), train=CostLines.from_scores(ty, ts))
    exact = expected_loss(sel, gamma)
    k0, k1 = expected_cost_curve(sel, gamma, np.array([0.0, 1.0]))
    d0, d1 = _derivative_at_ends(sel, gamma)
    for n, tol in ((100, 1e-7), (1000, 1e-9)):
        error = expected_loss(sel, gamma, estimator="grid", grid_size=n) - exact
        predicted = (k1 - k0) / (2 * n) + (d1 - d0) / (12 * n**2)
        assert error == pytest.approx(predicted, abs=tol)


@pytest.mark.parametrize("method", PAPER_METHODS)
def test_grid_error_under_certainty_is_within_the_variation_bound(method):
    # At gamma = inf K(c) = loss(c, c) jumps where the selected line changes, and the
    # right-endpoint rule errs by at most TV(K)/N (TV: total variation, from a fine sampling;
    # K is piecewise linear or quadratic, so 200 000 samples capture it to ~1e-6).
    y, s = random_scores(5, 60, decimals=2)
    ty, ts = random_scores(6, 60, decimals=2)
    sel = make_selection(method, CostLines.from_scores(y, s), train=CostLines.from_scores(ty, ts))
    exact = expected_loss(sel, INF)
    tv = np.sum(np.abs(np.diff(expected_cost_curve(sel, INF, np.linspace(0, 1, 200_001)))))
    assert tv > 0.1
    for n in (10, 100, 1000):
        error = expected_loss(sel, INF, estimator="grid", grid_size=n) - exact
        assert abs(error) <= 1.001 * tv / n
    assert abs(error) < 1e-3


@pytest.mark.parametrize("gamma", [4.0, 0.0])
@pytest.mark.parametrize("method", [*PAPER_METHODS, "rate-driven-z"])
def test_montecarlo_is_unbiased_for_the_grid_mean_of_the_exact_expected_cost(method, gamma):
    # Monte Carlo draws one c_hat per c = i/1000, so its expectation is the grid mean of the
    # exact K(c_i) (expected_cost_curve: Beta CDFs at each c_i, no moment table), NOT the
    # integral `exact`: the two differ by the grid's discretisation error (K(1) - K(0))/2000
    # + O(1e-6), up to ~1e-4 here, comparable to the standard error of the mean of 400
    # seeds. The target is therefore the grid mean of the exact K; it must also equal the
    # `grid` estimator (moment table of the grid measure).
    y, s = random_scores(5, 60, decimals=2)
    ty, ts = random_scores(6, 60, decimals=2)
    sel = make_selection(method, CostLines.from_scores(y, s), train=CostLines.from_scores(ty, ts))
    target = float(np.mean(expected_cost_curve(sel, gamma, paper_grid())))
    assert expected_loss(sel, gamma, estimator="grid") == pytest.approx(target, abs=1e-9)
    draws = np.array(
        [expected_loss(sel, gamma, estimator="montecarlo", seed=k) for k in range(400)]
    )
    se = draws.std(ddof=1) / np.sqrt(draws.size)
    assert 0 < se < 5e-4  # the draws really vary, and the test is sharp
    assert abs(draws.mean() - target) < 4 * se


def test_montecarlo_is_reproducible_with_a_seed():
    y, s = random_scores(6, 80, decimals=2)
    sel = make_selection("score-driven", CostLines.from_scores(y, s))
    a = expected_loss(sel, 4.0, estimator="montecarlo", seed=3)
    assert a == expected_loss(sel, 4.0, estimator="montecarlo", seed=3)
    assert a != expected_loss(sel, 4.0, estimator="montecarlo", seed=4)


@pytest.mark.parametrize("method", ["test-optimal", "score-driven", "rate-driven", "rate-driven-z"])
@pytest.mark.parametrize("gamma", [INF, 4.0, 0.0])
def test_expected_cost_curve_integrates_to_the_expected_loss(method, gamma):
    y, s = random_scores(8, 50, decimals=2)
    test = CostLines.from_scores(y, s)
    sel = make_selection(method, test)
    x, w = np.polynomial.legendre.leggauss(200)
    # piecewise integration: the curve jumps at the breaks when gamma = inf
    edges = np.unique(np.concatenate(([0.0, 1.0], np.clip(sel.breaks, 0, 1))))
    total = 0.0
    for lo, hi in itertools.pairwise(edges):
        c = lo + (hi - lo) * (x + 1) / 2
        total += np.sum(w * expected_cost_curve(sel, gamma, c)) * (hi - lo) / 2
    assert total == pytest.approx(expected_loss(sel, gamma), abs=1e-8)


def test_skew_variants_equal_the_plain_methods_when_classes_are_balanced():
    y = np.array([0, 1] * 20)
    s = np.round(np.linspace(0, 1, 40) ** 1.5, 2)
    test = CostLines.from_scores(y, s)
    for plain, skew in (("score-driven", "score-driven-z"), ("rate-driven", "rate-driven-z")):
        for gamma in (INF, 4.0, 0.0):
            a = expected_loss(make_selection(plain, test), gamma)
            b = expected_loss(make_selection(skew, test), gamma)
            assert a == pytest.approx(b, abs=1e-9)


@pytest.mark.parametrize("gamma", [INF, 16.0, 4.0, 2.0, 1.0, 0.0])
@pytest.mark.parametrize("seed", range(4))
def test_test_optimal_aware_is_never_worse_than_test_optimal(gamma, seed):
    y, s = random_scores(20 + seed, 60, decimals=2)
    test = CostLines.from_scores(y, s)
    plain = expected_loss(make_selection("test-optimal", test), gamma)
    aware = expected_loss(make_selection("test-optimal-aware", test, gamma=gamma), gamma)
    assert aware <= plain + 1e-10


@pytest.mark.parametrize("gamma", [16.0, 4.0, 1.0, 0.0])
def test_score_driven_aware_is_never_worse_on_calibrated_scores(gamma):
    y, s = random_scores(31, 80, decimals=2)
    # perfectly calibrated scores: replace each score by its PAV-calibrated value
    lines = CostLines.from_scores(y, s)
    ends, values = lines.pav_blocks
    calibrated = np.repeat(
        values, np.diff(np.concatenate(([0], (lines.n0_le + lines.n1_le)[ends])))
    )
    order = np.argsort(s, kind="stable")
    s_cal = np.empty_like(s)
    s_cal[order] = calibrated
    test = CostLines.from_scores(y, s_cal)
    plain = expected_loss(make_selection("score-driven", test), gamma)
    aware = expected_loss(make_selection("score-driven-aware", test, gamma=gamma), gamma)
    assert aware <= plain + 1e-10
    assert aware < plain or gamma == 0.0 or np.isclose(aware, plain)


def test_aware_methods_equal_the_plain_ones_under_certainty():
    y, s = random_scores(3, 50, decimals=2)
    ty, ts = random_scores(4, 50, decimals=2)
    frame = expected_losses(
        y,
        s,
        train_y=ty,
        train_s=ts,
        methods=["test-optimal", "test-optimal-aware", "train-optimal", "train-optimal-aware"],
        gammas=[INF],
    ).set_index("method")["expected_loss"]
    assert frame["test-optimal-aware"] == pytest.approx(frame["test-optimal"], abs=1e-12)
    assert frame["train-optimal-aware"] == pytest.approx(frame["train-optimal"], abs=1e-12)


def test_grid_under_certainty_breaks_training_ties_towards_the_lower_threshold():
    # Training: one class-0 and one class-1 example with the same score 0.5: the lines
    # "all predicted 1" (0 -> 1) and "all predicted 0" (1 -> 0) cross at c_hat = 0.5 exactly.
    ty, ts = np.array([0, 1]), np.array([0.5, 0.5])
    y, s = np.array([0, 1, 0, 1]), np.array([0.2, 0.4, 0.6, 0.8])
    sel = make_selection(
        "train-optimal", CostLines.from_scores(y, s), train=CostLines.from_scores(ty, ts)
    )
    # at c_hat = 0.5 the first (lowest-threshold) training line wins: predict everything 1,
    # whose test loss at true c = 0.25 is 2 * 0.25 * pi0 = 0.25 (all 0 would cost 0.75)
    assert sel.loss(np.array([0.5]), np.array([0.25]))[0] == pytest.approx(0.25)
    assert sel.loss(np.array([0.5 + 1e-9]), np.array([0.25]))[0] == pytest.approx(0.75)
    assert sel.loss(np.array([0.5 - 1e-9]), np.array([0.25]))[0] == pytest.approx(0.25)


def test_montecarlo_draws_are_shared_by_methods_of_one_run():
    y, s = random_scores(3, 50, decimals=2)
    settings = LossSettings("montecarlo", 1000, 7)
    a = expected_losses(
        y, s, methods=["score-driven", "test-optimal"], gammas=[2.0], settings=settings
    )
    b = expected_losses(y, s, methods=["test-optimal"], gammas=[2.0], settings=settings)
    assert a.loc[a.method == "test-optimal", "expected_loss"].item() == b["expected_loss"].item()


# -- brute force: dense grids in c and c_hat -----------------------------------------------------


def brute_force_lines(method, y, s, ty, ts, c_hat):
    """The test cost line (heights at c = 0, 1) each method selects at every c_hat, from the
    methods' definitions; rate-driven mixes its two lines by the rate's position."""
    if method in ("test-optimal", "train-optimal"):
        ly, ls = (y, s) if method == "test-optimal" else (ty, ts)
        cands = candidate_thresholds(ls)
        q = np.array([line_of(ly, ls, t) for t in cands])
        chosen = np.argmin(q[:, 0][None, :] * (1 - c_hat[:, None])
                           + q[:, 1][None, :] * c_hat[:, None], axis=1)
        return np.array([line_of(y, s, t) for t in cands])[chosen]
    if method == "score-driven":  # t = c_hat: predict 1 iff s > c_hat
        below = s[None, :] <= c_hat[:, None]
        n = len(y)
        return np.column_stack([2.0 * (below & (y == 1)).sum(axis=1) / n,
                                2.0 * (~below & (y == 0)).sum(axis=1) / n])
    if method == "rate-driven":
        r, alpha, beta = rate_pieces(y, s)
        k = np.clip(np.searchsorted(r, c_hat, side="right") - 1, 0, len(alpha) - 1)
        return alpha[k] + beta[k] * c_hat[:, None]
    raise AssertionError(method)


def brute_force_expected_loss(method, y, s, ty, ts, gamma, n_c=250, n_chat=20000):
    """Midpoint sums over c and c_hat of loss(c_hat, c) * Beta pdf(c_hat | c)."""
    from scipy.stats import beta as beta_dist

    c_hat = (np.arange(n_chat) + 0.5) / n_chat
    # each column contiguous: a product with a strided column is a thousand times slower
    line0, line1 = np.ascontiguousarray(brute_force_lines(method, y, s, ty, ts, c_hat).T)
    total = 0.0
    for c in (np.arange(n_c) + 0.5) / n_c:
        w = beta_dist.pdf(c_hat, gamma * c + 1, gamma * (1 - c) + 1)
        w /= w.sum()
        total += (1 - c) * (w @ line0) + c * (w @ line1)
    return total / n_c


@pytest.mark.parametrize("case", range(len(ORACLE_CASES)))
@pytest.mark.parametrize("gamma", [16.0, 4.0, 1.0])
@pytest.mark.parametrize("method", PAPER_METHODS)
def test_exact_agrees_with_brute_force_integration_on_dense_grids(method, gamma, case):
    (y, s), (ty, ts) = ORACLE_CASES[case]
    sel = make_selection(method, CostLines.from_scores(y, s),
                         train=CostLines.from_scores(ty, ts), gamma=gamma)
    # each jump of the selected line in c_hat costs at most half a cell (1/40000) of error
    assert expected_loss(sel, gamma) == pytest.approx(
        brute_force_expected_loss(method, y, s, ty, ts, gamma), abs=2e-5)


def test_brute_force_cases_make_each_method_switch_lines():
    # otherwise the comparison above would integrate a constant
    c_hat = (np.arange(2000) + 0.5) / 2000
    (y, s), (ty, ts) = ORACLE_CASES[2]
    for method in PAPER_METHODS:
        lines = brute_force_lines(method, y, s, ty, ts, c_hat)
        assert len(np.unique(lines, axis=0)) >= 2, method
