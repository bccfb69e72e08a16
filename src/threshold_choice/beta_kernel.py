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
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import NDArray
from scipy.special import gammaln, xlogy

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


__all__ = [
    "NODES",
    "PANELS",
    "WINDOW",
    "deviance",
    "log_density",
    "panel_rule",
    "theta_of",
    "theta_of_logit",
    "window",
]
