"""The exact estimator against the closed forms of the papers (JMLR 2012; DMKD 2019).

The reference quantities (AUC, BS, MAE, refinement loss after PAV) are computed here from
their definitions, independently of the package's metric code.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.conftest import random_scores
from threshold_choice.costlines import CostLines
from threshold_choice.expected_loss import expected_loss
from threshold_choice.methods import make_selection

INF = float("inf")
TOL = 1e-9


def auc_pairs(y, s):
    pos, neg = s[y == 1], s[y == 0]
    diff = pos[:, None] - neg[None, :]
    return float(np.mean((diff > 0) + 0.5 * (diff == 0)))


def pav_refinement(y, s):
    """RL after PAV, by a plain pool-adjacent-violators over tied-score groups."""
    blocks = []  # [ones, count]
    for v in np.unique(s):
        sel = s == v
        blocks.append([float(y[sel].sum()), float(sel.sum())])
        while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] >= blocks[-1][0] / blocks[-1][1]:
            ones, count = blocks.pop()
            blocks[-1][0] += ones
            blocks[-1][1] += count
    return sum(c * (o / c) * (1 - o / c) for o, c in blocks) / len(y)


def loss(method, y, s, gamma):
    return expected_loss(make_selection(method, CostLines.from_scores(y, s)), gamma)


CASES = [(seed, n, dec) for seed, n, dec in [(1, 40, 1), (2, 200, 2), (3, 7, 1), (4, 500, None)]]


@pytest.fixture(params=CASES, ids=lambda c: f"seed{c[0]}-n{c[1]}-dec{c[2]}")
def scores(request):
    seed, n, dec = request.param
    return random_scores(seed, n, decimals=dec)


def test_score_driven_under_certainty_is_brier_score(scores):
    y, s = scores
    assert loss("score-driven", y, s, INF) == pytest.approx(np.mean((y - s) ** 2), abs=TOL)


def test_rate_driven_under_certainty_follows_auc(scores):
    y, s = scores
    pi1 = y.mean()
    expected = (1 - pi1) * pi1 * (1 - 2 * auc_pairs(y, s)) + 1 / 3
    assert loss("rate-driven", y, s, INF) == pytest.approx(expected, abs=TOL)


def test_test_optimal_under_certainty_is_refinement_after_pav(scores):
    y, s = scores
    assert loss("test-optimal", y, s, INF) == pytest.approx(pav_refinement(y, s), abs=TOL)


def test_score_uniform_is_mean_absolute_error(scores):
    y, s = scores
    for gamma in (INF, 4.0):  # ignores c_hat: the same at every gamma
        assert loss("score-uniform", y, s, gamma) == pytest.approx(np.mean(np.abs(y - s)), abs=TOL)


def test_rate_uniform_follows_auc(scores):
    y, s = scores
    pi1 = y.mean()
    expected = (1 - pi1) * pi1 * (1 - 2 * auc_pairs(y, s)) + 1 / 2
    assert loss("rate-uniform", y, s, INF) == pytest.approx(expected, abs=TOL)


def test_score_driven_without_information_is_mean_absolute_error(scores):
    y, s = scores
    assert loss("score-driven", y, s, 0.0) == pytest.approx(np.mean(np.abs(y - s)), abs=TOL)


def test_rate_driven_without_information_follows_auc(scores):
    y, s = scores
    pi1 = y.mean()
    expected = (1 - pi1) * pi1 * (1 - 2 * auc_pairs(y, s)) + 1 / 2
    assert loss("rate-driven", y, s, 0.0) == pytest.approx(expected, abs=TOL)


def test_test_optimal_without_information_doubles_the_certain_loss(scores):
    y, s = scores
    assert loss("test-optimal", y, s, 0.0) == pytest.approx(
        2 * loss("test-optimal", y, s, INF), abs=TOL
    )


def test_losses_grow_from_certainty_to_no_information(scores):
    # Sect. 5.2: complete uncertainty is worse than certainty for these methods
    y, s = scores
    for method in ("test-optimal", "score-driven", "rate-driven"):
        assert loss(method, y, s, 0.0) >= loss(method, y, s, INF) - TOL


def test_scores_outside_the_unit_interval_are_thresholded_consistently():
    # score-driven compares scores with c_hat in [0, 1]: scores below 0 are always predicted
    # 1 and above 1 always 0, so shifting them further out changes nothing
    y = np.array([0, 1, 0, 1, 1])
    s1 = np.array([-0.5, 0.3, 0.6, 1.5, 0.9])
    s2 = np.array([-3.0, 0.3, 0.6, 7.0, 0.9])
    for gamma in (INF, 4.0, 0.0):
        assert loss("score-driven", y, s1, gamma) == pytest.approx(
            loss("score-driven", y, s2, gamma), abs=TOL
        )
