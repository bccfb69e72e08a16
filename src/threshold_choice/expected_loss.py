"""Expected loss ``L = integral_0^1 K(c) dc`` of a threshold choice method under uncertainty.

``K(c) = E[Q(T(c_hat); c) | c]`` with ``c_hat | c ~ Beta(gamma*c + 1, gamma*(1 - c) + 1)``.
Three estimators:

``exact``
    The integral itself (uniform ``c``), from the method's segments (Theorem 1 of Ferri et al.
    2019) and the per-gamma moment table of :mod:`threshold_choice.uncertainty`; error
    < 1e-9. Cost per run and gamma: O(number of segments).
``grid``
    The paper's estimator with the exact inner expectation: the mean of ``K(c)`` over
    ``c = i/grid_size, i = 1..grid_size`` (1000 in the paper). At ``gamma = inf`` it
    evaluates each grid point directly, breaking ties between cost lines as the authors' code
    did, and so reproduces their per-run numbers given the same scores.
``montecarlo``
    The authors' protocol: one ``c_hat`` drawn per grid point (seeded), the mean of the
    losses. An unbiased but noisy estimate of ``grid``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.special import expit

from threshold_choice.errors import UserError
from threshold_choice.methods import Selection
from threshold_choice.uncertainty import PAPER_GRID_SIZE, Uncertainty, moment_table

FloatArray = NDArray[np.float64]
Estimator = Literal["exact", "grid", "montecarlo"]
ESTIMATORS: tuple[str, ...] = ("exact", "grid", "montecarlo")

# -- the skew variants: integral of phi(c_hat) dG(c_hat) over a segment -----------------------
#
# Rate-driven on the skew is linear in z = phi(c_hat), not in c_hat, on each segment, and the
# cost-to-skew map phi(c) = c*pi0 / (c*pi0 + (1 - c)*pi1) is nonlinear, so the moment
# integral(phi dG) is not in the moment table. By parts it is [phi G] - integral(phi' G),
# the latter by Gauss-Legendre -- in w = logit(c_hat), not in c_hat:
#
# * In c_hat the integrand is not smooth at 0 and 1: there G(x) ~ x / (gamma*log(1/x)) (Beta
#   CDFs ~ x**(gamma*c + 1) averaged over c), so on the end segments [0, x_1] and [x_m, 1] a
#   polynomial rule converges only algebraically (4 nodes on [0, 0.014]: 7e-9 at gamma 0.25).
# * In w the skew map is a shift, phi = expit(w + d) with d = log(pi0/pi1), so the integrand
#   (phi' G)(w) = expit'(w + d) G(w) is analytic in the strip |Im w| < pi, bounded by the
#   poles of expit' at w + d = +-i*pi. G, a c-average of Beta CDFs, stays close to expit(w)
#   itself (the Beta(k+1, gamma-k+1) densities, k = 0..gamma, sum to gamma + 1) and varies on
#   the O(1) scale in w whatever gamma, so the poles set the rate: n-point Gauss-Legendre on
#   a panel of half-width l errs like rho**(-2n), rho = pi/l + sqrt(1 + (pi/l)**2) (the
#   Bernstein ellipse reaching the poles). Panels at most 0.25 wide (rho = 50) with 4 nodes:
#   rho**-8 = 2e-14 relative, on an integrand <= 1/4; measured against adaptive quadrature
#   over gamma in [0.25, 1000], <= 3e-14 per 0.25-wide panel (0.5 wide: 2e-11; 1 wide:
#   1e-8). dG outside |w| <= 30 carries < 1e-12, so at most 240 full panels: total < 1e-11;
#   most segments are far narrower, with errors below rounding.
# For the Beta CDF of a single c (expected_cost_curve) the step of the CDF, ~ 1 /
# sqrt((gamma + 1) c (1 - c)) wide in w, also limits the strip: panels shrink like that.
_GL_T, _GL_W = np.polynomial.legendre.leggauss(4)
_PANEL = 0.25  # maximum panel width in w = logit(c_hat)
_W_RANGE = 30.0  # dG outside [expit(-30), expit(30)] carries < 1e-12 (the moment table's range)


def _effective_gamma(sel: Selection, gamma: float) -> float:
    return 0.0 if sel.ignores_c_hat else float(gamma)


def _segment_edges(sel: Selection) -> FloatArray:
    return np.concatenate(([0.0], np.clip(sel.breaks, 0.0, 1.0), [1.0]))


def _mapped_moments(
    sel: Selection,
    edges: FloatArray,
    g_edges: FloatArray,
    cdf_at: Callable[[FloatArray, FloatArray], FloatArray],
    panel: float = _PANEL,
) -> FloatArray:
    """``integral over segment s of phi(c_hat) dG_a(c_hat)`` for each row ``a`` of the
    distribution functions ``G`` (``g_edges``: at the segment edges; ``cdf_at(x, w)``: at
    points ``x = expit(w)``), by parts in ``w = logit(c_hat)`` (see the comment above):
    ``[phi G]`` minus ``integral phi'(c_hat) G(c_hat) dc_hat``, on each segment cut to
    ``|w| <= 30`` (``phi`` at the cut edges): the mass of ``dG`` beyond, < 1e-12, is left out."""
    imap = sel.input_map
    assert imap is not None and imap.derivative is not None
    with np.errstate(divide="ignore"):
        w_edges = np.clip(np.log(edges) - np.log1p(-edges), -_W_RANGE, _W_RANGE)
    phi = imap.forward(expit(w_edges))
    out = phi[1:] * g_edges[:, 1:] - phi[:-1] * g_edges[:, :-1]
    lo, width = w_edges[:-1], np.diff(w_edges)
    counts = np.maximum(1, np.ceil(width / panel)).astype(np.intp)
    split = counts.size < counts.sum()
    if split:  # wide segments: several panels each
        first = np.cumsum(counts) - counts
        seg = np.repeat(np.arange(counts.size), counts)
        width = width[seg] / counts[seg]
        lo = lo[seg] + (np.arange(seg.size) - first[seg]) * width
    half = width / 2.0
    nodes = (lo + half)[:, None] + half[:, None] * _GL_T[None, :]
    x = expit(nodes)
    # dc_hat = x (1 - x) dw; 1 - x loses relative accuracy only where x (1 - x) < 1e-13
    weights = (half[:, None] * _GL_W[None, :]) * (imap.derivative(x) * x * (1.0 - x))
    g_nodes = cdf_at(x.ravel(), nodes.ravel()).reshape(-1, *nodes.shape)
    sums = np.einsum("ksn,sn->ks", g_nodes, weights)
    if split:
        sums = np.add.reduceat(sums, first, axis=1)
    return out - sums


def _integrate(sel: Selection, gamma: float, grid_size: int | None) -> float:
    table = moment_table(gamma, grid_size)
    edges = _segment_edges(sel)
    a = sel.coef
    interpolating = sel.interpolating
    # rows G00, G10 for the lines; G01, G11 only for interpolation in c_hat itself
    g = table(edges, rows=4 if interpolating and sel.input_map is None else 2)
    dg = np.diff(g, axis=1)
    total = a[:, 0] @ dg[0] + a[:, 1] @ dg[1]
    if interpolating:
        if sel.input_map is None:
            total += a[:, 2] @ dg[2] + a[:, 3] @ dg[3]
        else:
            moments = _mapped_moments(sel, edges, g, lambda x, w: table.at_logit(w, rows=2))
            total += a[:, 2] @ moments[0] + a[:, 3] @ moments[1]
    return float(total)


def paper_grid(grid_size: int = PAPER_GRID_SIZE) -> FloatArray:
    """The true costs of the paper's estimator: ``c = i/grid_size``, ``i = 1..grid_size``."""
    if grid_size < 1:
        raise UserError(f"the grid of true costs needs at least 1 point, got {grid_size}")
    return np.arange(1, grid_size + 1, dtype=np.float64) / grid_size


