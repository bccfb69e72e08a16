"""The batched evaluation paths give, bit for bit, what each selection gives alone.

``expected_losses`` evaluates all methods of a gamma in one pass (and the workflow all splits
of a model at once); the reference here is the unbatched computation through the public
API: one ``make_selection`` and one ``expected_loss`` per (method, gamma), with the draws
of the authors' protocol for Monte Carlo. The point selection that skips lines which cannot
be the lowest is checked against the full matrix of heights.
"""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from tests.conftest import random_scores
from threshold_choice.costlines import CostLines
from threshold_choice.evaluation import LossBatch, LossSettings, expected_losses
from threshold_choice.expected_loss import draw_c_hat, expected_loss, expected_loss_batch
from threshold_choice.methods import (
    GAMMA_AWARE,
    METHODS,
    ArgminRule,
    make_selection,
    uncertainty_aware,
    uncertainty_aware_many,
)
from threshold_choice.methods.builders import _selection_heights
from threshold_choice.methods.selection import _candidate_argmin, _near_envelope
from threshold_choice.moment_tables import moment_table
from threshold_choice.uncertainty import format_gamma

# inf, a table gamma, the windowed range of the grid estimator, beyond the certainty limit
GAMMAS = (float("inf"), 4.0, 0.0, 5000.0, 1e30)


def _run(seed: int, n: int, decimals: int | None):
    ty, ts = random_scores(seed, n, decimals=decimals)
    y, s = random_scores(seed + 100, n, decimals=decimals)
    return ty, ts, y, s


def _unbatched(ty, ts, y, s, settings: LossSettings, gammas) -> list[float]:
    """One selection and one expected loss per (gamma, method), as the engine's public API
    gives them."""
    test, train = CostLines.from_scores(y, s), CostLines.from_scores(ty, ts)
    out = []
    for gamma in gammas:
        draws = uniform = None
        if settings.estimator == "montecarlo":  # the authors' streams (evaluation._draw_seed)
            draws = draw_c_hat(gamma, settings.grid_size,
                               [settings.seed, zlib.crc32(format_gamma(gamma).encode())])
            uniform = draw_c_hat(0.0, settings.grid_size,
                                 [settings.seed, zlib.crc32(format_gamma(-1.0).encode())])
        for method in METHODS:
            sel = make_selection(
                method, test, train=train, gamma=gamma,
                rate_threshold_offset=settings.rate_threshold_offset,
                tie_breaking=settings.tie_breaking,
            )
            out.append(expected_loss(
                sel, gamma, estimator=settings.estimator, grid_size=settings.grid_size,
                c_hat=uniform if sel.ignores_c_hat else draws,
            ))
    return out


@pytest.mark.parametrize(
    "settings",
    [
        LossSettings(estimator="grid", rate_threshold_offset=1e-7, tie_breaking="authors"),
        LossSettings(estimator="exact"),
        LossSettings(estimator="montecarlo", grid_size=200, seed=3),
    ],
    ids=["grid-authors", "exact", "montecarlo"],
)
def test_expected_losses_equal_the_unbatched_losses_bit_for_bit(settings):
    ty, ts, y, s = _run(7, 160, decimals=2)
    table = expected_losses(y, s, train_y=ty, train_s=ts, methods=METHODS, gammas=GAMMAS,
                            settings=settings)
    reference = _unbatched(ty, ts, y, s, settings, GAMMAS)
    assert table["expected_loss"].tolist() == reference  # exact equality, not approximate


