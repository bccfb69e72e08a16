"""Calibration and refinement (paper 002, Sect. 5.2, Thm 5.3), the regret curves they are areas
of (Figs 5-7), the rescaled decision curves (Thms C.3, C.4) and the shifted Brier score
(App. B.6-B.9).

Checked against a pool-adjacent-violators written here (a stack over the sorted examples)
and scikit-learn's ``IsotonicRegression``, the peer ``briertools`` (its calibration /
discrimination partition), counting at each cost, and quadrature; on random data with many
ties. Where the paper's printed statement is wrong, a test shows the printed identity failing
and the corrected one holding.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.integrate import quad
from scipy.special import expit, logit
from sklearn.isotonic import IsotonicRegression

from tests.conftest import random_scores
from threshold_choice import (
    CostLines,
    adjust_posterior,
    bounded_brier_score,
    bounded_log_loss,
    brier_decomposition,
    expected_cost_curve,
    log_loss_decomposition,
    make_selection,
    net_benefit,
    regret_curves,
    rescaled_decision_curve,
    shifted_brier_score,
)
from threshold_choice.errors import UserError

briertools = pytest.importorskip("briertools", reason="test dependency: pip install .[test]")

INF = math.inf
DATASETS = {
    "ties": random_scores(61, 60, decimals=1),  # many ties, pooled blocks
    "two-decimals": random_scores(62, 300, decimals=2, pi1=0.3),
    "continuous": random_scores(63, 400, decimals=None, pi1=0.7),
}
RANGES = [(0.0, 1.0), (0.05, 0.2), (0.3, 0.9)]


def stack_pav(y, s):
    """Isotonic regression of ``y`` on ``s`` by a stack of blocks over the sorted examples
    (tied scores enter as one block), written independently of the library's."""
    order = np.argsort(s, kind="stable")
    blocks = []  # [sum of labels, count, first index into order, last index]
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and s[order[j + 1]] == s[order[i]]:
            j += 1
        blocks.append([float(np.sum(y[order[i:j + 1]])), j + 1 - i, i, j])
        while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] >= blocks[-1][0] / blocks[-1][1]:
            top = blocks.pop()
            blocks[-1][0] += top[0]
            blocks[-1][1] += top[1]
            blocks[-1][3] = top[3]
        i = j + 1
    p = np.empty(len(s))
    for total, count, first, last in blocks:
        p[order[first:last + 1]] = total / count
    return p


def brier(y, q, low=0.0, high=1.0):
    return np.mean((y - np.clip(q, low, high)) ** 2) - np.mean((y - np.clip(y, low, high)) ** 2)


def log_loss(y, q, low=0.0, high=1.0):
    with np.errstate(divide="ignore"):
        return (np.mean(-np.log(1 - np.abs(y - np.clip(q, low, high))))
                - np.mean(-np.log(1 - np.abs(y - np.clip(y, low, high)))))


def counted_regret(y, s, c, t=None):
    """Paper 002's R at cost c with threshold t (default t = c), by counting: predict 1 iff
    s > t."""
    t = c if t is None else t
    return float(np.mean(c * ((y == 0) & (s > t)) + (1 - c) * ((y == 1) & (s <= t))))


# -- the decompositions ------------------------------------------------------------------------


@pytest.mark.parametrize("name", DATASETS)
def test_the_library_pav_is_the_stack_pav_and_scikit_learns(name):
    from threshold_choice import pav_calibrated

    y, s = DATASETS[name]
    p = pav_calibrated(y, s)
    np.testing.assert_allclose(p, stack_pav(y, s), atol=1e-12)
    np.testing.assert_allclose(p, IsotonicRegression().fit_transform(s, y), atol=1e-12)


@pytest.mark.parametrize(("low", "high"), RANGES)
@pytest.mark.parametrize("name", DATASETS)
def test_the_decompositions_add_up_to_the_score_of_the_recalibrated_scores(name, low, high):
    y, s = DATASETS[name]
    p = stack_pav(y, s)
    for decompose, score in ((brier_decomposition, brier), (log_loss_decomposition, log_loss)):
        parts = decompose(y, s, low=low, high=high)
        assert parts.loss == pytest.approx(score(y, s, low, high), abs=1e-12)
        assert parts.refinement == pytest.approx(score(y, p, low, high), abs=1e-12)
        assert parts.calibration + parts.refinement == pytest.approx(parts.loss, abs=1e-12)
        # calibration >= divergence >= 0 (the divergence is Thm 5.3's calibration term)
        assert parts.calibration >= parts.divergence - 1e-12
        assert parts.divergence >= -1e-15
        assert parts.within_blocks == pytest.approx(parts.calibration - parts.divergence)
    assert bounded_brier_score(y, s, low, high) == pytest.approx(
        brier_decomposition(y, s, low=low, high=high).loss, abs=1e-12)
    if low > 0:
        assert bounded_log_loss(y, s, low, high) == pytest.approx(
            log_loss_decomposition(y, s, low=low, high=high).loss, abs=1e-12)


