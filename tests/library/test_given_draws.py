"""The ``authors`` estimator: the Monte Carlo protocol at draws given with each run."""

from __future__ import annotations

import math
import zlib

import numpy as np
import pytest

from tests.conftest import random_scores
from threshold_choice.costlines import CostLines
from threshold_choice.errors import UserError
from threshold_choice.evaluation import LossBatch, LossSettings, RunDraws
from threshold_choice.expected_loss import draw_c_hat, expected_loss
from threshold_choice.methods import make_selection
from threshold_choice.uncertainty import format_gamma

METHODS = ["test-optimal", "train-optimal", "score-driven", "rate-driven", "score-uniform",
           "rate-uniform", "score-driven-z", "test-optimal-aware"]
GAMMAS = [math.inf, 4.0, 0.0]
GRID = 200


def _run(seed: int):
    y, s = random_scores(seed, 60)
    ty, ts = random_scores(seed + 100, 50)
    return y, s, ty, ts


def _montecarlo_stream(gamma: float, tag: float, seed: int = 3) -> np.ndarray:
    # as evaluation._draw_seed: one stream per (seed, gamma); the uniform one's tag is -1
    return draw_c_hat(gamma, GRID, [seed, zlib.crc32(format_gamma(tag).encode())])


def test_given_montecarlos_own_draws_it_equals_montecarlo() -> None:
    y, s, ty, ts = _run(1)
    mc = LossBatch.make(METHODS, GAMMAS, LossSettings(estimator="montecarlo", seed=3,
                                                      grid_size=GRID), "accuracy")
    expected = mc.losses([mc.selections(y, s, train_y=ty, train_s=ts)])[0]
    uniform = _montecarlo_stream(0.0, -1.0)
    draws = RunDraws([_montecarlo_stream(g, g) for g in GAMMAS], [uniform] * 3, [uniform] * 3)
    given = LossBatch.make(METHODS, GAMMAS, LossSettings(estimator="authors", grid_size=GRID),
                           "accuracy")
    got = given.losses([given.selections(y, s, train_y=ty, train_s=ts, draws=draws)])[0]
    assert got == expected


def test_each_run_is_evaluated_at_its_own_draws() -> None:
    rng = np.random.default_rng(0)
    runs_data = [_run(1), _run(2)]
    batch = LossBatch.make(["score-driven", "score-uniform", "rate-uniform"], [2.0],
                           LossSettings(estimator="authors", grid_size=GRID), "accuracy")
    draws = [RunDraws([rng.random(GRID)], [rng.random(GRID)], [rng.random(GRID)])
             for _ in runs_data]
    runs = [batch.selections(y, s, train_y=ty, train_s=ts, draws=d)
            for (y, s, ty, ts), d in zip(runs_data, draws, strict=True)]
    losses = batch.losses(runs)
    for (y, s, _, _), d, got in zip(runs_data, draws, losses, strict=True):
        lines = CostLines.from_scores(y, s)
        sel = make_selection("score-driven", lines)
        want = [expected_loss(sel, 2.0, estimator="authors", grid_size=GRID, c_hat=d.c_hat[0]),
                expected_loss(make_selection("score-uniform", lines), 2.0, estimator="authors",
                              grid_size=GRID, c_hat=d.score_uniform[0]),
                expected_loss(make_selection("rate-uniform", lines), 2.0, estimator="authors",
                              grid_size=GRID, c_hat=d.rate_uniform[0])]
        assert got == pytest.approx(want, abs=1e-15)
    assert losses[0] != losses[1]


def test_without_draws_it_says_where_they_come_from() -> None:
    y, s, _, _ = _run(1)
    batch = LossBatch.make(["score-driven"], [4.0], LossSettings(estimator="authors"),
                           "accuracy")
    with pytest.raises(UserError, match="authors estimator evaluates each run at the draws"):
        batch.losses([batch.selections(y, s)])
    with pytest.raises(UserError, match="pass c_hat"):
        expected_loss(make_selection("score-driven", CostLines.from_scores(y, s)), 4.0,
                      estimator="authors")


def test_draws_of_another_number_of_gammas_are_refused() -> None:
    y, s, _, _ = _run(1)
    batch = LossBatch.make(["score-driven"], [4.0, 1.0], LossSettings(estimator="authors"),
                           "accuracy")
    one = [np.full(1000, 0.5)]
    with pytest.raises(UserError, match="one array per gamma"):
        batch.selections(y, s, draws=RunDraws(one, one, one))


def test_the_f_measure_loss_is_refused() -> None:
    with pytest.raises(UserError, match="accuracy losses"):
        LossBatch.make(["score-driven"], [4.0], LossSettings(estimator="authors"), "f-measure")
