"""Each cost line's contribution to the expected loss (Theorems 1-3 of the paper): the
segment contributions sum to the expected loss for every method, gamma and belief, and at
complete uncertainty and complete certainty they are Theorems 2 and 3's closed forms."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.conftest import random_scores
from threshold_choice import CostLines, make_selection, segment_contributions
from threshold_choice.expected_loss import expected_loss
from threshold_choice.methods import GAMMA_AWARE, METHODS


@pytest.mark.parametrize("distribution", ["uniform", "beta:2,5"])
@pytest.mark.parametrize("gamma", [math.inf, 4.0, 0.0])
@pytest.mark.parametrize("method", METHODS)
def test_the_contributions_sum_to_the_expected_loss(method, gamma, distribution):
    y, s = random_scores(21, 120)
    ty, ts = random_scores(22, 100)
    sel = make_selection(method, CostLines.from_scores(y, s),
                         train=CostLines.from_scores(ty, ts),
                         gamma=gamma if method in GAMMA_AWARE else None,
                         distribution=distribution)
    parts = segment_contributions(sel, gamma, distribution)
    assert parts.shape == (sel.coef.shape[0],)
    total = expected_loss(sel, gamma, distribution=distribution)
    assert parts.sum() == pytest.approx(total, abs=1e-12)


@pytest.mark.parametrize("method", ["test-optimal", "score-driven", "train-optimal"])
def test_complete_uncertainty_and_certainty_give_theorems_2_and_3(method):
    y, s = random_scores(23, 150, decimals=2)
    ty, ts = random_scores(24, 150, decimals=2)
    sel = make_selection(method, CostLines.from_scores(y, s),
                         train=CostLines.from_scores(ty, ts))
    c = np.concatenate(([0.0], np.clip(sel.breaks, 0, 1), [1.0]))
    lo, hi = c[:-1], c[1:]
    l, k = sel.coef[:, 0], sel.coef[:, 1]  # h_i(c) = k_i c + l_i
    np.testing.assert_allclose(segment_contributions(sel, 0.0), (hi - lo) * (k / 2 + l),
                               rtol=0, atol=1e-14)
    np.testing.assert_allclose(segment_contributions(sel, math.inf),
                               (hi - lo) * (k * (hi + lo) / 2 + l), rtol=0, atol=1e-14)