@pytest.mark.parametrize(("low", "high"), [(0.0, 1.0), (0.05, 0.2), (0.3, 0.9)])
@pytest.mark.parametrize("name", DATASETS)
def test_briertools_partitions_the_scores_as_the_library_does(name, low, high):
    y, s = DATASETS[name]
    full = (low, high) == (0.0, 1.0)
    for scorer, decompose in ((briertools.scorers.BrierScorer(), brier_decomposition),
                              (briertools.scorers.LogLossScorer(), log_loss_decomposition)):
        calibration, discrimination = scorer._partition_loss(
            y, s, scorer.score, None if full else (low, high))
        parts = decompose(y, s, low=low, high=high)
        assert parts.refinement == pytest.approx(discrimination, abs=1e-10)
        assert parts.calibration == pytest.approx(calibration, abs=1e-10)


def test_a_block_of_two_scores_by_hand():
    # y = (1, 0), s = (0.2, 0.4): PAV pools them, p = (1/2, 1/2)
    parts = brier_decomposition([1, 0], [0.2, 0.4])
    assert parts.loss == pytest.approx((0.8**2 + 0.4**2) / 2)  # 0.4
    assert parts.refinement == pytest.approx(0.25)
    assert parts.divergence == pytest.approx((0.3**2 + 0.1**2) / 2)  # 0.05
    # the gap: 2 mean s (p - y) = 2 (0.2 (-0.5) + 0.4 (0.5)) / 2 = 0.1
    assert parts.within_blocks == pytest.approx(0.1)
    logs = log_loss_decomposition([1, 0], [0.2, 0.4])
    assert logs.loss == pytest.approx(-(math.log(0.2) + math.log(0.6)) / 2)
    assert logs.refinement == pytest.approx(math.log(2))
    kl = [0.5 * math.log(0.5 / q) + 0.5 * math.log(0.5 / (1 - q)) for q in (0.2, 0.4)]
    assert logs.divergence == pytest.approx(sum(kl) / 2)
    # mean (p - y) logit(s) = ((-0.5) logit(0.2) + 0.5 logit(0.4)) / 2
    assert logs.within_blocks == pytest.approx((-0.5 * logit(0.2) + 0.5 * logit(0.4)) / 2)


def test_blocks_of_score_0_and_1_have_no_refinement_and_wrong_certainties_cost_infinity():
    parts = log_loss_decomposition([0, 0, 1, 1], [0.0, 0.1, 0.7, 1.0])
    assert parts.refinement == 0.0  # the blocks are {0, 0.1} -> 0 and {0.7, 1} -> 1
    assert parts.loss == pytest.approx(-(math.log(0.9) + math.log(0.7)) / 4)
    assert parts.divergence == pytest.approx(parts.loss)  # KL(0 || s) = -log(1 - s)
    wrong = log_loss_decomposition([0, 1, 1, 0], [0.0, 0.0, 0.8, 0.9])
    assert wrong.loss == wrong.calibration == wrong.divergence == INF
    assert math.isfinite(wrong.refinement)


# -- Thm 5.3, printed and corrected ------------------------------------------------------------


def kl(p, s):
    from scipy.special import rel_entr

    return rel_entr(p, s) + rel_entr(1 - p, 1 - s)


@pytest.mark.parametrize("name", DATASETS)
def test_theorem_5_3_as_printed_fails_when_a_block_pools_distinct_scores(name):
    y, s = DATASETS[name]
    s = np.clip(s, 0.01, 0.99)  # finite logarithms for the log-loss line
    p = stack_pav(y, s)
    blocks_pool = any(len(np.unique(s[p == v])) > 1 for v in np.unique(p))
    assert blocks_pool
    bs = np.mean((s - y) ** 2)
    printed = np.mean((s - p) ** 2) + np.mean((p - y) ** 2)
    gap = 2 * np.mean(s * (p - y))  # >= 0: the projection property of isotonic regression
    assert bs - printed > 1e-4
    assert bs == pytest.approx(printed + gap, abs=1e-12)
    # the log-loss line as printed: E log|1 - y - s| = E KL(p || s) + E log|1 - y - p|
    lhs = np.mean(np.log(np.abs(1 - y - s)))  # minus the log loss
    printed_log = np.mean(kl(p, s)) + np.mean(np.log(np.abs(1 - y - p)))
    assert abs(lhs - printed_log) > 1e-2
    # corrected: LL(s) = E KL(p || s) + LL(p) + E (p - y) logit(s), the last term >= 0
    within = np.mean((p - y) * logit(s))
    assert within > 1e-4
    assert -lhs == pytest.approx(np.mean(kl(p, s)) - np.mean(np.log(np.abs(1 - y - p))) + within,
                                 abs=1e-12)
    parts = log_loss_decomposition(y, s)
    assert parts.within_blocks == pytest.approx(within, abs=1e-12)