def expected_loss(
    sel: Selection,
    gamma: float,
    *,
    estimator: Estimator = "exact",
    grid_size: int = PAPER_GRID_SIZE,
    seed: int | None = None,
    c_hat: ArrayLike | None = None,
) -> float:
    """Expected loss of a method (``sel``) at certainty ``gamma`` (``0 <= gamma <= inf``).

    For ``montecarlo``, ``seed`` seeds the draws (one per grid point); alternatively pass the
    draws themselves as ``c_hat`` so that several methods share them, as in the authors' code.
    """
    gamma_eff = _effective_gamma(sel, gamma)
    Uncertainty(gamma_eff)  # validates gamma
    if estimator == "exact":
        return _integrate(sel, gamma_eff, None)
    if estimator == "grid":
        if math.isinf(gamma_eff):
            c = paper_grid(grid_size)
            return float(np.mean(sel.loss(c, c)))
        return _integrate(sel, gamma_eff, grid_size)
    if estimator == "montecarlo":
        c = paper_grid(grid_size)
        if c_hat is None:
            c_hat = draw_c_hat(gamma_eff, grid_size, seed)
        c_hat_arr = np.asarray(c_hat, dtype=np.float64)
        if c_hat_arr.shape != c.shape:
            raise UserError(f"need one c_hat per grid point ({c.size}), got {c_hat_arr.shape}")
        return float(np.mean(sel.loss(c_hat_arr, c)))
    raise UserError(f"unknown estimator {estimator!r}; choose from {', '.join(ESTIMATORS)}")


def draw_c_hat(
    gamma: float, grid_size: int = PAPER_GRID_SIZE, seed: int | None = None
) -> FloatArray:
    """One presumed cost per grid point ``i/grid_size``, from a generator seeded with ``seed``."""
    rng = np.random.default_rng(seed)
    return Uncertainty(gamma).sample(paper_grid(grid_size), rng)


def expected_cost_curve(sel: Selection, gamma: float, c: ArrayLike) -> FloatArray:
    """``K(c) = E[Q(T(c_hat); c) | c]`` at each true cost in ``c`` (for plots and checks)."""
    c_arr = np.asarray(c, dtype=np.float64)
    gamma_eff = _effective_gamma(sel, gamma)
    unc = Uncertainty(gamma_eff)
    if unc.is_exact:
        return sel.loss(c_arr, c_arr)
    edges = _segment_edges(sel)
    out = np.empty(c_arr.size)
    a = sel.coef
    step = max(1, 2_000_000 // edges.size)
    for lo in range(0, c_arr.size, step):
        cc = c_arr.ravel()[lo : lo + step]
        v = unc.cdf(edges[:, None], cc[None, :])
        dv = np.diff(v, axis=0)
        k = (a[:, 0:1] + a[:, 1:2] * cc[None, :]) * dv
        if sel.interpolating:
            if sel.input_map is None:
                dm = np.diff(unc.partial_mean(edges[:, None], cc[None, :]), axis=0)
            else:
                dm = _mapped_moments(
                    sel,
                    edges,
                    v.T,
                    lambda x, w, cc=cc: unc.cdf(x[None, :], cc[:, None]),
                    min(_PANEL, 0.5 / math.sqrt(unc.gamma + 1.0)),
                ).T
            k += (a[:, 2:3] + a[:, 3:4] * cc[None, :]) * dm
        out[lo : lo + step] = k.sum(axis=0)
    return out.reshape(c_arr.shape)
