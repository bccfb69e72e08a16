"""The expected cost curve ``K(c)`` at many costs: ``beta_kernel.edge_sums`` and
``expected_cost_curve``, against the kernel evaluated at every (point, cost) pair.

The references are ``Uncertainty.cdf`` / ``partial_mean`` (scipy's ``betainc``) at each
segment edge and each cost, and adaptive quadrature for the skew variants' moments; the
engine spreads the edges onto cells once and integrates the kernel per cost on a few cells
(module docstring of ``threshold_choice.beta_kernel``).
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from scipy.integrate import quad

from tests.conftest import random_scores
from threshold_choice import beta_kernel
from threshold_choice.costlines import CostLines
from threshold_choice.decision_curves import expected_net_benefit
from threshold_choice.errors import UserError
from threshold_choice.expected_loss import _segment_edges, expected_cost_curve
from threshold_choice.methods import METHODS, make_selection
from threshold_choice.uncertainty import Uncertainty

GAMMAS = [0.0, 0.25, 1.0, 4.0, 30.0, 1000.0]


def _edges(rng: np.random.Generator, n: int) -> np.ndarray:
    """Sorted points with the ends, ties and points very close to 0 and 1."""
    return np.sort(np.concatenate([
        [0.0, 1.0, 0.5, 0.5], rng.random(n), rng.random(20) ** 12, 1.0 - rng.random(20) ** 12,
    ]))


@pytest.mark.parametrize("gamma", GAMMAS)
def test_edge_sums_equal_the_kernel_summed_point_by_point(gamma):
    rng = np.random.default_rng(7)
    x = _edges(rng, 2_000)
    weights = rng.normal(size=(2, x.size))
    c = np.concatenate([[0.0, 1.0, 1e-9, 0.5], rng.random(60)])
    unc = Uncertainty(gamma)
    v, u = beta_kernel.edge_sums(x, weights, weights[::-1], lambda z: z, gamma, c)
    scale = np.abs(weights).sum()  # the sums' own rounding is relative to this
    assert np.abs(v - weights @ unc.cdf(x[:, None], c[None, :])).max() < 1e-13 * scale
    expected_u = weights[::-1] @ unc.partial_mean(x[:, None], c[None, :])
    assert np.abs(u - expected_u).max() < 1e-13 * scale


def test_edge_sums_without_moment_rows_return_none_and_the_same_cdf_sums():
    rng = np.random.default_rng(8)
    x = _edges(rng, 500)
    weights = rng.normal(size=(2, x.size))
    c = rng.random(10)
    alone, none = beta_kernel.edge_sums(x, weights, None, None, 4.0, c)
    together, _ = beta_kernel.edge_sums(x, weights, weights, lambda z: z, 4.0, c)
    assert none is None
    np.testing.assert_array_equal(alone, together)


def test_edge_sums_in_chunks_of_costs_equal_one_piece_to_rounding(monkeypatch):
    # the chunks give BLAS matrices of other shapes, whose sums may be ordered otherwise: a
    # last-digit difference, no more
    rng = np.random.default_rng(9)
    x = _edges(rng, 3_000)
    weights = rng.normal(size=(2, x.size))
    c = rng.random(200)
    whole = beta_kernel.edge_sums(x, weights, weights, lambda z: z, 30.0, c)
    monkeypatch.setattr(beta_kernel, "_NODE_BUDGET", 2_000)  # a few costs per chunk
    chunked = beta_kernel.edge_sums(x, weights, weights, lambda z: z, 30.0, c)
    for a, b in zip(whole, chunked, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-14, atol=0)


def test_edge_sums_do_work_independent_of_points_per_cost(monkeypatch):
    """The kernel is evaluated on cells per cost, not at each (point, cost) pair: 100 times
    more points leave the number of density evaluations unchanged."""
    evaluated = []
    real = beta_kernel._log_density_w

    def counting(w, a, b):
        out = real(w, a, b)
        evaluated.append(out.size)
        return out

    monkeypatch.setattr(beta_kernel, "_log_density_w", counting)
    rng = np.random.default_rng(10)
    c = rng.random(50)
    counts = []
    for n in (100, 10_000):
        evaluated.clear()
        x = np.sort(rng.random(n))
        beta_kernel.edge_sums(x, rng.normal(size=(2, n)), None, None, 30.0, c)
        counts.append(sum(evaluated))
    assert counts[0] == counts[1]


def _direct_curve(sel, gamma: float, c: np.ndarray) -> np.ndarray:
    """``K(c)`` pair by pair: the kernel's CDF and partial moments at every segment edge and
    cost (quadrature for the skew variants' moments of phi)."""
    unc = Uncertainty(0.0 if sel.ignores_c_hat else gamma)
    e = _segment_edges(sel)
    dv = np.diff(unc.cdf(e[:, None], c[None, :]), axis=0)
    a = sel.coef
    out = (a[:, :1] + a[:, 1:2] * c) * dv
    if sel.interpolating:
        if sel.input_map is None:
            dm = np.diff(unc.partial_mean(e[:, None], c[None, :]), axis=0)
        else:
            dm = np.array([[quad(lambda z, cc=cc: float(sel.inputs(np.array(z))
                                                         * unc.pdf(z, cc)),
                                 lo, hi, epsabs=1e-15, epsrel=1e-13, limit=200)[0]
                            for cc in c] for lo, hi in itertools.pairwise(e)])
        out += (a[:, 2:3] + a[:, 3:4] * c) * dm
    return out.sum(axis=0)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("gamma", [0.0, 0.25, 4.0, 1000.0])
def test_expected_cost_curve_equals_the_kernel_at_every_edge_and_cost(method, gamma):
    y, s = random_scores(11, 40, decimals=3)
    lines = CostLines.from_scores(y, s)
    sel = make_selection(method, lines, train=lines, gamma=gamma)
    mapped = sel.interpolating and sel.input_map is not None
    c = np.linspace(0.0, 1.0, 7 if mapped else 41)
    got = expected_cost_curve(sel, gamma, c)
    np.testing.assert_allclose(got, _direct_curve(sel, gamma, c), rtol=0, atol=1e-12)


def test_expected_net_benefit_of_a_method_is_linear_in_scores_plus_thresholds(monkeypatch):
    """The decision curve of rate-driven at 10^5 scores and 1 000 thresholds evaluates the
    kernel on a number of nodes that does not grow with the scores (was one betainc per
    score and threshold: 45 s)."""
    evaluated = []
    real = beta_kernel._log_density_w
    monkeypatch.setattr(beta_kernel, "_log_density_w",
                        lambda w, a, b: evaluated.append(w.size) or real(w, a, b))
    t = np.linspace(0.0, 0.99, 1_000)
    counts = []
    for n in (1_000, 100_000):
        y, s = random_scores(12, n, decimals=None)
        lines = CostLines.from_scores(y, s)
        sel = make_selection("rate-driven", lines)
        evaluated.clear()
        nb = expected_net_benefit(sel, 4.0, t, pi1=lines.pi1)
        assert np.isfinite(nb).all()
        counts.append(sum(evaluated))
    assert counts[0] == counts[1] < 100 * t.size * 13  # cells x nodes per threshold


@pytest.mark.parametrize("c", [-0.1, 1.5, float("nan")])
def test_a_true_cost_outside_0_1_is_refused_by_the_cost_curve(c):
    y, s = random_scores(3, 50)
    sel = make_selection("score-driven", CostLines.from_scores(y, s))
    for gamma in (math.inf, 4.0, 1e5):
        with pytest.raises(UserError, match="c must be true cost proportions in \\[0, 1\\]"):
            expected_cost_curve(sel, gamma, [0.5, c])
