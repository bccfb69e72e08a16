"""The engine's one integrator: sums over moment tables, chunks, gammas at once, streaming.

``expected_loss._integrate`` reads each moment table through weighted sums
(``moment_tables.Increments`` over segments, ``moment_tables.Weighted`` at points) whose
table-independent part (cells, power sums) is computed once per selection; the references
here are the direct sums of the table's values (``MomentTable.__call__``) and the engine
evaluated one gamma, one chunk, one selection at a time.
"""

from __future__ import annotations

import gc
import weakref

import numpy as np
import pytest

from tests.conftest import random_scores
from threshold_choice import expected_loss as engine
from threshold_choice import moment_tables
from threshold_choice.cost_distributions import parse_cost_distribution
from threshold_choice.costlines import CostLines
from threshold_choice.evaluation import LossBatch, LossSettings, _Run
from threshold_choice.expected_loss import expected_loss, losses_at_gammas
from threshold_choice.methods import METHODS, make_selection, method_spec
from threshold_choice.methods.builders import skew_map
from threshold_choice.moment_tables import Increments, Points, Weighted, moment_table

# (gamma, distribution): the regular grid, refined grids (bisection), the closed forms
TABLES = [
    (4.0, "uniform"),
    (100.0, "uniform:0.05,0.2"),
    (4.0, "beta:40,60"),
    (0.0, "uniform"),
    (float("inf"), "uniform"),
    (float("inf"), "beta:2,5"),
]


