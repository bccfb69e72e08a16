"""The three estimators agree with each other and with brute-force integration.

The brute force here does not use the package's selections: it recomputes each method's
threshold from the raw scores at every (c, c_hat) on dense grids, with the Beta density.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy.stats import beta as beta_dist

from tests.conftest import random_scores
from threshold_choice.costlines import CostLines
from threshold_choice.evaluation import LossSettings, expected_losses
from threshold_choice.expected_loss import expected_cost_curve, expected_loss
from threshold_choice.methods import make_selection

INF = float("inf")


# -- brute force -----------------------------------------------------------------------------


def empirical_loss(y, s, t, c):
    """Q(t; c) for thresholds t and costs c (same shape), predicting 1 iff s > t."""
    pred1 = s[None, :] > t.ravel()[:, None]
    fp0 = np.sum(pred1 & (y == 0)[None, :], axis=1)
    fn1 = np.sum(~pred1 & (y == 1)[None, :], axis=1)
    return (2 * (c.ravel() * fp0 + (1 - c.ravel()) * fn1) / len(y)).reshape(c.shape)


def candidate_thresholds(s):
    u = np.unique(s)
    return np.concatenate(([-np.inf], (u[:-1] + u[1:]) / 2, [np.inf]))


def optimal_threshold(y, s, c_hat):
    """The threshold of the lowest line at each c_hat (first on ties)."""
    cands = candidate_thresholds(s)
    heights = np.stack([empirical_loss(y, s, np.full_like(c_hat, t), c_hat) for t in cands])
    return cands[np.argmin(heights, axis=0)]


def rate_driven_loss(y, s, c_hat, c):
    u = np.unique(s)
    r = np.concatenate(([0.0], [np.mean(s <= v) for v in u]))
    j = np.clip(np.searchsorted(r, c_hat, side="right"), 1, len(u))
    lo, hi = r[j - 1], r[j]
    p = 1 - (c_hat - lo) / (hi - lo)
    below = np.concatenate(([-np.inf], u))  # line predicting 0 for scores < u_j
    t_strict = below[j - 1]
    t_incl = u[j - 1]
    return p * empirical_loss(y, s, t_strict, c) + (1 - p) * empirical_loss(y, s, t_incl, c)


def brute_force(method, y, s, ty, ts, gamma, n_c=48, n_hat=6000):
    """2-D quadrature: Gauss-Legendre in c, midpoint rule in c_hat weighted by the density."""
    xc, wc = np.polynomial.legendre.leggauss(n_c)
    c = (xc + 1) / 2
    wc = wc / 2
    c_hat = (np.arange(n_hat) + 0.5) / n_hat
    C, H = np.meshgrid(c, c_hat, indexing="ij")
    dens = beta_dist.pdf(H, gamma * C + 1, gamma * (1 - C) + 1) / n_hat
    if method == "score-driven":
        loss = empirical_loss(y, s, H, C)
    elif method == "test-optimal":
        loss = empirical_loss(y, s, optimal_threshold(y, s, H), C)
    elif method == "train-optimal":
        loss = empirical_loss(y, s, optimal_threshold(ty, ts, H), C)
    elif method == "rate-driven":
        loss = rate_driven_loss(y, s, H, C)
    else:  # rate-driven-z, on the training class proportion as the authors did
        pi0 = np.mean(ty == 0)
        loss = rate_driven_loss(y, s, H * pi0 / (H * pi0 + (1 - H) * (1 - pi0)), C)
    return float(np.sum(wc[:, None] * dens * loss))


@pytest.mark.parametrize("gamma", [16.0, 4.0, 1.0])
@pytest.mark.parametrize(
    "method", ["test-optimal", "train-optimal", "score-driven", "rate-driven", "rate-driven-z"]
)
def test_exact_agrees_with_brute_force_integration(method, gamma):
    y, s = random_scores(11, 9, decimals=1)
    ty, ts = random_scores(12, 9, decimals=1)
    sel = make_selection(
        method, CostLines.from_scores(y, s), train=CostLines.from_scores(ty, ts), gamma=gamma
    )
    bf = brute_force(method, y, s, ty, ts, gamma)
    # the midpoint rule in c_hat is O(1/n_hat) at the jumps of the selected line
    assert expected_loss(sel, gamma) == pytest.approx(bf, abs=3e-4)


@pytest.mark.parametrize("gamma", [INF, 8.0, 1.0, 0.0])
def test_grid_converges_to_exact_as_the_grid_refines(gamma):
    y, s = random_scores(5, 60, decimals=2)
    sel = make_selection("rate-driven", CostLines.from_scores(y, s))
    exact = expected_loss(sel, gamma)
    sizes = (10, 100, 1000)
    errors = [abs(expected_loss(sel, gamma, estimator="grid", grid_size=k) - exact) for k in sizes]
    # c = i/N is a right-endpoint rule: the error shrinks like 1/N
    assert errors[2] < 1e-3
    assert errors[2] < errors[1] < errors[0]


@pytest.mark.parametrize("gamma", [4.0, 0.0])
def test_montecarlo_mean_converges_to_grid(gamma):
    y, s = random_scores(6, 80, decimals=2)
    sel = make_selection("score-driven", CostLines.from_scores(y, s))
    draws = np.array(
        [expected_loss(sel, gamma, estimator="montecarlo", seed=k) for k in range(200)]
    )
    target = expected_loss(sel, gamma, estimator="grid")
    se = draws.std(ddof=1) / np.sqrt(draws.size)
    assert abs(draws.mean() - target) < 4 * se
    assert se > 0  # the draws really vary


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