def test_several_runs_at_once_equal_each_run_alone():
    settings = LossSettings(estimator="grid", rate_threshold_offset=1e-7, tie_breaking="authors")
    request = LossBatch.make(METHODS, GAMMAS[:3], settings, "accuracy")
    runs = [_run(seed, n, decimals) for seed, n, decimals in [(1, 80, 1), (2, 300, None),
                                                              (3, 150, 2)]]
    together = request.losses([request.selections(y, s, train_y=ty, train_s=ts)
                               for ty, ts, y, s in runs])
    for (ty, ts, y, s), table in zip(runs, together, strict=True):
        alone = expected_losses(y, s, train_y=ty, train_s=ts, methods=METHODS,
                                gammas=GAMMAS[:3], settings=settings)
        assert table == alone["expected_loss"].tolist()
        assert table == _unbatched(ty, ts, y, s, settings, GAMMAS[:3])


@pytest.mark.parametrize("grid_size", [None, 1000])
def test_batched_integrals_are_the_segment_sums_of_the_moment_table(grid_size):
    """Each selection's loss is ``sum_s a_s . (G(x_{s+1}) - G(x_s))`` over its segments, read
    from the public moment table, whatever else is in the batch, up to rounding (the engine
    sums the same increments per cell of the table; skew variants excluded: their mapped
    moments are a quadrature)."""
    ty, ts, y, s = _run(13, 180, decimals=2)
    test, train = CostLines.from_scores(y, s), CostLines.from_scores(ty, ts)
    gamma = 4.0
    sels = [make_selection(m, test, train=train, gamma=gamma, rate_threshold_offset=1e-7)
            for m in METHODS if not m.endswith("-z")]
    expected = []
    for sel in sels:
        table = moment_table(0.0 if sel.ignores_c_hat else gamma, grid_size)  # *-uniform: 0
        edges = np.concatenate(([0.0], np.clip(sel.breaks, 0.0, 1.0), [1.0]))
        rows = 4 if sel.interpolating and sel.input_map is None else 2
        dg = np.diff(table(edges, rows=rows), axis=1)
        a = sel.coef
        total = a[:, 0] @ dg[0] + a[:, 1] @ dg[1]
        if rows == 4:
            total += a[:, 2] @ dg[2] + a[:, 3] @ dg[3]
        expected.append(float(total))
    estimator = "exact" if grid_size is None else "grid"
    np.testing.assert_allclose(expected_loss_batch(sels, gamma, estimator=estimator), expected,
                               rtol=1e-13, atol=0)


def test_batch_of_selections_equals_each_selection_alone():
    ty, ts, y, s = _run(11, 200, decimals=None)
    test, train = CostLines.from_scores(y, s), CostLines.from_scores(ty, ts)
    sels = [make_selection(m, test, train=train, gamma=2.0) for m in METHODS]
    for estimator in ("exact", "grid"):
        batch = expected_loss_batch(sels, 2.0, estimator=estimator)
        assert batch == [expected_loss(sel, 2.0, estimator=estimator) for sel in sels]


@pytest.mark.parametrize("seed", [5, None])
def test_aware_variants_built_together_equal_each_built_alone(seed):
    if seed is None:  # a break exactly at the prior mean 1/2, where the side closed matters
        y = np.array([0, 0, 1, 0, 1, 1])
        s = np.array([0.1, 0.2, 0.5, 0.5, 0.8, 0.9])
        ty, ts = y, s
    else:
        ty, ts, y, s = _run(seed, 120, decimals=2)
    test, train = CostLines.from_scores(y, s), CostLines.from_scores(ty, ts)
    bases = [make_selection(m.removesuffix("-aware"), test, train=train)
             for m in METHODS if m in GAMMA_AWARE]
    for gamma in (0.0, 3.0, float("inf")):
        table = moment_table(gamma)
        for together, base in zip(uncertainty_aware_many(bases, gamma), bases, strict=True):
            alone = uncertainty_aware(base, gamma)
            assert together.method == alone.method == f"{base.method}-aware"
            # the breaks are the posterior-mean inverse of the base's, on the base's side
            breaks = table.posterior_mean_inverse(base.input_breaks, closed=base.closed)
            np.testing.assert_array_equal(together.breaks, breaks)
            np.testing.assert_array_equal(alone.breaks, breaks)
            x = np.linspace(0.005, 0.995, 199)
            np.testing.assert_array_equal(together.inputs(x), alone.inputs(x))