def _points(rng: np.random.Generator, n: int) -> np.ndarray:
    """Sorted points with ties, the ends, and points beyond the table's range."""
    x = np.concatenate([rng.random(n), np.round(rng.random(n // 4), 2),
                        [0.0, 1.0, 1e-300, 1e-15, 1.0 - 1e-16, 0.5]])
    return np.sort(x)


def _path(sums, table) -> str:
    """Which way the table is read: per-cell power sums, or directly at the points."""
    if not table.interpolated:
        return "closed form"
    return "direct" if sums.power_sums(table._grid) is None else "cells"


@pytest.mark.parametrize(("gamma", "dist"), TABLES)
@pytest.mark.parametrize("rows", [2, 4])
@pytest.mark.parametrize("n", [300, 60_000])  # about one point per cell / many per cell
def test_increments_equal_the_direct_sum_over_the_table(gamma, dist, rows, n):
    rng = np.random.default_rng(3)
    table = moment_table(gamma, None, parse_cost_distribution(dist))
    x = _points(rng, n)
    weights = rng.normal(size=(rows, x.size - 1))  # oscillating, as rate-driven's are
    direct = np.diff(table(x, rows=rows), axis=1)
    expected = float(np.sum(weights * direct))
    sums = Increments(Points(x), weights)
    got = table.integrate(sums)
    assert got == pytest.approx(expected, rel=0, abs=1e-13 * np.sum(np.abs(weights * direct)))
    if table.interpolated:
        assert _path(sums, table) == ("cells" if n > 10_000 else "direct")


@pytest.mark.parametrize(("gamma", "dist"), TABLES)
@pytest.mark.parametrize("shuffle", [False, True])
@pytest.mark.parametrize("n", [300, 60_000])
def test_weighted_sums_equal_the_direct_sum_over_the_table(gamma, dist, shuffle, n):
    rng = np.random.default_rng(4)
    table = moment_table(gamma, None, parse_cost_distribution(dist))
    x = _points(rng, n)
    if shuffle:  # points out of order: a cell may recur
        x = np.concatenate([x[: 4 * n // 5], rng.permutation(x[4 * n // 5 :])])
    weights = rng.random((2, x.size)) * 1e-3
    values = table(x, rows=2)
    sums = Weighted(Points(x), weights)
    got = table.integrate(sums)
    assert got == pytest.approx(float(np.sum(weights * values)), rel=1e-13)
    if table.interpolated:
        assert _path(sums, table) == ("cells" if n > 10_000 else "direct")


def test_points_are_placed_once_for_all_tables_on_one_grid():
    points = Points(np.linspace(0.0, 1.0, 101))
    first = moment_table(4.0)
    first.read(points, rows=2)
    placed = points.cells(first._grid)
    for gamma in (16.0, 2.0, 1.0):  # the paper's tables share the regular grid
        moment_table(gamma).read(points, rows=2)
        assert points.cells(moment_table(gamma)._grid) is placed


def _selections(seed: int = 2, n: int = 400):
    ty, ts = random_scores(seed, n, decimals=None)
    y, s = random_scores(seed + 1, n, decimals=None)
    test, train = CostLines.from_scores(y, s), CostLines.from_scores(ty, ts)
    return [make_selection(m, test, train=train, gamma=2.0) for m in METHODS]


GAMMAS = [float("inf"), 16.0, 4.0, 1.0, 0.5, 0.0, 1e30]


@pytest.mark.parametrize("dist", ["uniform", "beta:40,60"])
def test_losses_at_several_gammas_equal_each_gamma_alone_bit_for_bit(dist):
    for sel in _selections():
        together = losses_at_gammas(sel, GAMMAS, distribution=dist)
        assert together == [expected_loss(sel, g, distribution=dist) for g in GAMMAS]


def test_integrating_in_chunks_agrees_with_one_piece(monkeypatch):
    sels = _selections(n=300)
    whole = [losses_at_gammas(sel, GAMMAS) for sel in sels]
    monkeypatch.setattr(engine, "_SEGMENT_CHUNK", 7)
    assert sum(sel.breaks.size + 1 > 7 for sel in sels) >= 8  # most in several chunks
    for sel, expected in zip(sels, whole, strict=True):
        np.testing.assert_allclose(losses_at_gammas(sel, GAMMAS), expected, rtol=1e-13,
                                   atol=1e-16)


def test_aware_methods_alone_are_evaluated_from_their_bases():
    ty, ts = random_scores(8, 200, decimals=2)
    y, s = random_scores(9, 200, decimals=2)
    aware = [m for m in METHODS if m.endswith("-aware")]
    alone = LossBatch.make(aware, GAMMAS, LossSettings(), "accuracy")
    every = LossBatch.make(METHODS, GAMMAS, LossSettings(), "accuracy")
    got = alone.losses([alone.selections(y, s, train_y=ty, train_s=ts)])[0]
    full = every.losses([every.selections(y, s, train_y=ty, train_s=ts)])[0]
    columns = [METHODS.index(m) for m in aware]
    assert got == [full[g * len(METHODS) + j] for g in range(len(GAMMAS)) for j in columns]


def test_a_run_builds_each_selection_once_and_keeps_none(monkeypatch):
    built: list[weakref.ref] = []
    original = _Run.selection

    def spy(self, method):
        sel = original(self, method)
        built.append(weakref.ref(sel))
        return sel

    derived: list[weakref.ref] = []
    original_variant = _Run.variant

    def spy_variant(self, method, base):
        sel = original_variant(self, method, base)
        derived.append(weakref.ref(sel))
        return sel

    monkeypatch.setattr(_Run, "selection", spy)
    monkeypatch.setattr(_Run, "variant", spy_variant)
    ty, ts = random_scores(8, 300, decimals=2)
    y, s = random_scores(9, 300, decimals=2)
    batch = LossBatch.make(METHODS, GAMMAS, LossSettings(), "accuracy")
    losses = batch.losses([batch.selections(y, s, train_y=ty, train_s=ts)])
    # the aware variants and the variants start from their bases' selections: one build per
    # base method, each variant derived from it
    specs = [method_spec(m) for m in METHODS]
    bases = [spec for spec in specs if spec.aware_of is None and spec.variant_of is None]
    assert len(built) == len(bases)
    assert len(derived) == sum(spec.variant_of is not None for spec in specs)
    built += derived
    gc.collect()
    assert all(ref() is None for ref in built)  # released once evaluated
    assert len(losses[0]) == len(METHODS) * len(GAMMAS)


def test_posterior_mean_inverse_is_the_same_in_any_chunks(monkeypatch):
    table = moment_table(4.0)
    m = np.random.default_rng(6).random(1000)
    whole = table.posterior_mean_inverse(m, closed="left")
    monkeypatch.setattr(moment_tables, "_CHUNK", 37)
    np.testing.assert_array_equal(table.posterior_mean_inverse(m, closed="left"), whole)
    assert table.posterior_mean_inverse(np.float64(0.3), closed="left").shape == ()


def test_skew_inverse_is_the_closed_form_and_sends_outside_values_to_infinity():
    pi0 = 0.3
    _, inverse = skew_map(pi0)
    z = np.array([-0.5, 0.0, 0.1, 0.5, 0.9, 1.0, 1.5])
    zc = np.clip(z, 0.0, 1.0)
    expected = zc * (1 - pi0) / (zc * (1 - pi0) + (1.0 - zc) * pi0)
    expected[z < 0], expected[z > 1] = -np.inf, np.inf
    np.testing.assert_array_equal(inverse(z), expected)
    assert inverse(np.float64(0.5)) == expected[3]
    np.testing.assert_array_equal(z, [-0.5, 0.0, 0.1, 0.5, 0.9, 1.0, 1.5])  # input untouched


def test_one_moment_table_per_canonical_key():
    from threshold_choice.cost_distributions import UNIFORM

    table = moment_table(4.0)
    assert moment_table(4) is table
    assert moment_table(4.0, None, UNIFORM) is table
    assert moment_table(np.float64(4.0), distribution=UNIFORM) is table
    assert moment_table(4.0, 1000) is not table
