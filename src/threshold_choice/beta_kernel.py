"""The Beta kernel ``v(x | c)`` of the uncertainty model, stable for every ``gamma``.

``c_hat | c ~ Beta(gamma c + 1, gamma (1 - c) + 1)`` has density
``v(x | c) = (gamma + 1) * binom(gamma, gamma c) * x**(gamma c) (1 - x)**(gamma (1 - c))``
(the binomial coefficient through the Gamma function). Written naively (``betaln`` and
``gamma c log x``) its logarithm is a difference of terms of size ``gamma``: at
``gamma = 1e6`` it loses 1e-10 relative accuracy, at ``1e16`` all of it. Loader's saddle-point
form (C. Loader, *Fast and accurate computation of binomial probabilities*, 2000) avoids the
cancellation:

``log v = log(gamma + 1) - log(2 pi)/2 - h(gamma) + h(gamma c) + h(gamma (1 - c))
          - gamma x D(delta / x) - gamma (1 - x) D(-delta / (1 - x))``

with ``delta = c - x``, ``D(e) = (1 + e) log(1 + e) - e`` (a power series for ``|e| < 0.1``)
and ``h(z) = -log(z)/2 - stirlerr(z)``, ``stirlerr(z) = log Gamma(z + 1) - (z + 1/2) log z + z -
log(2 pi)/2`` (a Stirling series for ``z > 15``, direct below). Every term is O(1) near the
mode, so the result is accurate to a few ulps of its value *provided ``delta`` is given
accurately* -- the callers place their nodes in ``theta = arcsin(sqrt(c))`` and compute
``delta = sin(theta_x + theta_c) sin(theta_c - theta_x)`` from the node offset, never as a
difference of two nearby ``c``.

Why ``theta``: in ``theta`` the kernel has the same width, about ``1 / (2 sqrt(gamma))``,
everywhere in (0, 1), ends included (the variance-stabilising transform of the binomial), and
it is negligible beyond ``|theta_c - theta_x| > R = 10 / sqrt(gamma)``: the Kullback-Leibler
divergence that sets its decay satisfies ``KL(c || x) >= -2 log cos(theta_c - theta_x) >=
(theta_c - theta_x)**2`` (Renyi order 1/2 below KL), so outside the window ``v`` carries a
factor below ``exp(-100)``. The callers integrate over such windows with composite
Gauss-Legendre rules of :data:`PANELS` panels x :data:`NODES` nodes (panels narrower than the
kernel's standard deviation); the tests check 1e-12 against adaptive quadrature.

Sums over many points at many ``c`` (:func:`edge_sums`, for ``0 <= gamma <= 1000``): the
expected cost curve ``K(c)`` of a method is, summed by parts over its segments,
``sum_j d_j(c) V(x_j | c)`` (and the same with the partial moments ``U(x | c) = integral_0^x
u dV``), ``x_j`` its break points: O(points x costs) if evaluated pair by pair. In
``w = logit(x)`` the kernel's density ``x**A (1 - x)**B / B(A, B)`` is analytic (poles at
``Im w = +-pi`` only) and about ``sqrt(1/A + 1/B)`` wide, so on cells no wider than that
``V(. | c)`` is a polynomial of degree :data:`_DEGREE` to rounding. Each point is spread onto
its cell's Chebyshev-Lobatto nodes by its Lagrange weights once (``sum_j d_j V(x_j) = sum over
nodes of W_node V(node)``, the weights independent of ``c``), and for each ``c`` the density
is integrated spectrally on the nodes of the few cells where it is not negligible: O(points +
costs x cells per kernel). Against ``betainc`` at every point: <= 1e-13 (tests).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray
from scipy.special import betaln, expit, gammaln, log_expit, xlogy

from threshold_choice._typing import FloatArray

#: half-width of the integration window in theta, times sqrt(gamma)
WINDOW = 10.0
#: Gauss-Legendre panels across a full window, and nodes per panel
PANELS = 24
NODES = 8

_LOG_2PI = math.log(2.0 * math.pi)
_STIRLING = (1 / 12, -1 / 360, 1 / 1260, -1 / 1680, 1 / 1188)  # next term < 2e-16 at z = 15
_SERIES_TERMS = 18  # D(e) series: |e| < 0.1, so the first neglected term is < 1e-20


def _stirling_tail(z: FloatArray) -> FloatArray:
    """``-stirlerr(z) - log(z)/2`` by the Stirling series (``z > 15``)."""
    inv = 1.0 / z
    inv2 = inv * inv  # (1/z)**2, not 1/z**2: z up to 1e200 must not overflow
    series = np.full_like(z, _STIRLING[-1])
    for coefficient in _STIRLING[-2::-1]:
        series *= inv2
        series += coefficient
    series /= z
    return -series - 0.5 * np.log(z)


def _h(z: FloatArray) -> FloatArray:
    """``-log(z)/2 - stirlerr(z)``, finite as ``z -> 0`` (``log(2 pi)/2``)."""
    z = np.asarray(z, dtype=np.float64)
    big = z > 15.0
    if big.all():  # the common case of large gamma: no masking
        return _stirling_tail(z)
    out = np.empty_like(z)
    out[big] = _stirling_tail(z[big])
    zs = z[~big]
    out[~big] = -gammaln(zs + 1.0) + xlogy(zs, zs) - zs + 0.5 * _LOG_2PI
    return out


def _deviance_series(e: FloatArray) -> FloatArray:
    acc = np.full_like(e, 1.0 / (_SERIES_TERMS * (_SERIES_TERMS + 1)))
    minus = -e
    for j in range(_SERIES_TERMS - 2, -1, -1):  # sum_j (-e)^j / ((j + 1)(j + 2))
        acc *= minus
        acc += 1.0 / ((j + 1) * (j + 2))
    return e * e * acc


def deviance(e: FloatArray) -> FloatArray:
    """``D(e) = (1 + e) log(1 + e) - e`` for ``e >= -1``, without cancellation near 0."""
    e = np.asarray(e, dtype=np.float64)
    small = np.abs(e) < 0.1
    if small.all():
        return _deviance_series(e)
    out = np.empty_like(e)
    out[small] = _deviance_series(e[small])
    el = e[~small]
    out[~small] = xlogy(1.0 + el, 1.0 + el) - el
    return out


def log_density(
    gamma: float, x: FloatArray, x1: FloatArray, c: FloatArray, c1: FloatArray, delta: FloatArray
) -> FloatArray:
    """``log v(x | c)`` for ``0 < gamma < inf`` (broadcast); ``x1 = 1 - x``, ``c1 = 1 - c`` and
    ``delta = c - x`` must each be accurate (see the module docstring)."""
    constant = math.log1p(gamma) - 0.5 * _LOG_2PI - float(_h(np.array([gamma]))[0])
    return (
        constant
        + _h(gamma * c)
        + _h(gamma * c1)
        - gamma * x * deviance(delta / x)
        - gamma * x1 * deviance(-delta / x1)
    )


def theta_of_logit(w: FloatArray) -> FloatArray:
    """``arcsin(sqrt(x))`` at ``x = expit(w)``, accurate at both ends."""
    return np.arctan(np.exp(np.asarray(w, dtype=np.float64) / 2.0))


def theta_of(x: FloatArray) -> FloatArray:
    """``arcsin(sqrt(x))`` for ``x`` in [0, 1]."""
    return np.arcsin(np.sqrt(np.clip(np.asarray(x, dtype=np.float64), 0.0, 1.0)))


def window(gamma: float) -> float:
    """The half-width ``R`` in theta beyond which the kernel is negligible."""
    return WINDOW / math.sqrt(gamma)


def panel_rule(lo: FloatArray, hi: FloatArray, counts: NDArray[np.intp]) -> tuple[
    NDArray[np.intp], FloatArray, FloatArray
]:
    """Composite Gauss-Legendre on each interval ``[lo_k, hi_k]`` split into ``counts_k``
    equal panels of :data:`NODES` nodes: ``(owner, nodes, weights)``, flat, ``owner`` the
    interval of each node (intervals with ``counts_k = 0`` get no nodes)."""
    t, wt = np.polynomial.legendre.leggauss(NODES)
    owner_panel = np.repeat(np.arange(counts.size), counts)
    first = np.cumsum(counts) - counts
    width = (hi - lo)[owner_panel] / counts[owner_panel]
    start = lo[owner_panel] + (np.arange(owner_panel.size) - first[owner_panel]) * width
    half = width / 2.0
    nodes = (start + half)[:, None] + half[:, None] * t[None, :]
    weights = half[:, None] * wt[None, :]
    return np.repeat(owner_panel, NODES), nodes.ravel(), weights.ravel()


# -- sums over many points at many c (gamma <= 1000) -------------------------------------------

_DEGREE = 12  # Chebyshev-Lobatto nodes per cell: _DEGREE + 1 (measured: 1e-14 at one width)
_CELL = 1.0  # cell width in units of the kernel's width in w (2.0: 1e-10 at gamma = 0.25)
_MAX_CELL = 0.5  # in w (1.4 wide at gamma = 0: 3e-12)
_W_END = 60.0  # cells cover w in [-60, 60]: beyond, V differs from 0 or 1 by < 1e-24
_NEGLIGIBLE = math.log(1e-18)  # log density below which a cell's end is outside the kernel
_POINT_CHUNK = 1 << 16  # points spread onto nodes at once
_NODE_BUDGET = 1 << 20  # quadrature nodes (costs x cells x nodes) evaluated at once


def _lobatto() -> tuple[FloatArray, FloatArray, FloatArray]:
    """The nodes in [0, 1] (increasing), their barycentric weights, and the integration matrix
    ``S[m, i] = integral_0^{t_m} l_i`` (``l_i`` the Lagrange basis on the nodes)."""
    cheb = np.polynomial.chebyshev
    t = (1.0 - np.cos(np.pi * np.arange(_DEGREE + 1) / _DEGREE)) / 2.0
    bary = (-1.0) ** np.arange(_DEGREE + 1)
    bary[[0, -1]] /= 2.0
    integral = np.empty((t.size, t.size))
    for i in range(t.size):
        basis = cheb.chebfit(2.0 * t - 1.0, np.eye(t.size)[i], _DEGREE)
        integral[:, i] = cheb.chebval(2.0 * t - 1.0, cheb.chebint(basis, lbnd=-1)) / 2.0
    return t, bary, integral


_NODES_01, _BARY, _SPECTRAL = _lobatto()


def _lagrange(tau: FloatArray) -> FloatArray:
    """``(len(tau), nodes)``: the Lagrange basis at each local position ``tau`` (barycentric;
    a position on a node takes that node's value)."""
    diff = tau[:, None] - _NODES_01[None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        q = _BARY / diff
        out = q / q.sum(axis=1, keepdims=True)
    on_node = (diff == 0.0).any(axis=1)
    out[on_node] = diff[on_node] == 0.0
    return out


def _cell_edges(gamma: float) -> FloatArray:
    """Cell edges in ``w`` on ``[-60, 60]``, each cell about :data:`_CELL` kernel widths: the
    kernel of ``c = expit(w)`` is about ``sqrt(1/A + 1/B)`` wide (``A = gamma c + 1``,
    ``B = gamma (1 - c) + 1``), so the cells are narrow in the middle at large ``gamma`` and
    about 1 wide in the tails."""
    w = np.linspace(-_W_END, _W_END, 24_001)
    x = expit(w)
    # and at most _MAX_CELL wide: the density's poles at Im w = +-pi bound a cell's accuracy
    density = np.maximum(
        1.0 / np.sqrt(1.0 / (gamma * x + 1.0) + 1.0 / (gamma * (1.0 - x) + 1.0)),
        _CELL / _MAX_CELL)
    v = np.concatenate(([0.0], np.cumsum((density[1:] + density[:-1]) / 2.0 * np.diff(w))))
    cells = max(1, math.ceil(v[-1] / _CELL))
    return np.interp(np.linspace(0.0, v[-1], cells + 1), v, w)


def _log_density_w(w: FloatArray, a: FloatArray, b: FloatArray) -> FloatArray:
    """``log`` of the density of ``w = logit(c_hat)``, ``c_hat ~ Beta(a, b)``: accurate to
    ~1e-13 relative for ``a + b <= 1002`` (the terms are O(a + b))."""
    return a * log_expit(w) + b * log_expit(-w) - betaln(a, b)


def edge_sums(
    x: FloatArray,
    cdf_weights: FloatArray,
    moment_weights: FloatArray | None,
    moment: Callable[[FloatArray], FloatArray] | None,
    gamma: float,
    c: FloatArray,
) -> tuple[FloatArray, FloatArray | None]:
    """``sum_j cdf_weights[r, j] V(x_j | c)`` and ``sum_j moment_weights[r, j] U(x_j | c)``,
    ``U(x | c) = E[u(c_hat) 1{c_hat <= x} | c]`` with ``u = moment``, at each ``c`` in ``c``
    (rows ``r`` x costs), for ``0 <= gamma <= 1000`` (see the module docstring)."""
    every = c
    if gamma == 0:  # V and U do not depend on c: one evaluation serves every c
        c = c[:1]
    edges = _cell_edges(gamma)
    widths = np.diff(edges)
    cells = widths.size
    weights = cdf_weights if moment_weights is None else np.vstack([cdf_weights,
                                                                    moment_weights])
    spread = np.zeros((weights.shape[0], cells, _NODES_01.size))
    for lo in range(0, x.size, _POINT_CHUNK):
        part = slice(lo, lo + _POINT_CHUNK)
        with np.errstate(divide="ignore"):
            w = np.log(x[part]) - np.log1p(-x[part])
        w = np.clip(w, -_W_END, _W_END)
        k = np.clip(np.searchsorted(edges, w, side="right") - 1, 0, cells - 1)
        basis = _lagrange((w - edges[k]) / widths[k])
        for r, row in enumerate(weights[:, part]):
            for m in range(_NODES_01.size):
                spread[r, :, m] += np.bincount(k, row * basis[:, m], cells)
    # beyond a kernel's cells V = 1 and U = its total: the weights of the cells there
    tail = np.cumsum(spread.sum(axis=2)[:, ::-1], axis=1)[:, ::-1]
    tail = np.hstack([tail, np.zeros((weights.shape[0], 1))])
    out = np.empty((weights.shape[0], c.size))
    a, b = gamma * c + 1.0, gamma * (1.0 - c) + 1.0
    log_ends = _log_density_w(edges[None, :], a[:, None], b[:, None])
    mode = np.log(a / b)
    # cells with an end above the negligible density, or holding the mode (the density is
    # log-concave in w: it falls away from the mode, and the mass beyond a point of density f
    # is below f / |slope of log f|, the slope >= 1 in the tails)
    kept = ((np.maximum(log_ends[:, :-1], log_ends[:, 1:]) > _NEGLIGIBLE)
            | ((edges[None, :-1] <= mode[:, None]) & (mode[:, None] <= edges[None, 1:])))
    first = kept.argmax(axis=1)
    last = cells - 1 - kept[:, ::-1].argmax(axis=1)
    count = last - first + 1
    per_cost = np.cumsum(count)
    start = 0
    while start < c.size:
        base = per_cost[start - 1] if start else 0
        stop = max(start + 1, int(np.searchsorted(
            per_cost, base + _NODE_BUDGET // _NODES_01.size, side="right")))
        part = slice(start, stop)
        out[:, part] = _kernel_sums(spread, tail, edges, widths, moment, a[part], b[part],
                                    first[part], count[part], cdf_weights.shape[0])
        start = stop
    if every.size != c.size:
        out = np.repeat(out, every.size, axis=1)
    split = cdf_weights.shape[0]
    return out[:split], None if moment_weights is None else out[split:]


def _kernel_sums(
    spread: FloatArray, tail: FloatArray, edges: FloatArray, widths: FloatArray,
    moment: Callable[[FloatArray], FloatArray] | None, a: FloatArray, b: FloatArray,
    first: NDArray[np.intp], count: NDArray[np.intp], split: int,
) -> FloatArray:
    """:func:`edge_sums` for a chunk of costs (Beta parameters ``a, b``), each with its cells
    ``first .. first + count - 1``."""
    owner = np.repeat(np.arange(a.size), count)
    begins = np.cumsum(count) - count
    position = np.arange(owner.size) - begins[owner]  # of the cell among its cost's
    cell = first[owner] + position
    nodes = edges[cell, None] + widths[cell, None] * _NODES_01[None, :]
    density = np.exp(_log_density_w(nodes, a[owner, None], b[owner, None]))
    out = np.empty((spread.shape[0], a.size))
    last = first + count - 1
    for rows, integrand in ((slice(0, split), density),
                            (slice(split, None), None if moment is None else
                             density * moment(expit(nodes)))):
        if integrand is None:
            continue
        # the integral from each cell's start to its nodes, then the cells before it
        within = (integrand @ _SPECTRAL.T) * widths[cell, None]
        # each cost's cells in a row of their own: its running sums do not depend on the
        # other costs (no cancellation, the same bits in any chunk)
        rows_of = np.zeros((a.size, int(count.max())))
        rows_of[owner, position] = within[:, -1]
        running = np.cumsum(rows_of, axis=1)
        total = running[np.arange(a.size), count - 1]
        within[:, :-1] += (running[owner, position] - rows_of[owner, position])[:, None]
        within[:, -1] = running[owner, position]
        for r in range(rows.start, rows.stop or spread.shape[0]):
            inside = np.einsum("pm,pm->p", spread[r, cell], within)
            out[r] = np.bincount(owner, inside, a.size) + tail[r, last + 1] * total
    return out


__all__ = [
    "NODES",
    "PANELS",
    "WINDOW",
    "deviance",
    "edge_sums",
    "log_density",
    "panel_rule",
    "theta_of",
    "theta_of_logit",
    "window",
]
