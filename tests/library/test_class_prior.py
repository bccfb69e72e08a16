"""Class-prior context (paper 004, Sect. 3): a deployment class proportion other than the test
set's reweights the cost lines, ``Q(t; c) = 2 (c pi0' FP0(t) + (1 - c) pi1' FN1(t))`` with the
test set's rates; ``pi0' = 1/2`` is the skew view ``Q_z = z FP0 + (1 - z) FN1``.

The oracle rebuilds every line from the raw scores with the deployment weights and integrates
piece by piece (Beta CDFs at finite gamma, via ``oracle_expected_cost``)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from tests.conftest import random_scores
from tests.library.test_expected_loss_estimators import candidate_thresholds, oracle_expected_cost
from threshold_choice.costlines import CostLines
from threshold_choice.errors import UserError
from threshold_choice.evaluation import LossSettings, expected_losses

INF = float("inf")
Y, S = random_scores(61, 40, decimals=1, pi1=0.7)
TY, TS = random_scores(62, 35, decimals=1, pi1=0.4)


def line(y, s, t, prior):
    """Heights at c = 0, 1 of threshold t under the deployment class-0 proportion prior."""
    fn1 = np.mean(s[y == 1] <= t)
    fp0 = np.mean(s[y == 0] > t)
    return np.array([2 * (1 - prior) * fn1, 2 * prior * fp0])


def optimal_pieces(ly, ls, y, s, prior):
    """Lowest (ly, ls) line at each c_hat, applied to (y, s); all lines weighted by prior."""
    cands = candidate_thresholds(ls)
    q = np.array([line(ly, ls, t, prior) for t in cands])
    d0 = q[:, 0][:, None] - q[:, 0][None, :]
    d1 = q[:, 1][:, None] - q[:, 1][None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        cross = d0 / (d0 - d1)
    inside = np.isfinite(cross) & (cross > 0) & (cross < 1)
    edges = np.unique(np.concatenate(([0.0, 1.0], cross[inside])))
    mids = (edges[:-1] + edges[1:]) / 2
    lowest = np.argmin(q[:, 0] * (1 - mids[:, None]) + q[:, 1] * mids[:, None], axis=1)
    return edges, np.array([line(y, s, t, prior) for t in cands[lowest]]), None


def score_pieces(y, s, prior):
    u = np.unique(s)
    edges = np.concatenate(([0.0], u[(u > 0) & (u < 1)], [1.0]))
    mids = (edges[:-1] + edges[1:]) / 2
    return edges, np.array([line(y, s, m, prior) for m in mids]), None


def rate_pieces(y, s, prior):
    """Predict 0 for a deployment-weighted fraction c_hat: r(t) = pi0' F0(t) + pi1' F1(t)."""
    u = np.unique(s)

    def rate(t):
        return prior * np.mean(s[y == 0] <= t) + (1 - prior) * np.mean(s[y == 1] <= t)

    r = np.concatenate(([0.0], [rate(v) for v in u]))
    strict = np.array([line(y, s, t, prior) for t in np.concatenate(([-np.inf], u[:-1]))])
    inclusive = np.array([line(y, s, t, prior) for t in u])
    beta = (inclusive - strict) / np.diff(r)[:, None]
    return r, strict - r[:-1, None] * beta, beta


def pieces(method, prior):
    if method == "test-optimal":
        return optimal_pieces(Y, S, Y, S, prior)
    if method == "train-optimal":
        return optimal_pieces(TY, TS, Y, S, prior)
    if method == "score-driven":
        return score_pieces(Y, S, prior)
    return rate_pieces(Y, S, prior)


def oracle(method, gamma, prior):
    edges, alpha, beta = pieces(method, prior)
    x, w = np.polynomial.legendre.leggauss(40)
    if gamma != INF:  # K(c) is analytic in c: one 40-point rule over [0, 1]
        phi = None if beta is None else "identity"
        c = (x + 1) / 2
        k_c = [oracle_expected_cost(ci, edges, alpha, beta, phi, gamma) for ci in c]
        return np.sum(w * k_c) / 2
    total = 0.0
    for k, (lo, hi) in enumerate(itertools.pairwise(edges)):
        c = lo + (hi - lo) * (x + 1) / 2  # the piece's own loss: degree <= 2 in c
        k_c = alpha[k, 0] * (1 - c) + alpha[k, 1] * c
        if beta is not None:
            k_c += (beta[k, 0] * (1 - c) + beta[k, 1] * c) * c
        total += np.sum(w * k_c) * (hi - lo) / 2
    return total


@pytest.mark.parametrize("prior", [0.5, 0.15, 0.8])
@pytest.mark.parametrize("gamma", [INF, 4.0])
@pytest.mark.parametrize("method", ["test-optimal", "train-optimal", "score-driven", "rate-driven"])
def test_a_deployment_prior_reweights_the_cost_lines(method, gamma, prior):
    got = expected_losses(Y, S, train_y=TY, train_s=TS, methods=[method], gammas=[gamma],
                          settings=LossSettings(prior=prior))["expected_loss"].item()
    assert got == pytest.approx(oracle(method, gamma, prior), abs=1e-9)


def test_score_driven_under_a_prior_is_the_reweighted_brier_score():
    # 2 int (c pi0' FP0(c) + (1 - c) pi1' FN1(c)) dc = pi0' E_0[s^2] + pi1' E_1[(1 - s)^2]
    for prior in (0.2, 0.5, 0.9):
        got = expected_losses(Y, S, methods=["score-driven"], gammas=[INF],
                              settings=LossSettings(prior=prior))["expected_loss"].item()
        expected = prior * np.mean(S[Y == 0] ** 2) + (1 - prior) * np.mean((1 - S[Y == 1]) ** 2)
        assert got == pytest.approx(expected, abs=1e-12)


def test_the_test_proportion_as_prior_leaves_the_test_set_methods_unchanged():
    # (train-optimal then selects on training lines weighted to the test proportion, and the
    # skew variants use the prior instead of the training proportion: both differ, by design)
    methods = ["test-optimal", "score-driven", "rate-driven", "test-optimal-aware",
               "score-driven-aware", "rate-uniform"]
    plain = expected_losses(Y, S, methods=methods, gammas=[INF, 4.0, 0.0])
    same = expected_losses(Y, S, methods=methods, gammas=[INF, 4.0, 0.0],
                           settings=LossSettings(prior=float(np.mean(Y == 0))))
    np.testing.assert_allclose(same["expected_loss"], plain["expected_loss"], rtol=0, atol=1e-12)


def test_in_the_skew_view_the_z_variants_are_the_plain_methods():
    # prior 1/2: z = c, so driving by the skew changes nothing
    frame = expected_losses(Y, S, train_y=TY, train_s=TS,
                            methods=["score-driven", "score-driven-z", "rate-driven",
                                     "rate-driven-z"],
                            gammas=[INF, 4.0], settings=LossSettings(prior=0.5))
    losses = frame.set_index(["method", "gamma"])["expected_loss"]
    for gamma in (INF, 4.0):
        assert losses["score-driven-z", gamma] == pytest.approx(losses["score-driven", gamma],
                                                               abs=1e-10)
        assert losses["rate-driven-z", gamma] == pytest.approx(losses["rate-driven", gamma],
                                                              abs=1e-10)


def test_the_skew_view_is_the_balanced_loss_in_z():
    # Q_z(t) = z FP0(t) + (1 - z) FN1(t), z uniform: score-driven gives the class-balanced
    # Brier score (E_0[s^2] + E_1[(1 - s)^2]) / 2
    got = expected_losses(Y, S, methods=["score-driven"], gammas=[INF],
                          settings=LossSettings(prior=0.5))["expected_loss"].item()
    assert got == pytest.approx((np.mean(S[Y == 0] ** 2) + np.mean((1 - S[Y == 1]) ** 2)) / 2,
                                abs=1e-12)


@pytest.mark.parametrize("prior", [0.0, 1.0, -0.2, 1.5, float("nan"), "half",
                                   pytest.param(10**400, id="int-beyond-floats")])
def test_a_prior_outside_0_1_is_rejected(prior):
    with pytest.raises(UserError, match=r"prior \(deployment class-0 proportion\) must be a "
                                        r"number in \(0, 1\)") as error:
        LossSettings(prior=prior)
    assert len(str(error.value)) < 160  # a value of 401 digits is shown cut
    with pytest.raises(UserError, match="must be a number in"):
        CostLines.from_scores(Y, S).with_prior(prior)


@pytest.mark.parametrize("prior", [1e-17, 1e-9, 1 - 1e-16])
def test_a_prior_too_near_0_or_1_for_its_weights_is_refused_not_nan(prior):
    # prior / n0 vanishes against rates near 1/2: NaN or scipy's "weights must be positive"
    y, s = random_scores(3, 60)
    with pytest.raises(UserError, match="at least 1e-06 from either end"):
        expected_losses(y, s, methods=["test-optimal", "rate-driven"], gammas=[math.inf],
                        settings=LossSettings(prior=prior))
    near = expected_losses(y, s, methods=["rate-driven"], gammas=[math.inf],
                           settings=LossSettings(prior=1e-6))
    assert np.isfinite(near["expected_loss"]).all()