def test_theorem_5_3_holds_for_the_brier_score_when_the_scores_are_constant_on_blocks():
    # a binary test (two scores) whose frequencies increase: PAV pools nothing
    rng = np.random.default_rng(5)
    y = (rng.random(500) < 0.3).astype(int)
    s = np.where((rng.random(500) < 0.6) == (y == 1), 0.8, 0.15)
    p = stack_pav(y, s)
    assert all(len(np.unique(s[p == v])) == 1 for v in np.unique(p))
    bs = np.mean((s - y) ** 2)
    assert bs == pytest.approx(np.mean((s - p) ** 2) + np.mean((p - y) ** 2), abs=1e-14)
    parts = brier_decomposition(y, s)
    assert parts.within_blocks == pytest.approx(0.0, abs=1e-14)
    # the log-loss line needs its sign corrected even then: E log|1 - y - s| is -LL(s)
    lhs = np.mean(np.log(np.abs(1 - y - s)))
    log_p = np.mean(np.log(np.abs(1 - y - p)))
    assert lhs == pytest.approx(-np.mean(kl(p, s)) + log_p, abs=1e-12)  # corrected
    assert lhs != pytest.approx(np.mean(kl(p, s)) + log_p, abs=1e-3)  # as printed
    logs = log_loss_decomposition(y, s)
    assert logs.calibration == pytest.approx(logs.divergence, abs=1e-12)


# -- the regret curves (Figs 5-7) --------------------------------------------------------------


@pytest.mark.parametrize("name", DATASETS)
def test_regret_curves_count_the_errors_and_the_best_threshold_at_each_cost(name):
    y, s = DATASETS[name]
    c = np.concatenate((np.linspace(0, 1, 41), np.unique(s)[::3]))
    curves = regret_curves(y, s, c)
    counted = [counted_regret(y, s, ci) for ci in c]
    np.testing.assert_allclose(curves["regret"], counted, atol=1e-12)
    # the recalibrated scores reach the least regret of any threshold at every cost
    thresholds = np.concatenate(([-1.0], np.unique(s)))
    best = [min(counted_regret(y, s, ci, t) for t in thresholds) for ci in c]
    np.testing.assert_allclose(curves["refinement"], best, atol=1e-12)
    p = IsotonicRegression().fit_transform(s, y)
    np.testing.assert_allclose(curves["refinement"], [counted_regret(y, p, ci) for ci in c],
                               atol=1e-12)
    assert np.all(curves["calibration"] >= -1e-15)
    np.testing.assert_allclose(curves["log_odds"], logit(c))
    # this package's loss Q = 2 R: the engine's score-driven and test-optimal curves
    lines = CostLines.from_scores(y, s)
    for method, column in (("score-driven", "regret"), ("test-optimal", "refinement")):
        engine = expected_cost_curve(make_selection(method, lines), INF, c)
        np.testing.assert_allclose(engine / 2, curves[column], atol=1e-12)


