"""The moment tables of the exact engine: the integrals the uncertainty model induces.

Every threshold choice method of this package selects, for ``c_hat`` in a segment
``[x_s, x_{s+1}]``, a loss that is bilinear in ``(c, c_hat)``. Averaged over true costs ``c``
(uniform on [0, 1], or the paper's grid ``c = i/1000``) the expected loss therefore needs only

``G_ab(x) = integral over c of  c**a * E[c_hat**b * 1{c_hat <= x} | c]``,  ``a, b in {0, 1}``,

which depends on ``gamma`` and ``x`` but not on the scores (the order of integration swapped;
``c_hat | c`` is :class:`~threshold_choice.uncertainty.Uncertainty`). :class:`MomentTable`
tabulates ``G_ab`` once per ``gamma`` and then evaluates it at any ``x`` in O(1); the per-run
work is then linear in the number of segments (:class:`Points`, :class:`Increments` and
:class:`Weighted` make each further table O(cells occupied): see
:func:`threshold_choice.expected_loss._integrate`).

For finite ``gamma > 0`` the table is built from the marginal densities
``u_ab(x) = integral over c of c**a * x**b * v(x | c)`` (``v`` = Beta density), computed by
composite Gauss-Legendre quadrature in ``logit(c)`` and integrated cell by cell in
``w = logit(x)``; ``G_ab`` is then a cubic Hermite interpolant in ``w`` using ``u_ab`` as its
derivative. The absolute error is below 1e-10 for ``gamma <= 1000`` (checked in the tests
against adaptive quadrature). Building a table takes about a second; tables are cached in
memory and on disk: in the folder the environment variable ``THRESHOLD_CHOICE_CACHE`` names,
by default the user's cache folder (``platformdirs.user_cache_dir("threshold-choice")``,
``moments``; e.g. ``~/.cache/threshold-choice/moments``), nowhere when it is set empty
(verified on read: a damaged or altered file is rebuilt; a folder that cannot be written is
skipped with a warning).

Beyond the paper: a density ``w`` on the true costs
(:class:`~threshold_choice.cost_distributions.CostDistribution`) replaces the uniform
measure: ``G_ab(x) = integral c**a E[c_hat**b 1{c_hat <= x} | c] w(c) dc``, built in the same
way with ``w`` in the quadrature over ``c`` (panels cut at the ends of a bounded support).
Where ``w`` jumps (``uniform:LO,HI``, ``logit-uniform:LO,HI``) the densities ``u_ab`` change
over ``sigma = 1 / sqrt(gamma c (1 - c))`` in ``logit(x)`` around the jump; the table then
has cells of ``sigma / 40`` over ``+-15 sigma`` there (searched by bisection instead of
indexed), so the interpolation error stays below 1e-10 for every ``gamma``; likewise over the
bulk of a peaked Beta (cells of 1/110 of the spread of ``logit(c)``). The grid measures weight
grid point ``c_i`` by the probability of its cell under ``w``.

Large ``gamma``: with ``gamma`` above 1000 the global quadrature over ``c`` would need
``O(sqrt(gamma))`` nodes (``gamma = 1e6`` took minutes, ``1e15`` exhausted memory). Above 1000
each ``u_ab(x)`` is integrated over the window of ``c`` where the kernel lives, in
``theta = arcsin(sqrt(c))``, with the kernel evaluated stably (:mod:`threshold_choice.beta_kernel`),
so a table costs the same whatever ``gamma`` (about 1.3 s of CPU; tested to 1e-10 against
adaptive quadrature at ``gamma = 1e5``).
From ``gamma >= certainty_limit(w)`` on the ``gamma = inf`` table is used
(:func:`~threshold_choice.uncertainty.certainty_limit`).

The uncertainty-aware methods' posterior mean ``m(x) = E[c | c_hat = x]`` (continuous
measures) is tabulated as its correction ``d(x) = m(x) - x``, the density of ``c - x`` over
``u00`` (above 1000 integrated from ``c - x`` as the kernel has it, without cancellation), at
each cell's ends and quadrature nodes, and interpolated through those eight points (degree 7
in ``w``); ``m = x + d``. ``d`` shrinks with the kernel's spread (for the uniform,
exponentially in the bulk), so ``m`` is accurate relative to the spread at every ``gamma``:
within 1e-13 of 30-digit references up to ``gamma = 1000``; beyond, within 1e-12 of the
spread (3e-10 where ``gamma x << 1``, the quadrature's limit there) besides the rounding of
``m`` to a double, and ``x`` itself where ``d`` is below half an ulp of it (tested at
``gamma`` = 100, 1e4, 1e12, 1e20). The aware methods then tend to the plain ones as
``gamma`` grows under every estimator (a cubic Hermite interpolant of ``m`` itself was off
by its error on ``expit``, 1.5e-12 at 0.25 whatever ``gamma``: the aware methods' breaks
moved by more than the kernel's width from ``gamma`` ~ 1e18 on).
"""

from __future__ import annotations

import hashlib
import math
import os
import warnings
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.special import betaln, digamma, expit, log_expit, polygamma

from threshold_choice import beta_kernel
from threshold_choice._typing import FloatArray
from threshold_choice.atomic import atomic_output
from threshold_choice.cost_distributions import UNIFORM, CostDistribution
from threshold_choice.uncertainty import Uncertainty, check_grid_size

#: above this gamma the tables integrate over c in windows around the kernel (see above)
GAMMA_WINDOWED = 1000.0

_W = 30.0  # table covers x in [expit(-30), expit(30)]; the rest carries < 1e-12 of mass
_H = 0.01  # cell width in w = logit(x)
_GL_CELL = 6  # Gauss-Legendre nodes per cell in w
_CHUNK = 1 << 16  # points of a moment table evaluated at once (temporaries: 16 x 8 bytes each)
_SPOT_CHECKS = 64  # cells of a cached moment table checked against a direct computation
#: a Newton step of the inverse (in w) below which the next would be below the rounding
_SETTLED_STEP = 1e-7
_INVERSE_STEPS = 60  # at most, of the posterior mean's inverse (Newton: 3 or 4; bisection: 60)
_GL_PANEL = 8  # Gauss-Legendre nodes per panel in logit(c)
_X_LOW, _X_HIGH = float(expit(-_W)), float(expit(_W))  # the table's range in x
_TABLE_VERSION = 4  # bump when the table construction changes (invalidates disk caches)
# (4: a continuous measure's table also holds the posterior mean's correction E[c | x] - x, at
# its edges as a fifth row of densities, that of c - x, and at its cells' nodes as "inner")
# Refined zones (see _features), where the regular cells are too wide: +-15 widths in cells of
# 1/40 around a jump of w (an erf step, Hermite error ~ (h/width)**4 width / 384), +-10 widths
# in cells of 1/110 over the bulk of a peaked Beta (a Gaussian bump: error ~ 1.4e-3
# (h/width)**4 < 1e-11; beta:2,2, width 1.14, needs none)
_JUMP_ZONE = (15.0, 40.0)
_BULK_ZONE = (10.0, 110.0)