def _full_argmin(x, left, right):
    return np.argmin(x[:, None] * (right - left)[None, :] + left[None, :], axis=1)


@pytest.mark.parametrize("seed", range(12))
def test_point_selection_picks_the_first_lowest_line_as_the_full_matrix_does(seed):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(200, 2500))
    levels = int(rng.integers(3, 500))
    # scores on a lattice: many lines cross exactly at grid points (ties to break)
    y, s = random_scores(seed, n, decimals=None)
    s = np.round(s * levels) / levels
    lines = CostLines.from_scores(y, s)
    x = np.arange(1, 1001) / 1000 if seed % 2 else rng.random(int(rng.integers(100, 3000)))
    for tie_breaking in ("project", "authors"):
        left, right = _selection_heights(lines, tie_breaking)
        rule = ArgminRule(left, right, lines.left, lines.slope)
        if left.size >= 64 and x.size >= 200:  # large enough for the candidate search
            assert _candidate_argmin(x, right - left, left) is not None
        expected = _full_argmin(x, left, right)
        np.testing.assert_array_equal(rule.select(x), expected)
        np.testing.assert_array_equal(rule.select(x, chunk=500), expected)  # small pieces


def test_point_selection_with_nearly_tied_and_sentinel_lines():
    rng = np.random.default_rng(0)
    m = 400
    left = np.sort(rng.random(m))
    right = left[::-1] + rng.integers(-2, 3, m) * np.finfo(float).eps  # ties up to rounding
    left[::7] = np.finfo(float).max  # lines never to be chosen (as the F-measure's TP = 0)
    right[::7] = np.finfo(float).max
    x = np.arange(1, 1001) / 1000
    rule = ArgminRule(left, right, left, right - left)
    assert _candidate_argmin(x, right - left, left) is not None
    np.testing.assert_array_equal(rule.select(x), _full_argmin(x, left, right))


@pytest.mark.parametrize("kind", ["general", "through_few_points", "duplicates"])
@pytest.mark.parametrize("seed", range(4))
def test_point_selection_of_arbitrary_lines_is_the_full_argmin(kind, seed):
    """Lines in general position, many lines through a few common points (ties at those
    inputs) and exact duplicates: the envelope filter keeps every possible first minimum."""
    rng = np.random.default_rng(seed)
    m, n = int(rng.integers(64, 2000)), int(rng.integers(200, 2000))
    slope = rng.normal(size=m)
    if kind == "general":
        left = rng.normal(size=m)
    elif kind == "through_few_points":
        px, py, k = rng.random(4), rng.random(4), rng.integers(0, 4, m)
        left = py[k] - slope * px[k]
        x = np.concatenate([rng.random(n), px])  # inputs on the common points too
    else:
        slope, left = np.round(slope, 1), np.round(rng.normal(size=m), 1)
    if kind != "through_few_points":
        x = np.round(rng.random(n), 2)
    got = _candidate_argmin(x, slope, left)
    assert got is not None
    np.testing.assert_array_equal(got, np.argmin(x[:, None] * slope + left, axis=1))


def test_the_envelope_filter_keeps_a_small_share_of_a_large_roc():
    """Inside (0, 1) few of 10^5 cost lines come near the envelope; at c = 1 (or 0) every line
    above the highest class-0 score (below the lowest class-1 one) ties at height 0."""
    y, s = random_scores(3, 100_000, decimals=None)
    lines = CostLines.from_scores(y, s)
    kept = _near_envelope(0.001, 0.999, lines.slope, lines.left)
    assert kept is not None and kept.size < lines.left.size / 1000
    tied = np.flatnonzero((lines.right == 0) | (lines.left == 0))
    assert np.isin(tied, _near_envelope(0.0, 1.0, lines.slope, lines.left)).all()