@pytest.mark.parametrize(("low", "high"), [(0.001, 0.999), (0.05, 0.2), (0.3, 0.9)])
@pytest.mark.parametrize("name", ["ties", "two-decimals"])
def test_the_areas_under_the_log_odds_curves_are_the_log_loss_decomposition(name, low, high):
    y, s = DATASETS[name]
    parts = log_loss_decomposition(y, s, low=low, high=high)
    bparts = brier_decomposition(y, s, low=low, high=high)
    # the curves are smooth between the scores (the regret's jumps) and the recalibrated
    # values (the kinks of the lower envelope)
    breaks = np.concatenate((s, stack_pav(y, s)))
    inside = np.unique(breaks[(breaks > low) & (breaks < high)])

    def area(column, variable):
        """Gauss-Legendre on each smooth piece."""
        if variable == "log-odds":
            edges = np.concatenate(([logit(low)], logit(inside), [logit(high)]))
        else:
            edges = np.concatenate(([low], inside, [high]))
        nodes, weights = np.polynomial.legendre.leggauss(40)
        half = np.diff(edges)[:, None] / 2
        x = (edges[:-1, None] + half) + half * nodes[None, :]
        costs = expit(x) if variable == "log-odds" else x
        values = regret_curves(y, s, costs.ravel())[column].to_numpy().reshape(x.shape)
        return float(np.sum(half * weights[None, :] * values))

    assert area("regret", "log-odds") == pytest.approx(parts.loss, abs=1e-8)
    assert area("refinement", "log-odds") == pytest.approx(parts.refinement, abs=1e-8)
    assert area("calibration", "log-odds") == pytest.approx(parts.calibration, abs=1e-8)
    # over c, half the Brier score's (Thm 4.1's factor 2)
    assert 2 * area("regret", "cost") == pytest.approx(bparts.loss, abs=1e-8)
    assert 2 * area("refinement", "cost") == pytest.approx(bparts.refinement, abs=1e-8)


# -- the rescaled decision curves (Thms C.3, C.4) ----------------------------------------------


@pytest.mark.parametrize(("low", "high"), [(0.05, 0.2), (0.1, 0.6)])
@pytest.mark.parametrize("name", DATASETS)
def test_the_areas_above_the_rescaled_decision_curves_are_the_bounded_scores(name, low, high):
    y, s = DATASETS[name]
    pi = y.mean()
    t = np.linspace(0.01, 0.95, 95)
    quad_curve = rescaled_decision_curve(y, s, t, scale="quadratic")
    log_curve = rescaled_decision_curve(y, s, t, scale="log")
    np.testing.assert_allclose(quad_curve["x"], -((1 - t) ** 2) / 2)
    np.testing.assert_allclose(log_curve["x"], np.log(t))
    np.testing.assert_allclose(quad_curve["net_benefit"], net_benefit(y, s, t))
    inside = np.unique(s[(s > low) & (s < high)])

    def area(phi, inverse):
        points = phi(inside)
        return quad(lambda x: pi - net_benefit(y, s, [inverse(x)])[0], phi(low), phi(high),
                    points=points if points.size else None, limit=4 * points.size + 50,
                    epsabs=1e-12)[0]

    quadratic = area(lambda c: -((1 - c) ** 2) / 2, lambda x: 1 - np.sqrt(-2 * x))
    logarithmic = area(np.log, np.exp)
    # Thm C.3: the area / (b - a) is the mean regret over c ~ U(a, b), i.e. half the bounded
    # Brier score over the width (the paper's Fig. 4 calls the area the bounded Brier score)
    mean_regret = quad(lambda c: counted_regret(y, s, c), low, high,
                       points=inside if inside.size else None, limit=4 * inside.size + 50,
                       epsabs=1e-12)[0] / (high - low)
    assert quadratic / (high - low) == pytest.approx(mean_regret, abs=1e-9)
    assert quadratic == pytest.approx(bounded_brier_score(y, s, low, high) / 2, abs=1e-9)
    # Thm C.4: the area is the bounded log loss itself (briertools' number)
    peer = briertools.scorers.LogLossScorer().score(y, s, threshold_range=(low, high))
    assert logarithmic == pytest.approx(peer, abs=1e-9)


def test_the_rescaled_curve_refuses_what_it_cannot_draw():
    y, s = DATASETS["ties"]
    with pytest.raises(UserError, match="t > 0"):
        rescaled_decision_curve(y, s, [0.0, 0.5], scale="log")
    with pytest.raises(UserError, match="scale must be one of"):
        rescaled_decision_curve(y, s, scale="linear")
    assert rescaled_decision_curve(y, s, scale="log")["threshold"].iloc[0] == 0.01


# -- the shifted Brier score (App. B.6-B.9) ----------------------------------------------------


def moved(s, mu):
    """Def. B.6 corrected: M(s, mu) = 1 / (1 + exp(-(logit s - logit mu)))."""
    return expit(logit(s) - logit(mu))


def printed_m(s, mu):
    """Def. B.6 as printed: 1 / (1 + exp(logit s - logit mu))."""
    return 1 / (1 + np.exp(logit(s) - logit(mu)))