@dataclass(frozen=True)
class CMeasure:
    """The measure over true costs ``c``: the density ``distribution`` (``grid_size=None``)
    or the grid ``c = i/grid_size, i = 1..grid_size`` (the paper's estimator), point ``i``
    weighted by the probability of ``((i-1)/N, i/N]`` under ``distribution`` (``1/N`` for the
    paper's uniform)."""

    grid_size: int | None = None
    distribution: CostDistribution = UNIFORM

    def __post_init__(self) -> None:
        if self.grid_size is not None:
            check_grid_size(self.grid_size)

    @cached_property
    def grid(self) -> FloatArray | None:
        if self.grid_size is None:
            return None
        return np.arange(1, self.grid_size + 1, dtype=np.float64) / self.grid_size

    @cached_property
    def weights(self) -> FloatArray | None:
        """The grid points' weights (``None`` for the continuous measure)."""
        if self.grid_size is None:
            return None
        if self.distribution.is_standard_uniform:
            return np.full(self.grid_size, 1.0 / self.grid_size)
        return self.distribution.cell_masses(self.grid_size)

    @cached_property
    def moments(self) -> FloatArray:
        """``E[c**k]``, ``k = 0..3``, under the measure."""
        grid = self.grid
        if grid is None:
            if self.distribution.is_standard_uniform:
                return np.array([1.0, 1 / 2, 1 / 3, 1 / 4])
            return self.distribution.moments
        if self.distribution.is_standard_uniform:
            return np.array([np.mean(grid**k) for k in range(4)])
        weights = self.weights
        assert weights is not None
        return np.array([weights @ grid**k for k in range(4)])


@dataclass(frozen=True)
class _Grid:
    """The cells of a table in ``w = logit(x)``: the regular grid of width ``_H`` on
    ``[-_W, _W]`` (indexed directly), or that grid refined around the jumps of ``w``
    (searched by bisection)."""

    edges: FloatArray
    regular: bool
    #: ``(lo, hi)`` in ``w`` of each refined zone
    zones: tuple[tuple[float, float], ...] = ()

    @cached_property
    def widths(self) -> FloatArray:
        return np.diff(self.edges)


_REGULAR_EDGES = np.arange(-_W, _W + _H / 2, _H)


def _features(gamma: float, measure: CMeasure) -> list[tuple[float, float, tuple[float, float]]]:
    """``(centre, width, zone)`` in ``w = logit(x)`` of the places where ``G`` may change
    faster than the regular cells resolve: each jump of ``w``, smoothed by the kernel (width
    ``1 / sqrt(gamma c (1 - c))``), and the bulk of a peaked Beta (``logit(c)`` has mean
    ``psi(A) - psi(B)`` and standard deviation ``sqrt(psi'(A) + psi'(B))``); ``zone`` is
    (half-width, cells per width) of the refinement."""
    if measure.grid is not None or gamma == 0:
        return []
    dist = measure.distribution
    out = []
    if not math.isinf(gamma):
        for c in dist.jumps:
            width = 1.0 / math.sqrt(gamma * c * (1.0 - c))
            out.append((math.log(c) - math.log1p(-c), width, _JUMP_ZONE))
    if dist.kind == "beta":
        spread = math.sqrt(float(polygamma(1, dist.p) + polygamma(1, dist.q)))
        out.append((float(digamma(dist.p) - digamma(dist.q)), spread, _BULK_ZONE))
    return out


def _table_grid(gamma: float, measure: CMeasure) -> _Grid:
    """The regular grid, refined around each of :func:`_features` too narrow for it."""
    zones = [
        (centre - half * width, centre + half * width, math.ceil(2 * half * per_width))
        for centre, width, (half, per_width) in _features(gamma, measure)
        if width / per_width < _H
    ]
    if not zones:
        return _Grid(_REGULAR_EDGES, True)
    keep = np.ones(_REGULAR_EDGES.size, dtype=bool)
    parts = []
    for lo, hi, cells in zones:
        keep &= (_REGULAR_EDGES < lo) | (_REGULAR_EDGES > hi)
        inner = np.linspace(lo, hi, cells + 1)
        parts.append(inner[(inner > -_W) & (inner < _W)])
    edges = np.unique(np.concatenate([_REGULAR_EDGES[keep], *parts]))
    return _Grid(edges, False, tuple((lo, hi) for lo, hi, _ in zones))


def _hermite_coefficients(
    values: FloatArray, slopes: FloatArray, widths: FloatArray | float = _H
) -> FloatArray:
    """Per-cell cubic coefficients ``(rows, 4, cells)`` (constant term first, in the local
    variable ``t`` in [0, 1]) of the Hermite interpolant of ``values`` with derivatives
    ``slopes`` (per unit ``w``) on cells of width ``widths``. Rows first, so
    that the first rows are a contiguous block (fast to gather from)."""
    y0, y1 = values[:, :-1], values[:, 1:]
    d0, d1 = slopes[:, :-1] * widths, slopes[:, 1:] * widths
    return np.stack([y0, d0, 3 * (y1 - y0) - 2 * d0 - d1, 2 * (y0 - y1) + d0 + d1], axis=1)


_Cells = tuple[NDArray[np.intp], FloatArray, Any]  # cell, position in it, its width


def _cells(w: FloatArray, grid: _Grid | None) -> _Cells:
    """Each ``w`` (clipped to ``[-_W, _W]``) placed in the grid: its cell ``k``, its position
    ``t`` in [0, 1] within it and the cell's width."""
    if grid is None or grid.regular:
        # (in place: the same operations as (clip(w) + W) / H - k, one array instead of four)
        pos = np.clip(w, -_W, _W)
        pos += _W
        pos /= _H
        k = pos.astype(np.intp)
        np.minimum(k, _REGULAR_EDGES.size - 2, out=k)
        pos -= k
        return k, pos, _H
    wc = np.clip(w, -_W, _W)
    k = np.clip(np.searchsorted(grid.edges, wc, side="right") - 1, 0, grid.widths.size - 1)
    scale = grid.widths[k]
    return k, (wc - grid.edges[k]) / scale, scale


def _horner(coefficients: FloatArray, k: NDArray[np.intp], t: FloatArray) -> FloatArray:
    """The cubics of cells ``k`` at local positions ``t``."""
    return _cubic(np.take(coefficients, k, axis=2).transpose(1, 0, 2), t)


def _cubic(c: FloatArray, t: FloatArray) -> FloatArray:
    out = c[3] * t
    out += c[2]
    out *= t
    out += c[1]
    out *= t
    out += c[0]
    return out


class Points:
    """Points of ``[0, 1]`` at which several moment tables are read (:meth:`MomentTable.read`):
    each point's cell in a table's grid is found once and kept, so tables on the same grid
    (the paper's at every ``gamma``: the regular grid) share that work. Give the points as
    ``x`` or, for quadrature nodes placed in ``w = logit(x)`` within ``[-30, 30]``, as
    ``Points.from_logit(w)`` (no round trip through ``x``)."""

    def __init__(self, x: ArrayLike) -> None:
        self.x = np.clip(np.asarray(x, dtype=np.float64), 0.0, 1.0)
        # (few points, typically 0 and 1, lie outside the table: they are set apart)
        self.low = np.flatnonzero(self.x < _X_LOW)
        self.high = np.flatnonzero(self.x > _X_HIGH)
        self._w: FloatArray | None = None
        self._placed: list[tuple[_Grid, _Cells]] = []

    @cached_property
    def inside(self) -> NDArray[np.bool_]:
        """Whether each point lies within the table's range (not in ``low`` or ``high``)."""
        out = np.ones(self.x.size, dtype=bool)
        out[self.low] = False
        out[self.high] = False
        return out

    @classmethod
    def from_logit(cls, w: FloatArray, x: FloatArray | None = None) -> Points:
        """The points ``expit(w)`` (``x``, when the caller has computed it)."""
        points = cls(expit(w) if x is None else x)
        points._w = w
        return points

    def cells(self, grid: _Grid) -> _Cells:
        """``(k, t, width)`` of :func:`_cells` for ``grid``, computed once per grid."""
        return _per_grid(self._placed, grid, self._cells)

    def _cells(self, grid: _Grid) -> _Cells:
        if self._w is None:
            x = self.x
            inside = np.clip(x, _X_LOW, _X_HIGH) if self.low.size or self.high.size else x
            self._w = np.log(inside) - np.log1p(-inside)
        return _cells(self._w, grid)


