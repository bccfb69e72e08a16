"""The operating-condition uncertainty model and the integrals it induces.

The presumed cost proportion given to a threshold choice method is
``c_hat | c ~ Beta(gamma * c + 1, gamma * (1 - c) + 1)`` (mode ``c``, certainty ``gamma``):
``gamma = inf`` means ``c_hat = c`` and ``gamma = 0`` means ``c_hat ~ Uniform(0, 1)``.

Every threshold choice method of this package selects, for ``c_hat`` in a segment
``[x_s, x_{s+1}]``, a loss that is bilinear in ``(c, c_hat)``. Averaged over true costs ``c``
(uniform on [0, 1], or the paper's grid ``c = i/1000``) the expected loss therefore needs only

``G_ab(x) = integral over c of  c**a * E[c_hat**b * 1{c_hat <= x} | c]``,  ``a, b in {0, 1}``,

which depends on ``gamma`` and ``x`` but not on the scores (the order of integration swapped).
:class:`MomentTable` tabulates ``G_ab`` once per ``gamma`` and then evaluates it at any ``x``
in O(1); the per-run work is then linear in the number of segments.

For finite ``gamma > 0`` the table is built from the marginal densities
``u_ab(x) = integral over c of c**a * x**b * v(x | c)`` (``v`` = Beta density), computed by
composite Gauss-Legendre quadrature in ``logit(c)`` and integrated cell by cell in
``w = logit(x)``; ``G_ab`` is then a cubic Hermite interpolant in ``w`` using ``u_ab`` as its
derivative. The absolute error is below 1e-10 for ``gamma <= 1000`` (checked in the tests
against adaptive quadrature). Building a table takes about a second; tables are cached in
memory and, when the environment variable ``THRESHOLD_CHOICE_CACHE`` names a folder, on disk.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.interpolate import CubicSpline
from scipy.special import betainc, betaln, expit, log_expit

from threshold_choice.atomic import mkstemp_readable
from threshold_choice.errors import UserError

FloatArray = NDArray[np.float64]

#: the paper's grid of true costs: c = i/1000, i = 1..1000
PAPER_GRID_SIZE = 1000

_W = 30.0  # table covers x in [expit(-30), expit(30)]; the rest carries < 1e-12 of mass
_H = 0.01  # cell width in w = logit(x)
_GL_CELL = 6  # Gauss-Legendre nodes per cell in w
_GL_PANEL = 8  # Gauss-Legendre nodes per panel in logit(c)
_X_LOW, _X_HIGH = float(expit(-_W)), float(expit(_W))  # the table's range in x
_TABLE_VERSION = 1  # bump when the table construction changes (invalidates disk caches)


def parse_gamma(value: str | float) -> float:
    """Parse a certainty level: a number >= 0 or ``inf`` (also ``Inf``, ``infinity``)."""
    try:
        gamma = float(value)
    except (TypeError, ValueError):
        raise UserError(f"gamma must be a number >= 0 or 'inf', got {value!r}") from None
    if math.isnan(gamma) or gamma < 0:
        raise UserError(f"gamma must be a number >= 0 or 'inf', got {value!r}")
    return gamma


def format_gamma(gamma: float) -> str:
    """``inf`` -> ``'inf'``, integral values without decimals (``16.0`` -> ``'16'``)."""
    if math.isinf(gamma):
        return "inf"
    return str(int(gamma)) if float(gamma).is_integer() else repr(float(gamma))


@dataclass(frozen=True)
class Uncertainty:
    """``c_hat | c ~ Beta(gamma*c + 1, gamma*(1 - c) + 1)``; ``gamma`` in ``[0, inf]``."""

    gamma: float

    def __post_init__(self) -> None:
        parse_gamma(self.gamma)

    @property
    def is_exact(self) -> bool:
        return math.isinf(self.gamma)

    @property
    def is_uninformed(self) -> bool:
        return self.gamma == 0

    def alpha_beta(self, c: ArrayLike) -> tuple[FloatArray, FloatArray]:
        c_arr = np.asarray(c, dtype=np.float64)
        return self.gamma * c_arr + 1.0, self.gamma * (1.0 - c_arr) + 1.0

    def sample(self, c: ArrayLike, rng: np.random.Generator) -> FloatArray:
        """One draw of ``c_hat`` for each true cost in ``c``."""
        c_arr = np.asarray(c, dtype=np.float64)
        if self.is_exact:
            return c_arr.copy()
        if self.is_uninformed:
            return rng.uniform(0.0, 1.0, size=c_arr.shape)
        a, b = self.alpha_beta(c_arr)
        return rng.beta(a, b)

    def cdf(self, x: ArrayLike, c: ArrayLike) -> FloatArray:
        """``V(x | c) = P(c_hat <= x | c)``, broadcast over ``x`` and ``c``."""
        x_arr, c_arr = np.broadcast_arrays(np.asarray(x, float), np.asarray(c, float))
        if self.is_exact:
            return (c_arr <= x_arr).astype(np.float64)
        if self.is_uninformed:
            return np.clip(x_arr, 0.0, 1.0).astype(np.float64)
        a, b = self.alpha_beta(c_arr)
        return betainc(a, b, np.clip(x_arr, 0.0, 1.0))

    def partial_mean(self, x: ArrayLike, c: ArrayLike) -> FloatArray:
        """``E[c_hat * 1{c_hat <= x} | c]``, broadcast over ``x`` and ``c``."""
        x_arr, c_arr = np.broadcast_arrays(np.asarray(x, float), np.asarray(c, float))
        if self.is_exact:
            return np.where(c_arr <= x_arr, c_arr, 0.0)
        xc = np.clip(x_arr, 0.0, 1.0)
        if self.is_uninformed:
            return xc**2 / 2.0
        a, b = self.alpha_beta(c_arr)
        return a / (a + b) * betainc(a + 1.0, b, xc)


@dataclass(frozen=True)
class CMeasure:
    """The measure over true costs ``c``: uniform on [0, 1] (``grid_size=None``) or the
    average over the grid ``c = i/grid_size, i = 1..grid_size`` (the paper's estimator)."""

    grid_size: int | None = None

    def __post_init__(self) -> None:
        if self.grid_size is not None and self.grid_size < 1:
            raise UserError(f"the grid of true costs needs at least 1 point, got {self.grid_size}")

    @cached_property
    def grid(self) -> FloatArray | None:
        if self.grid_size is None:
            return None
        return np.arange(1, self.grid_size + 1, dtype=np.float64) / self.grid_size


def _hermite_coefficients(values: FloatArray, slopes: FloatArray) -> FloatArray:
    """Per-cell cubic coefficients ``(rows, 4, cells)`` (constant term first, in the local
    variable ``t`` in [0, 1]) of the Hermite interpolant of ``values`` with derivatives
    ``slopes`` (per unit ``w``) on the uniform grid of cell width ``_H``. Rows first, so
    that the first rows are a contiguous block (fast to gather from)."""
    y0, y1 = values[:, :-1], values[:, 1:]
    d0, d1 = slopes[:, :-1] * _H, slopes[:, 1:] * _H
    return np.stack([y0, d0, 3 * (y1 - y0) - 2 * d0 - d1, 2 * (y0 - y1) + d0 + d1], axis=1)


def _hermite(
    coefficients: FloatArray, w: FloatArray, *, derivative: bool = False
) -> FloatArray | tuple[FloatArray, FloatArray]:
    """Evaluate the interpolant of :func:`_hermite_coefficients` at ``w`` (clipped to the
    grid ``[-_W, _W]``); optionally also its derivative in ``w``."""
    pos = (np.clip(w, -_W, _W) + _W) / _H
    k = np.minimum(pos.astype(np.intp), coefficients.shape[2] - 1)
    t = pos - k
    # np.take on a contiguous block: several times faster than fancy indexing [:, :, k]
    c0, c1, c2, c3 = np.take(coefficients, k, axis=2).transpose(1, 0, 2)
    out = c3 * t
    out += c2
    out *= t
    out += c1
    out *= t
    out += c0
    if not derivative:
        return out
    return out, ((3 * c3 * t + 2 * c2) * t + c1) / _H


def _gauss_legendre(lo: FloatArray, hi: FloatArray, n: int) -> tuple[FloatArray, FloatArray]:
    """Nodes and weights of ``n``-point Gauss-Legendre on each interval ``[lo_k, hi_k]``."""
    t, w = np.polynomial.legendre.leggauss(n)
    half = (hi - lo)[:, None] / 2.0
    nodes = (lo + hi)[:, None] / 2.0 + half * t[None, :]
    return nodes.ravel(), (half * w[None, :]).ravel()


def _c_nodes(gamma: float, measure: CMeasure) -> tuple[FloatArray, FloatArray]:
    """Quadrature nodes and weights over true costs for ``measure``."""
    if measure.grid is not None:
        grid = measure.grid
        return grid, np.full(grid.size, 1.0 / grid.size)
    # Composite Gauss-Legendre in t = logit(c): the density in c is concentrated within
    # ~ 1/sqrt(gamma * c * (1 - c)) of c_hat in t, so panels shrink like 1/sqrt(gamma).
    width = min(0.5, 1.5 / math.sqrt(gamma))
    n_panels = math.ceil(2 * _W / width)
    edges = np.linspace(-_W, _W, n_panels + 1)
    t, wt = _gauss_legendre(edges[:-1], edges[1:], _GL_PANEL)
    c = expit(t)
    return c, wt * c * (1.0 - c)


class MomentTable:
    """``G_ab(x)`` (see the module docstring) for one ``gamma`` and one measure over ``c``.

    ``table(x)`` returns an array of shape ``(4, len(x))`` with rows ``G00, G10, G01, G11``
    (first index: power of ``c``; second: power of ``c_hat``). Build through
    :func:`moment_table`, which caches one table per ``(gamma, grid_size)``.
    """

    def __init__(self, gamma: float, measure: CMeasure = CMeasure()) -> None:
        self.uncertainty = Uncertainty(gamma)
        self.gamma = gamma
        self.measure = measure
        grid = measure.grid
        # moments of c under the measure: E[c^k], k = 0..3
        if grid is None:
            self._c_moments = np.array([1.0, 1 / 2, 1 / 3, 1 / 4])
        else:
            self._c_moments = np.array([np.mean(grid**k) for k in range(4)])
        if not (self.uncertainty.is_exact or self.uncertainty.is_uninformed):
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

    # -- construction ------------------------------------------------------------------
    def _densities(self, x_w: FloatArray, c: FloatArray, wc: FloatArray) -> FloatArray:
        """``u_ab(x)`` at ``x = expit(x_w)``, shape ``(4, len(x_w))``, times ``dx/dw``."""
        g = self.gamma
        a, b = self.uncertainty.alpha_beta(c)
        log_norm = betaln(a, b)
        out = np.empty((4, x_w.size))
        chunk = max(1, 4_000_000 // max(1, c.size))
        for lo in range(0, x_w.size, chunk):
            w = x_w[lo : lo + chunk]
            log_x = log_expit(w)
            log_1mx = log_expit(-w)
            # Beta density in x times dx/dw = x (1 - x)
            log_pdf = (g * c)[None, :] * log_x[:, None] + (g * (1 - c))[None, :] * log_1mx[:, None]
            pdf = np.exp(log_pdf - log_norm[None, :] + (log_x + log_1mx)[:, None])
            u0 = pdf @ wc
            u1 = pdf @ (wc * c)
            x = np.exp(log_x)
            out[:, lo : lo + chunk] = np.stack([u0, u1, u0 * x, u1 * x])
        return out

    def _cache_file(self) -> Path | None:
        root = os.environ.get("THRESHOLD_CHOICE_CACHE")
        if root is None:
            return None
        key = f"v{_TABLE_VERSION}_g{self.gamma!r}_n{self.measure.grid_size}_h{_H}_W{_W}"
        return Path(root) / f"moments_{key}.npz"

    def _build(self) -> None:
        edges = np.arange(-_W, _W + _H / 2, _H)
        cache = self._cache_file()
        if cache is not None and cache.exists():
            with np.load(cache) as stored:
                values, slopes = stored["values"], stored["slopes"]
        else:
            c, wc = _c_nodes(self.gamma, self.measure)
            nodes, wts = _gauss_legendre(edges[:-1], edges[1:], _GL_CELL)
            cells = (self._densities(nodes, c, wc) * wts).reshape(4, edges.size - 1, _GL_CELL)
            values = np.concatenate([np.zeros((4, 1)), np.cumsum(cells.sum(axis=2), axis=1)], 1)
            slopes = self._densities(edges, c, wc)
            if cache is not None:
                _save_atomically(cache, values=values, slopes=slopes)
        self._edges = edges
        self._edge_values = values
        self._coefficients = _hermite_coefficients(values, slopes)
        if self.measure.grid is None:
            # posterior mean of c given c_hat = x under a uniform prior: u10(x) / u00(x)
            mean = slopes[1] / slopes[0]
            self._mean_values = mean
            self._mean_coefficients = _hermite_coefficients(
                mean[None, :], CubicSpline(edges, mean)(edges, 1)[None, :]
            )

    # -- evaluation --------------------------------------------------------------------
    def __call__(self, x: ArrayLike, rows: int = 4) -> FloatArray:
        """``G_ab(x)`` for every ``x`` in [0, 1] (values outside are clipped); the first
        ``rows`` rows of ``G00, G10, G01, G11``."""
        x_arr = np.clip(np.asarray(x, dtype=np.float64), 0.0, 1.0)
        if self.uncertainty.is_exact:
            return self._exact_table(x_arr)[:rows]
        if self.uncertainty.is_uninformed:
            m = self._c_moments
            half_sq = x_arr**2 / 2
            return np.stack([m[0] * x_arr, m[1] * x_arr, m[0] * half_sq, m[1] * half_sq][:rows])
        # (Few points, typically 0 and 1, lie outside the table: evaluate the interpolant at
        # all points, clipped, and overwrite those few, rather than mask the bulk.)
        low = np.flatnonzero(x_arr < _X_LOW)
        high = np.flatnonzero(x_arr > _X_HIGH)
        inside = np.clip(x_arr, _X_LOW, _X_HIGH) if low.size or high.size else x_arr
        out = _hermite(self._coefficients[:rows], np.log(inside) - np.log1p(-inside))
        # Below / above the table: linear to the exact values at 0 and 1 (mass < 1e-12).
        if low.size:
            out[:, low] = self._edge_values[:rows, :1] * (x_arr[low] / _X_LOW)
        if high.size:
            frac = (x_arr[high] - _X_HIGH) / (1.0 - _X_HIGH)
            end = self._edge_values[:rows, -1:]
            out[:, high] = end + (self.total[:rows, None] - end) * frac
        return out

    def at_logit(self, w: FloatArray, rows: int = 4) -> FloatArray:
        """``self(expit(w), rows)`` for ``w`` within the table's range ``[-30, 30]``,
        without the round trip through ``x`` (for quadrature nodes placed in ``w``)."""
        if self.uncertainty.is_exact or self.uncertainty.is_uninformed:
            return self(expit(w), rows)
        return _hermite(self._coefficients[:rows], w)

    def _exact_table(self, x: FloatArray) -> FloatArray:
        grid = self.measure.grid
        if grid is None:  # c_hat = c, c uniform
            return np.stack([x, x**2 / 2, x**2 / 2, x**3 / 3])
        # average over grid points c_i <= x of c_i^(a+b)
        k = np.searchsorted(grid, x, side="right")
        cum = [np.concatenate(([0.0], np.cumsum(grid**p))) / grid.size for p in range(3)]
        return np.stack([cum[0][k], cum[1][k], cum[1][k], cum[2][k]])

    # -- posterior mean (uncertainty-aware methods) ---------------------------------------
    def posterior_mean(self, c_hat: ArrayLike) -> FloatArray:
        """``E[c | c_hat]`` under a uniform prior on ``c`` (needs the uniform measure)."""
        x = np.clip(np.asarray(c_hat, dtype=np.float64), 0.0, 1.0)
        if self.uncertainty.is_exact:
            return x.copy()
        if self.uncertainty.is_uninformed:
            return np.full_like(x, 0.5)
        w = np.log(x) - np.log1p(-x)
        return _hermite(self._mean_coefficients, w)[0]

    def posterior_mean_inverse(self, m: ArrayLike, *, closed: str) -> FloatArray:
        """The ``c_hat`` whose posterior mean is ``m`` (clipped to [0, 1]).

        ``E[c | c_hat]`` increases strictly with ``c_hat`` for ``gamma > 0`` (the Beta family
        has a monotone likelihood ratio), so a break point ``m`` of a method in posterior-mean
        space is the break point ``posterior_mean_inverse(m)`` in ``c_hat`` space. For
        ``gamma = 0`` the posterior mean is 1/2 whatever ``c_hat``: breaks below 1/2 map to 0
        and above to 1; a break exactly at 1/2 follows ``closed`` (``'right'``: segments
        ``(x_s, x_s+1]``; ``'left'``: ``[x_s, x_s+1)``) so the segment containing 1/2 wins.
        """
        m_arr = np.asarray(m, dtype=np.float64)
        if self.uncertainty.is_exact:
            return np.clip(m_arr, 0.0, 1.0)
        if self.uncertainty.is_uninformed:
            to_one = m_arr >= 0.5 if closed == "right" else m_arr > 0.5
            return np.where(to_one, 1.0, 0.0)
        table = self._mean_values
        w = np.interp(m_arr, table, self._edges)
        for _ in range(3):  # Newton steps on the interpolant, from the piecewise-linear guess
            value, slope = _hermite(self._mean_coefficients, w, derivative=True)
            w = np.clip(w - (value[0] - m_arr) / slope[0], -_W, _W)
        x = expit(w)
        x = np.where(m_arr <= table[0], 0.0, x)
        return np.where(m_arr >= table[-1], 1.0, x)


def _save_atomically(path: Path, **arrays: FloatArray) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = mkstemp_readable(dir=path.parent, suffix=".npz.tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            np.savez(handle, **arrays)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


@lru_cache(maxsize=64)
def moment_table(gamma: float, grid_size: int | None = None) -> MomentTable:
    """The cached :class:`MomentTable` for ``gamma`` and the measure over ``c``
    (``grid_size=None``: uniform; else the grid ``i/grid_size``)."""
    return MomentTable(float(gamma), CMeasure(grid_size))


__all__ = [
    "PAPER_GRID_SIZE",
    "CMeasure",
    "MomentTable",
    "Uncertainty",
    "format_gamma",
    "moment_table",
    "parse_gamma",
]
