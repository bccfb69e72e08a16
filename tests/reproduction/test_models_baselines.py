"""Prior and Random baselines."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from threshold_choice.models.baselines import PriorScorer, RandomScorer


def _X(n: int) -> pd.DataFrame:
    return pd.DataFrame({"a": np.arange(n, dtype=float)})


def test_prior_is_training_proportion_plus_offset() -> None:
    y = np.array([1, 1, 1, 0, 1, 0, 1, 1])  # 6 of 8
    model = PriorScorer().fit(_X(8), y)
    proba = model.predict_proba(_X(5))
    np.testing.assert_allclose(proba[:, 1], 0.75 + 0.001)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0)


def test_prior_is_capped_at_one() -> None:
    model = PriorScorer().fit(_X(3), np.array([1, 1, 1]))
    assert model.predict_proba(_X(2))[0, 1] == 1.0


def test_random_range_and_seeding() -> None:
    a = RandomScorer(random_state=7).fit(_X(4), np.array([0, 1, 0, 1]))
    b = RandomScorer(random_state=7).fit(_X(4), np.array([0, 1, 0, 1]))
    c = RandomScorer(random_state=8).fit(_X(4), np.array([0, 1, 0, 1]))
    first_a, first_b, first_c = (m.predict_proba(_X(500))[:, 1] for m in (a, b, c))
    np.testing.assert_array_equal(first_a, first_b)
    assert not np.array_equal(first_a, first_c)
    assert first_a.min() >= 0.0 and first_a.max() < 1.0
    # roughly uniform: every tenth of [0, 1) gets some of 500 draws
    assert np.all(np.histogram(first_a, bins=10, range=(0, 1))[0] > 20)
    # the next call draws new values, identically for the same seed
    second_a, second_b = a.predict_proba(_X(50))[:, 1], b.predict_proba(_X(50))[:, 1]
    np.testing.assert_array_equal(second_a, second_b)
    assert not np.array_equal(second_a, first_a[:50])


def test_random_rejects_bad_seed() -> None:
    with pytest.raises(ValueError, match="random_state"):
        RandomScorer(random_state=-1).fit(_X(2), np.array([0, 1]))
