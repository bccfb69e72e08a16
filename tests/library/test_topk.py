"""Top-K metrics (paper 002, Sect. 3): precision@K and recall@K with ties broken at random (in
expectation, against every order of the tied scores), and AUC-PR as average precision
(against scikit-learn)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from sklearn.metrics import average_precision_score

from tests.conftest import random_scores
from threshold_choice.errors import UserError
from threshold_choice.metrics import average_precision, precision_at_k, recall_at_k


@pytest.mark.parametrize("seed", range(25))
def test_top_k_metrics_are_their_mean_over_every_order_of_the_tied_scores(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(2, 8))
    y = rng.integers(0, 2, n)
    y[:2] = [0, 1]
    s = np.round(rng.random(n), 1)  # ties
    total = np.zeros(n)
    orders = list(itertools.permutations(range(n)))
    for perm in orders:  # a stable sort of a permutation: one order of the tied scores
        total += np.cumsum(y[sorted(perm, key=lambda i: -s[i])])
    ones = total / len(orders)
    k = np.arange(1, n + 1)
    np.testing.assert_allclose(precision_at_k(y, s, k), ones / k, rtol=0, atol=1e-14)
    np.testing.assert_allclose(recall_at_k(y, s, k), ones / y.sum(), rtol=0, atol=1e-14)


@pytest.mark.parametrize("decimals", [1, 2, None])
@pytest.mark.parametrize("seed", range(5))
def test_average_precision_is_scikit_learns(seed, decimals):
    y, s = random_scores(seed, 500, decimals=decimals)
    assert average_precision(y, s) == pytest.approx(average_precision_score(y, s), abs=1e-14)


def test_top_k_of_one_k_is_a_number_and_bad_k_is_refused():
    y, s = random_scores(1, 50)
    assert isinstance(precision_at_k(y, s, 10), float)
    assert isinstance(recall_at_k(y, s, 10), float)
    assert recall_at_k(y, s, 50) == 1.0
    for bad in (0, 51, 2.5, [3, -1]):
        with pytest.raises(UserError, match="k must be whole numbers from 1 to"):
            precision_at_k(y, s, bad)