_T = TypeVar("_T")


def _per_grid(kept: list[tuple[_Grid, _T]], grid: _Grid, compute: Callable[[_Grid], _T]) -> _T:
    """``compute(grid)``, kept in ``kept`` and reused for the same grid (the regular grids of
    all tables count as one)."""
    for other, value in kept:
        if other is grid or (other.regular and grid.regular):
            return value
    value = compute(grid)
    kept.append((grid, value))
    return value


def _dots(a: FloatArray, b: FloatArray) -> float:
    """``sum(a * b)`` row by row (BLAS dot products: blocked sums, accurate for long rows)."""
    return float(sum(float(x @ y) for x, y in zip(a, b, strict=True)))


def _cell_sums(
    k: NDArray[np.intp], terms: FloatArray
) -> tuple[NDArray[np.intp], FloatArray]:
    """``terms`` (rows, powers, len(k)) summed over each run of equal cells ``k``, and the
    cell of each run (points in order: one run per cell; out of order, a cell may recur)."""
    if not k.size:
        return k, terms
    starts = np.concatenate(([0], np.flatnonzero(k[1:] != k[:-1]) + 1))
    return k[starts], np.add.reduceat(terms, starts, axis=2)


class Weighted:
    """A weighted sum ``sum_r sum_i weights[r, i] G_r(x_i)`` of the rows ``G_r`` of moment
    tables at :class:`Points`, for :meth:`MomentTable.integrate`. On an interpolated table
    ``G_r`` is a cubic in each cell, ``sum_j C[r, j, k] t**j``, so the sum is ``sum over cells
    k of sum_j C[r, j, k] P[r, j, k]`` with the power sums ``P[r, j, k] = sum over the points
    in cell k of weights[r, i] t_i**j``: computed once per grid (they do not depend on the
    table), they leave each table O(occupied cells) of work instead of O(points). For
    weights of one sign or small ones (quadrature weights); sums of increments with
    oscillating weights are :class:`Increments`."""

    def __init__(self, points: Points, weights: FloatArray) -> None:
        self.points = points
        self.weights = weights  # (rows, len(points.x))
        self._sums: list[tuple[_Grid, tuple[NDArray[np.intp], FloatArray] | None]] = []

    def power_sums(self, grid: _Grid) -> tuple[NDArray[np.intp], FloatArray] | None:
        """The occupied cells of ``grid`` and ``P`` (rows, 4, cells), without the points
        outside the table (``points.low``, ``points.high``); ``None`` when there are about as
        many cells as points (then the table is read at the points)."""
        return _per_grid(self._sums, grid, self._power_sums)

    def _power_sums(self, grid: _Grid) -> tuple[NDArray[np.intp], FloatArray] | None:
        k, t, _ = self.points.cells(grid)
        if 2 * (np.count_nonzero(k[1:] != k[:-1]) + 1) > k.size:
            return None  # about one point per cell: a direct read is cheaper
        weights = self.weights
        if not self.points.inside.all():
            keep = self.points.inside
            k, t, weights = k[keep], t[keep], weights[:, keep]
        terms = np.empty((weights.shape[0], 4, k.size))
        terms[:, 0] = weights
        for j in range(1, 4):
            np.multiply(terms[:, j - 1], t, out=terms[:, j])
        return _cell_sums(k, terms)


#: what :meth:`Increments.power_sums` keeps per grid: occupied cells, power sums, the weights
#: and the ends (cross first, then cross + 1) of the segments read at both ends
_IncrementSums = tuple[NDArray[np.intp], FloatArray, FloatArray, "Points | None"]


class Increments:
    """A sum of increments ``sum_r sum_s weights[r, s] (G_r(x_{s+1}) - G_r(x_s))`` over the
    consecutive :class:`Points` ``x_0 <= ... <= x_S`` (segments), for
    :meth:`MomentTable.integrate`. A segment within one cell of a table's grid contributes
    ``sum_(j >= 1) C[r, j, k] (t_{s+1}**j - t_s**j)``: per cell, the power differences summed
    with the weights once per grid, each table then O(occupied cells); the few segments that
    cross a cell boundary (or leave the table) are evaluated at both ends. Each term stays an
    increment (``t_{s+1}**j - t_s**j`` as ``dt`` times a sum), so oscillating weights lose
    no more accuracy than the direct sum of ``weights . dG``."""

    def __init__(self, points: Points, weights: FloatArray) -> None:
        self.points = points
        self.weights = weights  # (rows, len(points.x) - 1)
        self._sums: list[tuple[_Grid, _IncrementSums | None]] = []

    def power_sums(self, grid: _Grid) -> _IncrementSums | None:
        """The occupied cells, the sums (rows, 3, cells) of the powers 1..3, and the weights
        and the two ends (as :class:`Points`: placed in the grid once for all its tables) of
        the segments evaluated at both ends; ``None`` when most segments span cells (then the
        table is read at the edges)."""
        return _per_grid(self._sums, grid, self._power_sums)

    def _power_sums(self, grid: _Grid) -> _IncrementSums | None:
        k, t, _ = self.points.cells(grid)
        inside = self.points.inside
        within = (k[:-1] == k[1:]) & inside[:-1] & inside[1:]
        if 2 * np.count_nonzero(within) < within.size:
            return None  # most segments span cells: a direct read at the edges is cheaper
        cross = np.flatnonzero(~within)
        t0, t1 = t[:-1][within], t[1:][within]
        dt = t1 - t0
        terms = np.empty((self.weights.shape[0], 3, dt.size))
        for r, row in enumerate(self.weights):
            # row by row: a 2-d boolean index of the weights (often a strided view of the
            # coefficients) is about 6 times slower than one per row
            np.multiply(row[within], dt, out=terms[r, 0])
        # terms[:, 0] times t1 + t0 and t1 t1 + t1 t0 + t0 t0, with two temporaries
        pair = t1 + t0
        np.multiply(terms[:, 0], pair, out=terms[:, 1])
        square = t1 * t1
        square += np.multiply(t1, t0, out=pair)
        square += np.multiply(t0, t0, out=pair)
        np.multiply(terms[:, 0], square, out=terms[:, 2])
        occupied, summed = _cell_sums(k[:-1][within], terms)
        ends = Points(self.points.x[np.concatenate([cross, cross + 1])]) if cross.size else None
        return occupied, summed, self.weights[:, cross], ends


def _gauss_legendre(lo: FloatArray, hi: FloatArray, n: int) -> tuple[FloatArray, FloatArray]:
    """Nodes and weights of ``n``-point Gauss-Legendre on each interval ``[lo_k, hi_k]``."""
    t, w = np.polynomial.legendre.leggauss(n)
    half = (hi - lo)[:, None] / 2.0
    nodes = (lo + hi)[:, None] / 2.0 + half * t[None, :]
    return nodes.ravel(), (half * w[None, :]).ravel()


