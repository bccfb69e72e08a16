"""A seed is a whole number >= 0 (or None where the API documents it) at every entry point
that takes one: the bootstrap, the Displays' bootstrap bands, the Monte Carlo settings and
``expected_loss``; anything else is a one-line UserError before any work, never numpy's
ValueError nor a silent truncation."""

from __future__ import annotations

import math

import matplotlib
import numpy as np
import pytest

from tests.conftest import random_scores
from threshold_choice import CostLines, LossSettings, expected_losses, make_selection
from threshold_choice.bootstrap import bootstrap, replicate_cost_lines, resample_counts
from threshold_choice.errors import UserError
from threshold_choice.expected_loss import expected_loss

matplotlib.use("Agg")

BAD_SEEDS = [-1, 1.5, True, "3", np.float64(2.0)]


def _entry_points():
    from threshold_choice.plotting import CertaintyDisplay, CostCurveDisplay

    y, s = random_scores(0, 40)
    sel = make_selection("score-driven", CostLines.from_scores(y, s))
    return {
        "bootstrap": lambda seed: bootstrap(y, s, n_boot=3, seed=seed),
        "resample_counts": lambda seed: resample_counts(y, 3, seed=seed),
        "replicate_cost_lines": lambda seed: next(replicate_cost_lines(y, s, 3, seed)),
        "CostCurveDisplay": lambda seed: CostCurveDisplay.from_predictions(
            y, s, methods=["score-driven"], gammas=[math.inf], n_boot=3, seed=seed, plot=False),
        "CertaintyDisplay": lambda seed: CertaintyDisplay.from_predictions(
            y, s, methods=["score-driven"], n_boot=3, seed=seed, plot=False),
        "expected_losses": lambda seed: expected_losses(
            y, s, gammas=[4], settings={"estimator": "montecarlo", "seed": seed}),
        "expected_loss": lambda seed: expected_loss(sel, 4.0, estimator="montecarlo",
                                                    seed=seed),
    }


@pytest.mark.parametrize("seed", BAD_SEEDS, ids=repr)
@pytest.mark.parametrize("entry", list(_entry_points()))
def test_a_seed_that_is_not_a_whole_number_at_least_0_is_a_user_error(entry, seed):
    with pytest.raises(UserError, match=r"^seed must be a whole number >= 0") as caught:
        _entry_points()[entry](seed)
    assert "\n" not in str(caught.value)
    assert repr(seed) in str(caught.value)


def test_the_settings_seed_is_an_integer_not_none():
    with pytest.raises(UserError, match=r"^seed must be a whole number >= 0, got None"):
        LossSettings(estimator="montecarlo", seed=None)


def test_numpy_integers_and_none_are_seeds_where_documented():
    y, _ = random_scores(1, 30)
    a = resample_counts(y, 4, seed=np.int64(7))
    np.testing.assert_array_equal(a, resample_counts(y, 4, seed=7))
    assert resample_counts(y, 4, seed=None).shape == (4, y.size)
    LossSettings(estimator="montecarlo", seed=np.int32(3))