def test_definition_b6_as_printed_reverses_the_scores_and_its_boundary_values():
    s = np.array([1e-9, 0.1, 0.2, 0.5, 0.9, 1 - 1e-9])
    mu = 0.2
    assert np.all(np.diff(printed_m(s, mu)) < 0)  # decreasing in s
    assert printed_m(s, mu)[0] > 0.99 and printed_m(s, mu)[-1] < 0.01  # 0 -> 1, 1 -> 0
    assert np.all(np.diff(moved(s, mu)) > 0)
    assert moved(s, mu)[0] < 1e-8 and moved(s, mu)[-1] > 1 - 1e-8  # the stated limits
    assert moved(mu, mu) == pytest.approx(0.5)
    # Prop. B.7's inverse "M(., -mu)": the shift back is M(., 1 - mu) (logit(1 - mu) = -logit mu)
    np.testing.assert_allclose(moved(moved(s[1:-1], mu), 1 - mu), s[1:-1], atol=1e-12)
    np.testing.assert_allclose(adjust_posterior(s, mu, 0.5), moved(s, mu), atol=1e-12)


@pytest.mark.parametrize("mu", [0.05, 0.2, 0.7])
@pytest.mark.parametrize("name", DATASETS)
def test_theorem_b9_as_printed_fails_and_the_corrected_identity_holds(name, mu):
    y, s = DATASETS[name]
    score = shifted_brier_score(y, s, mu)
    assert score == pytest.approx(np.mean((y - adjust_posterior(s, mu, 0.5)) ** 2), abs=1e-14)
    assert score == pytest.approx(np.mean((y - moved(s, mu)) ** 2), abs=1e-12)
    inner = (s > 0) & (s < 1)
    breaks = np.unique(moved(s[inner], mu))  # where the shifted scores' decisions change

    def integral(f, points):
        return quad(f, 0, 1, points=points, limit=4 * len(points) + 50, epsabs=1e-12)[0]

    # corrected: at the cost c the threshold on s is M(c, 1 - mu), the cost stays c
    corrected = 2 * integral(lambda c: counted_regret(y, s, c, moved(c, 1 - mu)), breaks)
    assert score == pytest.approx(corrected, abs=1e-9)
    # as printed: E_c R*(M(c, mu)), the regret at a moved cost, threshold = cost
    printed = integral(lambda c: counted_regret(y, s, moved(c, mu)), np.unique(
        moved(s[inner], 1 - mu)))
    assert abs(score - printed) > 0.02
    # with the factor 2 and the inverse shift it still fails: the cost must not move
    inverse = 2 * integral(lambda c: counted_regret(y, s, moved(c, 1 - mu)), breaks)
    assert abs(score - inverse) > 1e-3


def test_the_shifted_brier_score_is_not_proper():
    # calibrated scores do not minimise it: moving them by M(., 1 - mu) first gives the
    # plain Brier score of the calibrated scores, which is smaller
    y, s = DATASETS["two-decimals"]
    p = stack_pav(y, s)
    mu = 0.2
    assert shifted_brier_score(y, p, 0.5) == pytest.approx(np.mean((y - p) ** 2))
    assert shifted_brier_score(y, adjust_posterior(p, 0.5, mu), mu) == pytest.approx(
        np.mean((y - p) ** 2), abs=1e-12)
    assert shifted_brier_score(y, p, mu) > np.mean((y - p) ** 2) + 0.01


@pytest.mark.parametrize("bad", [0.0, 1.0, -0.2, float("nan"), "x"])
def test_the_shifted_brier_score_refuses_a_bad_mu(bad):
    with pytest.raises(UserError, match="mu must be"):
        shifted_brier_score([0, 1], [0.2, 0.8], bad)


# -- inputs ------------------------------------------------------------------------------------


@pytest.mark.parametrize("call", [
    lambda: brier_decomposition([0, 1], [0.2, 1.5]),
    lambda: log_loss_decomposition([0, 1], [-0.1, 0.5]),
    lambda: regret_curves([0, 1], [0.2, 2.0], [0.5]),
    lambda: shifted_brier_score([0, 1], [0.2, 1.2], 0.3),
])
def test_scores_outside_0_1_are_refused(call):
    with pytest.raises(UserError, match=r"\[0, 1\]"):
        call()


def test_bad_ranges_and_costs_are_refused():
    with pytest.raises(UserError, match="0 <= low < high <= 1"):
        brier_decomposition([0, 1], [0.2, 0.8], low=0.5, high=0.5)
    with pytest.raises(UserError, match="0 <= low < high <= 1"):
        log_loss_decomposition([0, 1], [0.2, 0.8], low=-0.1)
    with pytest.raises(UserError, match="cost proportions in"):
        regret_curves([0, 1], [0.2, 0.8], [0.5, 1.5])
    with pytest.raises(UserError, match="only class 1"):
        brier_decomposition([1, 1], [0.2, 0.8])