def _c_nodes(gamma: float, measure: CMeasure) -> tuple[FloatArray, FloatArray]:
    """Quadrature nodes and weights (``w(c) dc`` included) over true costs for ``measure``."""
    if measure.grid is not None:
        weights = measure.weights
        assert weights is not None
        return measure.grid, weights
    dist = measure.distribution
    # Composite Gauss-Legendre in t = logit(c): the density in c is concentrated within
    # ~ 1/sqrt(gamma * c * (1 - c)) of c_hat in t, so panels shrink like 1/sqrt(gamma).
    width = min(0.5, 1.5 / math.sqrt(gamma))
    if dist.is_standard_uniform:
        n_panels = math.ceil(2 * _W / width)
        edges = np.linspace(-_W, _W, n_panels + 1)
        t, wt = _gauss_legendre(edges[:-1], edges[1:], _GL_PANEL)
        c = expit(t)
        return c, wt * c * (1.0 - c)
    if dist.kind == "beta":  # w itself varies over its spread in t (see _features)
        width = min(width, 1.5 * math.sqrt(float(polygamma(1, dist.p) + polygamma(1, dist.q))))
    with np.errstate(divide="ignore"):
        lo, hi = (float(np.clip(np.log(x) - np.log1p(-x), -_W, _W)) for x in dist.support)
    n_panels = math.ceil((hi - lo) / width)
    edges = np.linspace(lo, hi, n_panels + 1)
    t, wt = _gauss_legendre(edges[:-1], edges[1:], _GL_PANEL)
    return expit(t), wt * np.exp(dist.log_weight_logit(t))


