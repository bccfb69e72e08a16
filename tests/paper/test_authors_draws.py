"""R's ``rbeta`` and the authors' draws of ``c_hat``, replayed from R's stream.

Oracles: R's own output. ``data/rbeta_seed7.txt`` and ``data/authors_draws_i2_g*.txt`` were
written by R 4.2.2 (the commands are in their first lines; ``data/authors_draws.R`` is the
loop of the authors' script with its draws only); when ``Rscript`` is on the machine the
tests also ask R for other arguments.
"""

from __future__ import annotations

import math
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from threshold_choice.reproduction.authors_draws import AUTHORS_MODELS, replay_iteration
from threshold_choice.splits.rng_r import RMersenneTwister

DATA = Path(__file__).parent / "data"
RSCRIPT = shutil.which("Rscript")
needs_r = pytest.mark.skipif(RSCRIPT is None, reason="Rscript is not installed (Debian: "
                             "apt-get install r-base-core); the committed R outputs are checked")


def _r_draws(lines: list[str]) -> tuple[np.ndarray, np.ndarray]:
    rows = [line.split() for line in lines if line and not line.startswith("#")]
    random = np.array([float(r[1]) for r in rows if r[0] == "R"])
    grid = np.array([[float(x) for x in r] for r in rows if r[0] != "R"])
    return random, grid


def _check_replay(lines: list[str], iteration: int, n_train: int, n_test: int, gamma: float,
                  km: int) -> None:
    random, grid = _r_draws(lines)
    ours = replay_iteration(iteration, n_train, n_test, gamma, grid_size=km)
    assert list(ours.grid) == list(AUTHORS_MODELS)
    c_hat = np.concatenate([d.c_hat for d in ours.grid.values()])
    score_u = np.concatenate([d.score_uniform for d in ours.grid.values()])
    rate_u = np.concatenate([d.rate_uniform for d in ours.grid.values()])
    np.testing.assert_array_equal(grid[:, 0], np.repeat(np.arange(1, 13), km))
    np.testing.assert_array_equal(c_hat, grid[:, 1])  # bit for bit (17 digits)
    np.testing.assert_array_equal(score_u, grid[:, 2])
    np.testing.assert_array_equal(np.floor((n_test + 1) * rate_u) + 1, grid[:, 3])
    np.testing.assert_array_equal(np.concatenate([ours.random_train, ours.random_test]), random)


def test_rbeta_equals_r_in_both_of_chengs_algorithms() -> None:
    lines = (DATA / "rbeta_seed7.txt").read_text().splitlines()
    expected = np.array([float(x) for x in lines if not x.startswith("#")])
    stream = RMersenneTwister(7)
    a = 16 * 0.999 + 1
    ours = np.concatenate([stream.rbeta(3, 3.5, 2), stream.rbeta(2, 1, 17),  # BB, BC
                           stream.rbeta(2, 0.4, 0.7), stream.unif_rand(1),
                           stream.rbeta(3, a, 16 - a + 2)])
    np.testing.assert_array_equal(ours, expected)


@pytest.mark.parametrize("gamma", [8, 0])
def test_replay_equals_the_draws_of_the_authors_loop_in_r(gamma: int) -> None:
    lines = (DATA / f"authors_draws_i2_g{gamma}.txt").read_text().splitlines()
    assert lines[0] == f"# R 4.2.2: Rscript authors_draws.R 2 5 4 {gamma} 12"
    _check_replay(lines, 2, 5, 4, float(gamma), 12)


@needs_r
@pytest.mark.parametrize(("gamma", "km"), [("16", 300), ("1", 300), ("Inf", 50)])
def test_replay_equals_rscript_now(gamma: str, km: int) -> None:
    assert RSCRIPT is not None
    out = subprocess.run([RSCRIPT, str(DATA / "authors_draws.R"), "4", "23", "21", gamma,
                          str(km)], capture_output=True, text=True, check=True).stdout
    _check_replay(out.splitlines(), 4, 23, 21, math.inf if gamma == "Inf" else float(gamma),
                  km)


@needs_r
def test_rbeta_equals_rscript_on_many_shapes() -> None:
    assert RSCRIPT is not None
    shapes = [(1.001, 17.0), (1.0, 1.0), (0.3, 5.0), (5.0, 0.3), (2.5, 2.5), (40.0, 1.5)]
    code = ("set.seed(11); for (s in list(" + ",".join(f"c({a},{b})" for a, b in shapes)
            + ')) cat(sprintf("%.17g", rbeta(200, s[1], s[2])), sep="\\n")')
    out = subprocess.run([RSCRIPT, "-e", code], capture_output=True, text=True,
                         check=True).stdout
    stream = RMersenneTwister(11)
    ours = np.concatenate([stream.rbeta(200, a, b) for a, b in shapes])
    np.testing.assert_array_equal(ours, np.array(out.split(), dtype=np.float64))


def test_peeking_consumes_nothing_and_skip_consumes() -> None:
    ahead, plain = RMersenneTwister(5), RMersenneTwister(5)
    peeked = ahead.peek_unif(10)
    np.testing.assert_array_equal(ahead.unif_rand(4), plain.unif_rand(4))
    np.testing.assert_array_equal(peeked[4:8], plain.peek_unif(4))
    ahead.skip(3)
    plain.unif_rand(3)
    np.testing.assert_array_equal(ahead.unif_rand(700), plain.unif_rand(700))
    np.testing.assert_array_equal(ahead.sample_int(9), plain.sample_int(9))


def test_authors_test_optimal_is_the_chosen_line_unless_the_midpoint_collapses() -> None:
    from tests.conftest import random_scores
    from threshold_choice.costlines import CostLines
    from threshold_choice.methods import make_selection
    from threshold_choice.reproduction.authors_draws import (
        authors_test_optimal_losses,
        midpoint_collapses,
    )

    c = np.arange(1, 1001) / 1000
    for seed in range(5):
        y, s = random_scores(seed, 80, decimals=2)
        assert not midpoint_collapses(s)
        sel = make_selection("test-optimal", CostLines.from_scores(y, s), tie_breaking="authors")
        c_hat = np.random.default_rng(seed).random(c.size)
        np.testing.assert_allclose(authors_test_optimal_losses(y, s, c_hat, c),
                                   sel.loss(c_hat, c), rtol=0, atol=1e-12)


def test_a_midpoint_on_the_upper_score_predicts_it_0_as_the_authors_code_did() -> None:
    from threshold_choice.reproduction.authors_draws import (
        authors_test_optimal_losses,
        midpoint_collapses,
    )

    upper = 1.0
    lower = np.nextafter(1.0, 0.0)  # adjacent doubles: (lower + upper) / 2 rounds to 1.0
    y = np.array([0, 0, 0, 1])
    s = np.array([0.2, 0.5, lower, upper])
    assert midpoint_collapses(s) and (lower + upper) / 2 == upper
    # at c = 1/2 the best line predicts the three lowest scores 0 (no error); its threshold,
    # the midpoint, is 1.0, so the class-1 example at 1.0 is predicted 0 too: loss 2 (1 - c)/4
    loss = authors_test_optimal_losses(y, s, np.array([0.5]), np.array([0.5]))
    assert loss[0] == 2 * 0.5 / 4