def _global_densities(
    gamma: float, x_w: FloatArray, c: FloatArray, wc: FloatArray, rows: int = 4
) -> FloatArray:
    """``u_ab(x)`` at ``x = expit(x_w)``, shape ``(4, len(x_w))``, times ``dx/dw``, from the
    quadrature ``(c, wc)`` over all true costs (``gamma <= GAMMA_WINDOWED``); with
    ``rows=5`` also the density of ``c - x``, ``u10 - x u00`` (see :meth:`MomentTable._build`:
    here the posterior's spread is at least ~3e-5, so its absolute error of ~1e-16 is small
    beside it)."""
    a, b = Uncertainty(gamma).alpha_beta(c)
    log_norm = betaln(a, b)
    out = np.empty((rows, x_w.size))
    chunk = max(1, 4_000_000 // max(1, c.size))
    for lo in range(0, x_w.size, chunk):
        w = x_w[lo : lo + chunk]
        log_x = log_expit(w)
        log_1mx = log_expit(-w)
        # Beta density in x times dx/dw = x (1 - x), computed in one buffer (the same
        # operations in the same order as with temporaries: the same bits, 0.6x the time)
        pdf = np.multiply.outer(log_x, gamma * c)
        pdf += np.multiply.outer(log_1mx, gamma * (1 - c))
        pdf -= log_norm[None, :]
        pdf += (log_x + log_1mx)[:, None]
        np.exp(pdf, out=pdf)
        u0 = pdf @ wc
        u1 = pdf @ (wc * c)
        x = np.exp(log_x)
        out[:4, lo : lo + chunk] = np.stack([u0, u1, u0 * x, u1 * x])
        if rows > 4:
            out[4, lo : lo + chunk] = u1 - x * u0
    return out


def _window_rule() -> tuple[FloatArray, FloatArray]:
    """Composite Gauss-Legendre on [0, 1]: ``PANELS`` panels of ``NODES`` nodes."""
    counts = np.array([beta_kernel.PANELS])
    _, nodes, weights = beta_kernel.panel_rule(np.zeros(1), np.ones(1), counts)
    return nodes, weights


def _windowed_densities(
    gamma: float, x_w: FloatArray, dist: CostDistribution, chunk: int = 1000, rows: int = 4
) -> FloatArray:
    """As :func:`_global_densities`, integrating over ``c`` only within the kernel's window
    in ``theta = arcsin(sqrt(c))`` (any ``gamma > 0``; see :mod:`threshold_choice.beta_kernel`).
    The fifth row (``rows=5``), the density of ``c - x``, integrates ``delta = c - x`` as the
    kernel has it (from the node's offset, never a difference of two nearby numbers): its
    relative error is that of the quadrature, not ``1e-16 / spread`` (the posterior mean's
    offset from ``x`` at the accuracy of the kernel's spread, however large ``gamma``)."""
    tau, omega = _window_rule()
    reach = beta_kernel.window(gamma)
    theta_lo, theta_hi = beta_kernel.theta_of(np.array(dist.support))
    out = np.empty((rows, x_w.size))
    for lo in range(0, x_w.size, chunk):
        w = x_w[lo : lo + chunk]
        x, x1 = expit(w), expit(-w)
        theta_x = beta_kernel.theta_of_logit(w)
        start = np.maximum(theta_lo - theta_x, -reach)
        span = np.maximum(np.minimum(theta_hi - theta_x, reach) - start, 0.0)
        offset = start[:, None] + span[:, None] * tau[None, :]  # theta_c - theta_x
        theta_c = theta_x[:, None] + offset
        c, c1 = np.sin(theta_c) ** 2, np.cos(theta_c) ** 2
        delta = np.sin(theta_x[:, None] + theta_c) * np.sin(offset)
        with np.errstate(divide="ignore", invalid="ignore"):
            log_k = beta_kernel.log_density(gamma, x[:, None], x1[:, None], c, c1, delta)
            log_k += dist.log_pdf(c, c1) + np.log(np.sin(2.0 * theta_c))
        kernel = np.where(span[:, None] > 0, np.exp(log_k), 0.0) * (span[:, None] * omega)
        u0 = kernel.sum(axis=1) * (x * x1)
        u1 = (kernel * c).sum(axis=1) * (x * x1)
        out[:4, lo : lo + chunk] = np.stack([u0, u1, u0 * x, u1 * x])
        if rows > 4:
            out[4, lo : lo + chunk] = (kernel * delta).sum(axis=1) * (x * x1)
    return out


class MomentTable:
    """``G_ab(x)`` (see the module docstring) for one ``gamma`` and one measure over ``c``.

    ``table(x)`` returns an array of shape ``(4, len(x))`` with rows ``G00, G10, G01, G11``
    (first index: power of ``c``; second: power of ``c_hat``). Build through
    :func:`moment_table`, which caches one table per ``(gamma, grid_size, distribution)``.
    """

    def __init__(self, gamma: float, measure: CMeasure = CMeasure()) -> None:
        self.uncertainty = Uncertainty(gamma)
        self.gamma = gamma
        self.measure = measure
        self.distribution = measure.distribution
        # moments of c under the measure: E[c^k], k = 0..3
        self._c_moments = measure.moments
        self._grid = _table_grid(gamma, measure)
        if not (self.uncertainty.is_exact or self.uncertainty.is_uninformed):
            if measure.grid is not None and gamma > GAMMA_WINDOWED:
                raise ValueError("grid measures are tabulated up to GAMMA_WINDOWED only")
            self._build()

    # -- totals --------------------------------------------------------------------------
    @cached_property
    def total(self) -> FloatArray:
        """``G_ab(1)``: the integrals over the whole range of ``c_hat``."""
        m = self._c_moments
        g = self.gamma
        if self.uncertainty.is_exact:
            return np.array([m[0], m[1], m[1], m[2]])
        # E[c_hat | c] = (gamma*c + 1) / (gamma + 2)
        return np.array([m[0], m[1], (g * m[1] + m[0]) / (g + 2), (g * m[2] + m[1]) / (g + 2)])

    @cached_property
    def cuts(self) -> FloatArray:
        """The table's edges (in ``w = logit(x)``) inside its refined zones, where ``G``
        changes fast: quadratures over ``c_hat`` split their panels there."""
        edges = self._grid.edges
        inside = np.zeros(edges.size, dtype=bool)
        for lo, hi in self._grid.zones:
            inside |= (edges >= lo) & (edges <= hi)
        # and the jumps of w themselves (at gamma = inf, G = the CDF of w has kinks there)
        jumps = [math.log(c) - math.log1p(-c) for c in self.distribution.jumps]
        if self.uncertainty.is_uninformed or self.measure.grid is not None:
            jumps = []
        return np.unique(np.concatenate([edges[inside], jumps]))

    # -- construction ------------------------------------------------------------------
    @property
    def _construction(self) -> str:
        if self.gamma > GAMMA_WINDOWED:
            return "windowed"
        if self.measure.grid is None and self.distribution.is_standard_uniform:
            return "paper"
        return "global"

    def _densities(self, x_w: FloatArray, rows: int = 4) -> FloatArray:
        if self._construction == "windowed":
            return _windowed_densities(self.gamma, x_w, self.distribution, rows=rows)
        c, wc = self._c_nodes
        return _global_densities(self.gamma, x_w, c, wc, rows)

    @property
    def _slope_rows(self) -> int:
        """Rows of the densities kept at the edges: ``u_ab`` and, for a continuous measure
        (the posterior mean's), the density of ``c - x``."""
        return 5 if self.measure.grid is None else 4

    @cached_property
    def _c_nodes(self) -> tuple[FloatArray, FloatArray]:
        return _c_nodes(self.gamma, self.measure)

    def _agrees(
        self, edges: FloatArray, cells: FloatArray, slopes: FloatArray,
        inner: FloatArray | None,
    ) -> bool:
        """Whether a cached table agrees with a direct computation at :data:`_SPOT_CHECKS`
        cells and edges drawn at random for each load (unpredictably: a table written by
        other code than this, or altered, is caught unless it agrees wherever it could be
        checked; its digest only proves it intact)."""
        import secrets

        rng = np.random.default_rng(secrets.randbits(64))
        k = np.unique(rng.integers(0, edges.size - 1, _SPOT_CHECKS))
        nodes, wts = _gauss_legendre(edges[k], edges[k + 1], _GL_CELL)
        at_nodes = self._densities(nodes, slopes.shape[0])
        direct = (at_nodes[:4] * wts).reshape(4, k.size, _GL_CELL).sum(axis=2)
        at_edges = self._densities(edges[k], slopes.shape[0])
        if not (np.allclose(cells[:, k], direct, rtol=1e-9, atol=1e-15)
                and np.allclose(slopes[:4, k], at_edges[:4], rtol=1e-9, atol=1e-15)):
            return False
        if inner is None:
            return True
        return (self._corrections_agree(edges[k], _correction_ratio(slopes[:, k]),
                                        _correction_ratio(at_edges))
                and self._corrections_agree(nodes, inner[k].ravel(),
                                            _correction_ratio(at_nodes)))

    def _corrections_agree(self, w: FloatArray, stored: FloatArray, direct: FloatArray) -> bool:
        """Whether posterior-mean corrections agree within 1e-9 of their size plus 1e-12 of
        the posterior's spread (the correction is ~1e-16 of the spread where ``c - x``
        averages to 0: an absolute 1e-15 would let the breaks of the aware methods move by
        more than the kernel's width at large gamma); undefined (``nan``) at the same
        places."""
        x = expit(w)
        spread = np.sqrt(x * (1.0 - x) / (self.gamma + 2.0)) + 1.0 / (self.gamma + 2.0)
        same = np.isnan(stored) == np.isnan(direct)
        with np.errstate(invalid="ignore"):
            close = np.abs(stored - direct) <= 1e-9 * np.abs(direct) + 1e-12 * spread
        return bool(np.all(same) and np.all(close | np.isnan(direct)))

    def _cache_file(self) -> Path | None:
        root = os.environ.get("THRESHOLD_CHOICE_CACHE")
        if root is None:  # the default: the user's cache folder
            import platformdirs

            root = str(Path(platformdirs.user_cache_dir("threshold-choice")) / "moments")
        if not root:  # set empty: no disk cache (not the current folder)
            return None
        dist = self.distribution.spec.replace(":", "-").replace(",", "_")
        key = (
            f"v{_TABLE_VERSION}_{self._construction}_g{self.gamma!r}_n{self.measure.grid_size}"
            f"_{dist}_h{_H}_W{_W}"
        )
        return Path(root) / f"moments_{key}.npz"

    def _build(self) -> None:
        edges = self._grid.edges
        cache = self._cache_file()
        rows = self._slope_rows
        stored = _load_verified(cache, edges, rows) if cache is not None else None
        if stored is not None and not self._agrees(edges, *stored):
            warnings.warn(
                f"moment-table cache {cache} holds values the code does not compute (an "
                "altered file): rebuilding it", RuntimeWarning, stacklevel=2)
            stored = None
        if stored is not None:
            cells, slopes, inner = stored
        else:
            from threadpoolctl import threadpool_limits

            # one BLAS thread: a matrix product's sums are grouped by thread, so the table's
            # last bits would depend on the machine's cores (a workflow job has one thread)
            with threadpool_limits(limits=1, user_api="blas"):
                nodes, wts = _gauss_legendre(edges[:-1], edges[1:], _GL_CELL)
                at_nodes = self._densities(nodes, rows)
                cells = (at_nodes[:4] * wts).reshape(4, edges.size - 1, _GL_CELL).sum(axis=2)
                slopes = self._densities(edges, rows)
            # the posterior mean's correction at each cell's nodes (continuous measures)
            inner = (None if rows == 4 else
                     _correction_ratio(at_nodes).reshape(edges.size - 1, _GL_CELL))
            if cache is not None:
                _save_verified(cache, edges, cells, slopes, inner)
        # the cache holds each cell's integral, not their running sums: every stored number
        # is one a spot check can recompute on its own
        values = np.concatenate([np.zeros((4, 1)), np.cumsum(cells, axis=1)], 1)
        widths = _H if self._grid.regular else self._grid.widths
        self._edges = edges
        self._edge_values = values
        self._coefficients = _hermite_coefficients(values, slopes[:4], widths)
        if inner is not None:
            self._build_posterior_mean(edges, _correction_ratio(slopes), inner)

    def _build_posterior_mean(self, edges: FloatArray, at_edges: FloatArray,
                              inner: FloatArray) -> None:
        """The posterior mean ``m(x) = E[c | c_hat = x]`` under the prior ``w``, tabulated as
        its correction ``d(x) = m(x) - x`` (the density of ``c - x`` over ``u00``) at each
        cell's ends and its :data:`_GL_CELL` quadrature nodes, where the table's densities
        are computed anyway, and interpolated in each cell by the polynomial through those
        eight values (degree 7, in ``w``; held as Chebyshev coefficients).

        Why ``d`` and not ``m``: ``m`` itself (~ ``x`` at large gamma) carried the
        interpolant's error on ``expit`` (the former cubic Hermite on cells of 0.01 in
        ``w``: 1.5e-12 at 0.25, 4e-12 at 0.31) at every gamma, while ``d`` vanishes with
        the kernel's spread (for the uniform, exponentially in the bulk: 2e-14 at
        ``gamma = 100`` and ``x = 0.25``, 0 to 30 digits at 1e4): ``m = x + d`` is ``x``
        itself where ``d`` is below half an ulp of it. Why degree 7: ``d`` is about as
        curved as ``expit`` at small gamma (``m`` is flat there), and the cubic's 4e-12
        would then have moved to ``d``; through eight points the interpolation error is
        below the quadrature's (~1e-14)."""
        x_edges = expit(edges)
        defined = np.isfinite(at_edges).all() and np.isfinite(inner).all()
        if not (self.distribution.is_standard_uniform and defined):
            # made total and non-decreasing along the cells' points, in order
            nodes, _ = _gauss_legendre(edges[:-1], edges[1:], _GL_CELL)
            w = np.concatenate([np.column_stack([edges[:-1], nodes.reshape(inner.shape)])
                                .ravel(), edges[-1:]])
            d = np.concatenate([np.column_stack([at_edges[:-1], inner]).ravel(),
                                at_edges[-1:]])
            d = _posterior_correction(d, expit(w), self.distribution)
            at_edges = d[:: _GL_CELL + 1]
            inner = np.delete(d, np.s_[:: _GL_CELL + 1]).reshape(inner.shape)
        self._correction = at_edges
        # the posterior mean at the edges, non-decreasing (as it is, but for roundings) for
        # the inverse's search
        self._mean_values = np.maximum.accumulate(x_edges + at_edges)
        self._widths = np.diff(edges)
        points = np.column_stack([at_edges[:-1], inner, at_edges[1:]])  # (cells, 8)
        self._correction_coefficients = _TO_CHEBYSHEV @ points.T  # (8, cells)
        # and of its derivative in s (the position in [-1, 1] within a cell)
        self._correction_slopes = np.polynomial.chebyshev.chebder(
            self._correction_coefficients, axis=0)
        # dm/dw at each cell's two ends (x (1 - x) plus dd/dw; T_j(-1) = (-1)^j, T_j(1) = 1),
        # for the inverse's first guess
        signs = (-1.0) ** np.arange(self._correction_slopes.shape[0])
        x_cells = x_edges[:-1], x_edges[1:]
        self._mean_slope_ends = (
            x_cells[0] * (1.0 - x_cells[0]) + signs @ self._correction_slopes * 2.0 / self._widths,
            x_cells[1] * (1.0 - x_cells[1]) + self._correction_slopes.sum(axis=0) * 2.0
            / self._widths)

    def _correction_at(
        self, w: FloatArray, derivative: bool = False
    ) -> tuple[FloatArray, FloatArray | None]:
        """The interpolated correction ``d`` at ``w = logit(x)`` (beyond the table, its value
        at the table's end) and, if asked, ``dd/dw``."""
        wc = np.clip(w, -_W, _W)
        k, _, _ = _cells(wc, self._grid)
        width = self._widths[k]
        # the position within the cell from its edges themselves: np.arange's edges of the
        # regular grid lie up to 9.4e-12 from the -30 + 0.01 k that its cells' t assumes
        # (times dd/dw ~ 0.2 at small gamma, 2e-12: the points were computed at the edges)
        s = wc - self._edges[k]
        s *= 2.0 / width
        s -= 1.0
        value = _chebval(s, np.take(self._correction_coefficients, k, axis=1))
        if not derivative:
            return value, None
        slope = _chebval(s, np.take(self._correction_slopes, k, axis=1))
        slope *= 2.0 / width
        return value, slope

    # -- evaluation --------------------------------------------------------------------
    def __call__(self, x: ArrayLike, rows: int = 4) -> FloatArray:
        """``G_ab(x)`` for every ``x`` in [0, 1] (values outside are clipped); the first
        ``rows`` rows of ``G00, G10, G01, G11``."""
        x_arr = np.asarray(x, dtype=np.float64)
        if not self.interpolated:
            return self.read(Points(x_arr), rows)
        # in chunks: the interpolant's temporaries (rows x 4 coefficients per point) stay
        # within a few MB whatever the number of points; each point's value is the same
        out = np.empty((min(rows, 4), x_arr.size))
        for lo in range(0, x_arr.size, _CHUNK):
            out[:, lo : lo + _CHUNK] = self.read(Points(x_arr[lo : lo + _CHUNK]), rows)
        return out

    @property
    def interpolated(self) -> bool:
        """Whether the table is an interpolant (``0 < gamma < inf``), not a closed form."""
        return not (self.uncertainty.is_exact or self.uncertainty.is_uninformed)

    def read(self, points: Points, rows: int = 4) -> FloatArray:
        """``self(points.x, rows)``, with the points' cells in this table's grid found once
        for all the tables read at them (see :class:`Points`)."""
        x_arr = points.x
        # (the closed forms compute the rows asked for only, into one array: each row is a
        # pass over the points)
        if self.uncertainty.is_exact:
            return self._exact_table(x_arr, rows)
        if self.uncertainty.is_uninformed:
            m = self._c_moments
            factors = (m[0], m[1], m[0], m[1])[:rows]  # times x, x, x**2/2, x**2/2
            out = np.empty((len(factors), x_arr.size))
            half_sq = x_arr**2 / 2 if rows > 2 else x_arr
            for r, factor in enumerate(factors):
                np.multiply(factor, x_arr if r < 2 else half_sq, out=out[r])
            return out
        k, t, _ = points.cells(self._grid)
        out = _horner(self._coefficients[:rows], k, t)
        # Below / above the table: linear to the exact values at 0 and 1 (mass < 1e-12).
        low, high = points.low, points.high
        if low.size:
            out[:, low] = self._edge_values[:rows, :1] * (x_arr[low] / _X_LOW)
        if high.size:
            frac = (x_arr[high] - _X_HIGH) / (1.0 - _X_HIGH)
            end = self._edge_values[:rows, -1:]
            out[:, high] = end + (self.total[:rows, None] - end) * frac
        return out

    def integrate(self, sums: Weighted | Increments) -> float:
        """The weighted sum ``sums`` (see :class:`Weighted`, :class:`Increments`) over the
        table's first rows (as many as its weights have)."""
        rows = sums.weights.shape[0]
        points = sums.points
        if isinstance(sums, Increments):
            cells = sums.power_sums(self._grid) if self.interpolated else None
            if cells is None:
                return _dots(sums.weights, np.diff(self.read(points, rows), axis=1))
            occupied, summed, cross_weights, ends = cells
            coefficients = np.take(self._coefficients[:rows, 1:], occupied, axis=2)
            total = float(np.sum(coefficients * summed))
            if ends is not None:  # segments across cells, or beyond the table: at both ends
                values = self.read(ends, rows)
                cross = cross_weights.shape[1]
                total += _dots(cross_weights, values[:, cross:] - values[:, :cross])
            return float(total)
        power = sums.power_sums(self._grid) if self.interpolated else None
        if power is None:
            return _dots(sums.weights, self.read(points, rows))
        occupied, summed = power
        total = float(np.sum(np.take(self._coefficients[:rows], occupied, axis=2) * summed))
        outside = np.flatnonzero(~points.inside)
        if outside.size:  # the few points beyond the table, from their own formulas
            values = self.read(Points(points.x[outside]), rows)
            total += _dots(sums.weights[:, outside], values)
        return total

    def at_logit(self, w: FloatArray, rows: int = 4) -> FloatArray:
        """``self(expit(w), rows)`` for ``w`` within the table's range ``[-30, 30]``,
        without the round trip through ``x`` (for quadrature nodes placed in ``w``)."""
        return self.read(Points.from_logit(w), rows)

    def _exact_table(self, x: FloatArray, rows: int = 4) -> FloatArray:
        """The first ``rows`` rows at ``gamma = inf``: ``c_hat = c``, so ``G_ab`` is the
        partial moment of order ``a + b`` of the measure (rows of orders 0, 1, 1, 2)."""
        orders = (0, 1, 1, 2)[:rows]
        top = orders[-1]  # the highest order asked for
        grid = self.measure.grid
        dist = self.distribution
        if grid is None:
            out = np.empty((len(orders), x.size))
            for r, p in enumerate(orders):
                if r and orders[r - 1] == p:  # G01 = G10
                    out[r] = out[r - 1]
                elif not dist.is_standard_uniform:
                    out[r] = dist.partial_moment(p, x)
                elif p == 0:
                    out[r] = x
                else:  # c uniform: x**(p + 1) / (p + 1)
                    np.divide(x ** (p + 1), p + 1, out=out[r])
            return out
        # sum over grid points c_i <= x of weight_i c_i^(a+b)
        k = np.searchsorted(grid, x, side="right")
        if dist.is_standard_uniform:
            cum = [np.concatenate(([0.0], np.cumsum(grid**p))) / grid.size
                   for p in range(top + 1)]
        else:
            weights = self.measure.weights
            assert weights is not None
            cum = [np.concatenate(([0.0], np.cumsum(weights * grid**p))) for p in range(top + 1)]
        return np.stack([cum[p][k] for p in orders])

    # -- posterior mean (uncertainty-aware methods) ---------------------------------------
    @property
    def _prior_mean(self) -> float:
        return float(self._c_moments[1] / self._c_moments[0])

    def posterior_mean(self, c_hat: ArrayLike) -> FloatArray:
        """``E[c | c_hat]`` under the prior ``w`` on ``c`` (needs a continuous measure):
        ``c_hat`` plus the interpolated correction ``E[c | c_hat] - c_hat``, which is
        accurate relative to the posterior's spread at any ``gamma`` (``c_hat`` itself where
        the correction is below half an ulp of it). Beyond the table (``c_hat`` within
        ``expit(-30)`` of 0 or 1) the correction at its end."""
        x = np.clip(np.asarray(c_hat, dtype=np.float64), 0.0, 1.0)
        if self.uncertainty.is_exact:
            return x.copy()
        if self.uncertainty.is_uninformed:
            return np.full_like(x, self._prior_mean)
        with np.errstate(divide="ignore"):
            w = np.log(x) - np.log1p(-x)
        out = self._correction_at(w)[0]
        out += x
        return np.clip(out, *self.distribution.support, out=out)

    def posterior_mean_inverse(self, m: ArrayLike, *, closed: str) -> FloatArray:
        """The ``c_hat`` whose posterior mean is ``m`` (clipped to [0, 1]).

        ``E[c | c_hat]`` increases strictly with ``c_hat`` for ``gamma > 0`` (the Beta family
        has a monotone likelihood ratio), so a break point ``m`` of a method in posterior-mean
        space is the break point ``posterior_mean_inverse(m)`` in ``c_hat`` space. For
        ``gamma = 0`` the posterior mean is the prior mean ``E[c]`` (1/2 for the uniform)
        whatever ``c_hat``: breaks below it map to 0 and above to 1; a break exactly at it
        follows ``closed`` (``'right'``: segments ``(x_s, x_s+1]``; ``'left'``:
        ``[x_s, x_s+1)``) so the segment containing it wins. Otherwise it inverts
        :meth:`posterior_mean` (``c_hat`` plus the interpolated correction) to its last bits:
        ``m`` itself where the correction is below half an ulp (the bulk at large gamma), so
        that the aware methods' breaks are then the plain ones.
        """
        m_arr = np.asarray(m, dtype=np.float64)
        if self.uncertainty.is_exact:
            return np.clip(m_arr, 0.0, 1.0)
        if self.uncertainty.is_uninformed:
            mean = self._prior_mean
            to_one = m_arr >= mean if closed == "right" else m_arr > mean
            return np.where(to_one, 1.0, 0.0)
        # point by point, in chunks: the Newton steps' temporaries stay a few MB
        out = np.empty(m_arr.shape)
        flat, out_flat = m_arr.reshape(-1), out.reshape(-1)
        for lo in range(0, flat.size, _CHUNK):
            out_flat[lo : lo + _CHUNK] = self._mean_inverse(flat[lo : lo + _CHUNK])
        return out

    def _mean_inverse(self, m: FloatArray) -> FloatArray:
        table, edges = self._mean_values, self._edges  # (table: non-decreasing)
        # the cell whose ends' means bracket m, and the piecewise-linear guess in it
        k = np.clip(np.searchsorted(table, m, side="right") - 1, 0, edges.size - 2)
        cell = edges[k], edges[k + 1]
        lo, hi = cell[0].copy(), cell[1].copy()
        w = _first_guess(m, table[k], table[k + 1], lo, hi, self._mean_slope_ends[0][k],
                         self._mean_slope_ends[1][k])
        # each point until its own steps converge (then its result does not depend on the
        # others, nor on the chunks); those beyond the table are set below
        active = np.flatnonzero((m > table[0]) & (m < table[-1]))
        for _ in range(_INVERSE_STEPS):
            # Newton on m = x + d(x), x = expit(w): the residual (x - m) + d(x), the slope
            # x (1 - x) + d'(w); kept within the bracket, and bisecting it where a step
            # would leave it (where the interpolant is not monotone: a bounded support's
            # noisy tails, where a plain Newton step could go anywhere)
            wa, ma, la, ha = w[active], m[active], lo[active], hi[active]
            x = expit(wa)
            residual, slope = self._residual(x, wa, ma)
            slope += x * expit(-wa)
            above = residual > 0.0
            ha = np.where(above, wa, ha)
            la = np.where(above | (residual == 0.0), la, wa)
            with np.errstate(divide="ignore", invalid="ignore"):
                step = residual / slope
            new = wa - step
            # converged: a residual of the rounding of x (the last step in x below takes it
            # on) or a step of a few ulps of w, taken
            inside = (new > la) & (new < ha)
            done = ((np.abs(residual) <= 2 * np.spacing(np.abs(ma)))
                    | (np.abs(step) <= 4 * np.spacing(np.maximum(np.abs(wa), 1.0)))
                    # a step this small leaves an error of its square: the last step polishes
                    | (inside & (np.abs(step) <= _SETTLED_STEP)))
            astray = ~done & ~inside
            new[astray] = 0.5 * (la[astray] + ha[astray])
            w[active], lo[active], hi[active] = new, la, ha
            active = active[~done]
            if not active.size:
                break
        # a last Newton step in x: exactly m where the correction is below half an ulp, as
        # the forward map gives c_hat there (in w the step would leave expit's rounding)
        x = expit(w)
        step, slope = self._residual(x, w, m)
        with np.errstate(divide="ignore", invalid="ignore"):
            slope /= x * expit(-w)
            slope += 1.0
            step /= slope
        step[~np.isfinite(step)] = 0.0
        x = np.clip(x - step, expit(cell[0]), expit(cell[1]))  # (not beyond the cell)
        # beyond the table the forward map is c_hat + the correction at the table's end
        correction = self._correction
        low, high = m <= table[0], m >= table[-1]
        x[low] = np.clip(m[low] - correction[0], 0.0, _X_LOW)
        x[high] = np.clip(m[high] - correction[-1], _X_HIGH, 1.0)
        x[m <= 0.0] = 0.0
        x[m >= 1.0] = 1.0
        return np.clip(x, 0.0, 1.0, out=x)

    def _residual(
        self, x: FloatArray, w: FloatArray, m: FloatArray
    ) -> tuple[FloatArray, FloatArray]:
        """``m(x) - m`` (``m(x) = x + d``) and ``dd/dw`` at ``x = expit(w)``."""
        value, slope = self._correction_at(w, derivative=True)
        assert slope is not None
        residual = x - m
        residual += value
        return residual, slope


def _first_guess(m: FloatArray, m0: FloatArray, m1: FloatArray, w0: FloatArray,
                 w1: FloatArray, g0: FloatArray, g1: FloatArray) -> FloatArray:
    """The ``w`` in ``[w0, w1]`` whose posterior mean is ``m``, from the cubic Hermite
    interpolant of ``w`` in ``m`` through the cell's ends (means ``m0``, ``m1``, slopes
    ``dm/dw`` ``g0``, ``g1``): within ~1e-11 of the root where ``m`` is smooth and increasing,
    so that Newton needs one step; linear where a slope is not positive (a bounded support's
    tails), and clipped to the cell."""
    with np.errstate(divide="ignore", invalid="ignore"):
        span = m1 - m0
        t = np.nan_to_num((m - m0) / span, nan=0.5)
        t = np.clip(t, 0.0, 1.0)
        linear = w0 + t * (w1 - w0)
        p0, p1 = span / g0, span / g1  # dw/dt at the ends
        t2 = t * t
        t3 = t2 * t
        cubic = ((2 * t3 - 3 * t2 + 1) * w0 + (t3 - 2 * t2 + t) * p0
                 + (3 * t2 - 2 * t3) * w1 + (t3 - t2) * p1)
    good = (g0 > 0) & (g1 > 0) & np.isfinite(cubic)
    return np.clip(np.where(good, cubic, linear), w0, w1)


def _correction_ratio(densities: FloatArray) -> FloatArray:
    """The posterior mean's correction ``E[c | c_hat = x] - x``, the density of ``c - x``
    (row 4) over ``u00`` (row 0); ``nan`` where ``u00`` vanishes or underflows (a bounded
    support)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        out = densities[4] / densities[0]
    # (below 1e-290 the densities are sums of subnormal numbers, their ratio noise)
    out[~np.isfinite(out) | ~(densities[0] > 1e-290)] = np.nan
    return out


def _chebval(s: FloatArray, coefficients: FloatArray) -> FloatArray:
    """``sum_j coefficients[j] T_j(s)`` per point (Clenshaw; ``coefficients`` (degree + 1,
    len(s)))."""
    b1 = np.zeros_like(s)
    b2 = np.zeros_like(s)
    for c in coefficients[:0:-1]:
        b1, b2 = 2.0 * s * b1 - b2 + c, b1
    return s * b1 - b2 + coefficients[0]


def _to_chebyshev() -> FloatArray:
    """The matrix taking the values at a cell's ends and :data:`_GL_CELL` Gauss-Legendre
    nodes (in order, ``s`` in [-1, 1]) to the Chebyshev coefficients of the polynomial
    through them (condition number ~2: the points are spread like Chebyshev's)."""
    s = np.concatenate([[-1.0], np.polynomial.legendre.leggauss(_GL_CELL)[0], [1.0]])
    return np.linalg.inv(np.polynomial.chebyshev.chebvander(s, _GL_CELL + 1))


_TO_CHEBYSHEV = _to_chebyshev()


def _posterior_correction(correction: FloatArray, x: FloatArray,
                          dist: CostDistribution) -> FloatArray:
    """``E[c | c_hat = x] - x`` at increasing points ``x`` (``correction``, ``nan`` where
    undefined), with the mean ``x`` plus it made total and non-decreasing (where ``u00``
    underflows, ``c_hat`` far outside a bounded support, the nearest end of the support);
    where that changes the mean, the correction is the new mean minus ``x``."""
    valid = np.isfinite(correction)
    lo, hi = dist.support
    if not valid.any():  # pragma: no cover - a table always has mass somewhere
        return np.linspace(lo, hi, x.size) - x
    raw = x + correction
    index = np.arange(x.size)
    mean = np.interp(index, index[valid], raw[valid])
    mean = np.maximum.accumulate(np.clip(mean, lo, hi))
    with np.errstate(invalid="ignore"):
        return np.where(valid & (mean == raw), correction, mean - x)


def _digest(*arrays: FloatArray) -> str:
    h = hashlib.sha256()
    for a in arrays:
        h.update(np.ascontiguousarray(a, dtype=np.float64).tobytes())
    return h.hexdigest()


def _load_verified(
    path: Path, edges: FloatArray, rows: int = 4
) -> tuple[FloatArray, FloatArray, FloatArray | None] | None:
    """The cached ``(cells, slopes, inner)`` (each cell's integrals, the ``rows`` densities
    at the edges and, with ``rows = 5``, the posterior mean's correction at each cell's
    nodes) if ``path`` holds an intact table for ``edges``; ``None`` (rebuild) if it is
    missing, truncated, corrupt or for another grid."""
    if not path.is_file():
        return None
    try:
        with np.load(path) as stored:
            cells, slopes = stored["cells"], stored["slopes"]
            inner = stored["inner"] if rows > 4 else None
            stored_edges, digest = stored["edges"], str(stored["digest"])
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
        return None
    if (
        cells.shape != (4, edges.size - 1)
        or slopes.shape != (rows, edges.size)
        or (inner is not None and inner.shape != (edges.size - 1, _GL_CELL))
        or not np.array_equal(stored_edges, edges)
        or digest != _digest(edges, cells, slopes, *([] if inner is None else [inner]))
    ):
        return None
    return cells, slopes, inner


def _save_verified(path: Path, edges: FloatArray, cells: FloatArray, slopes: FloatArray,
                   inner: FloatArray | None = None) -> None:
    """Write the table with a checksum; a cache that cannot be written is skipped (warning)."""
    arrays = {"edges": edges, "cells": cells, "slopes": slopes}
    if inner is not None:
        arrays["inner"] = inner
    try:
        _save_atomically(path, **arrays, digest=np.array(_digest(*arrays.values())))
    except OSError as exc:
        warnings.warn(
            f"moment-table cache {path.parent} cannot be written ({exc.strerror or exc}); "
            "carrying on without caching",
            RuntimeWarning,
            stacklevel=3,
        )


def _save_atomically(path: Path, **arrays: FloatArray) -> None:
    # Through a handle: given a name, np.savez would append ".npz" to it.
    with atomic_output(path) as tmp, open(tmp, "wb") as handle:
        np.savez(handle, **arrays)


def moment_table(
    gamma: float, grid_size: int | None = None, distribution: CostDistribution = UNIFORM
) -> MomentTable:
    """The cached :class:`MomentTable` for ``gamma`` and the measure over ``c``
    (``grid_size=None``: the density ``distribution``; else the grid ``i/grid_size``
    weighted by it). One table per canonical key, however the arguments are spelt
    (``moment_table(4)`` and ``moment_table(4.0, None, UNIFORM)`` are the same object)."""
    return _cached_table(float(gamma), grid_size, distribution)


@lru_cache(maxsize=64)
def _cached_table(
    gamma: float, grid_size: int | None, distribution: CostDistribution
) -> MomentTable:
    return MomentTable(gamma, CMeasure(grid_size, distribution))


__all__ = [
    "GAMMA_WINDOWED",
    "CMeasure",
    "Increments",
    "MomentTable",
    "Points",
    "Weighted",
    "moment_table",
]
