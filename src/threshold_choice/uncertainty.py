"""The operating-condition uncertainty model: ``c_hat`` given the true cost ``c``.

The presumed cost proportion given to a threshold choice method is
``c_hat | c ~ Beta(gamma * c + 1, gamma * (1 - c) + 1)`` (mode ``c``, certainty ``gamma``):
``gamma = inf`` means ``c_hat = c`` and ``gamma = 0`` means ``c_hat ~ Uniform(0, 1)``. This
module holds the model (:class:`Uncertainty`), the spellings of ``gamma``
(:func:`parse_gamma`, :func:`format_gamma`, :func:`gamma_label`), the paper's values
(:data:`PAPER_GAMMAS`, :data:`PAPER_GRID_SIZE`) and the choice of ``gamma`` from a spread
(:func:`gamma_for_spread`); the integrals the model induces over the true costs, the moment
tables of the exact engine, are :mod:`threshold_choice.moment_tables`.

From ``gamma >= certainty_limit(w)`` on (``3.2e25 max(1, sup w)**2``) the ``gamma = inf``
value is used: for every method of this package the loss at a fixed ``c`` has total
variation at most 2 in ``c_hat`` (its false positive and false negative parts are monotone),
so ``|L(gamma) - L(inf)| <= 2 sup(w) sup_x integral |P(c_hat <= x | c) - 1{c <= x}| dc
<= 8 sup(w) sqrt(max_c E[(c_hat - c)**2 | c]) <= 8 sup(w) / sqrt(2 gamma)`` (Chebyshev;
``E[(c_hat - c)**2] <= 1/(4 gamma) + 1/gamma**2``), which is below 1e-12 there.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from scipy.special import betainc, betaln, xlogy

from threshold_choice._checks import number_in
from threshold_choice._typing import FloatArray
from threshold_choice.cost_distributions import UNIFORM, CostDistribution
from threshold_choice.errors import UserError

#: the paper's grid of true costs: c = i/1000, i = 1..1000
PAPER_GRID_SIZE = 1000
#: the largest grid the grid and Monte Carlo estimators accept (their cost is linear in it)
MAX_GRID_SIZE = 100_000
#: The paper's certainty levels gamma (Sect. 6.2), ``(inf, 16, 8, 4, 2, 1, 0)``, from an
#: exactly known cost proportion (``inf``: ``c_hat = c``) to none (``0``: ``c_hat`` uniform on
#: [0, 1]), with ``c_hat | c ~ Beta(gamma c + 1, gamma (1 - c) + 1)``. The library's default
#: certainties (e.g. of :func:`~threshold_choice.evaluation.expected_losses`).
PAPER_GAMMAS: tuple[float, ...] = (math.inf, 16.0, 8.0, 4.0, 2.0, 1.0, 0.0)
def parse_gamma(value: str | float) -> float:
    """Parse a certainty level gamma.

    Parameters
    ----------
    value : str or float
        A number >= 0, or infinity: ``inf``, ``Inf``, ``infinity`` (any spelling Python's
        ``float`` accepts, surrounding blanks allowed) or ``math.inf``.

    Returns
    -------
    float
        The certainty, in ``[0, inf]``.

    Raises
    ------
    UserError
        If ``value`` is not a number, is NaN or is negative.

    See Also
    --------
    Uncertainty : The uncertainty model gamma parametrises.

    Examples
    --------
    >>> from threshold_choice import parse_gamma
    >>> parse_gamma("inf"), parse_gamma("Infinity"), parse_gamma(" 16 "), parse_gamma(4)
    (inf, inf, 16.0, 4.0)
    >>> parse_gamma("-1")
    Traceback (most recent call last):
    ...
    threshold_choice.errors.UserError: gamma must be a number >= 0 or 'inf', got '-1'
    """
    if isinstance(value, bool | np.bool_):  # True is not the number 1 here
        raise UserError(f"gamma must be a number >= 0 or 'inf', got {value!r}")
    try:
        gamma = float(value)
    except (TypeError, ValueError):
        raise UserError(f"gamma must be a number >= 0 or 'inf', got {value!r}") from None
    if math.isnan(gamma) or gamma < 0:
        raise UserError(f"gamma must be a number >= 0 or 'inf', got {value!r}")
    return gamma


def format_gamma(gamma: float) -> str:
    """``inf`` -> ``'inf'``, integral values without decimals (``16.0`` -> ``'16'``; from
    1e16 on in exponent form, ``'1e+300'``)."""
    if math.isinf(gamma):
        return "inf"
    if float(gamma).is_integer() and gamma < 1e16:
        return str(int(gamma))
    return repr(float(gamma))  # '0.5', '1e+300'


def gamma_label(gamma: str | float) -> str:
    """The certainty level as written in file names and config labels, from a number or a
    string: ``inf``, ``16``, ``0``, ``0.5`` (:func:`format_gamma` of :func:`parse_gamma`)."""
    return format_gamma(parse_gamma(gamma))


_BETA_SAMPLER_MAX = 1e15


def certainty_limit(distribution: CostDistribution = UNIFORM) -> float:
    """The ``gamma`` from which the exact estimator uses the ``gamma = inf`` value: there
    ``|L(gamma) - L(inf)| <= 8 sup(w) / sqrt(2 gamma) <= 1e-12`` (module docstring)."""
    return 3.2e25 * max(1.0, distribution.sup_density) ** 2


@dataclass(frozen=True)
class Uncertainty:
    """The paper's model of the presumed cost proportion ``c_hat`` given the true one ``c``.

    ``c_hat | c ~ Beta(gamma * c + 1, gamma * (1 - c) + 1)``: its mode is ``c``, and the
    certainty ``gamma`` sets its spread, from ``gamma = inf`` (``c_hat = c``) to
    ``gamma = 0`` (``c_hat`` uniform on [0, 1], no information about ``c``).

    Parameters
    ----------
    gamma : float
        The certainty, in ``[0, inf]``.

    Attributes
    ----------
    is_exact : bool
        ``gamma = inf``: ``c_hat = c``.
    is_uninformed : bool
        ``gamma = 0``: ``c_hat`` uniform whatever ``c``.

    Raises
    ------
    UserError
        If ``gamma`` is not a number >= 0 (see :func:`parse_gamma`).

    See Also
    --------
    gamma_for_spread : The gamma of a given spread of ``c_hat``.

    Examples
    --------
    >>> from threshold_choice import Uncertainty
    >>> u = Uncertainty(4.0)
    >>> [round(float(v), 4) for v in u.alpha_beta(0.8)]  # Beta(4 * 0.8 + 1, 4 * 0.2 + 1)
    [4.2, 1.8]
    >>> round(float(u.cdf(0.8, c=0.8)), 4)  # P(c_hat <= 0.8 | c = 0.8)
    0.6684
    >>> round(float(u.partial_mean(1.0, c=0.8)), 4)  # E[c_hat | c] = (4 c + 1) / 6
    0.7
    >>> Uncertainty(float("inf")).is_exact, Uncertainty(0.0).is_uninformed
    (True, True)
    """

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
        if self.gamma <= _BETA_SAMPLER_MAX:
            return rng.beta(a, b)
        # numpy's Beta sampler (a ratio of Gamma draws) loses its precision beyond ~1e16; the
        # normal with the Beta's mean and variance is then within O(1/sqrt(gamma c)) < 1e-7 of
        # it in distribution, far below the estimator's own sampling noise
        n = a + b
        mean = a / n
        sd = np.sqrt(mean * (b / n) / (n + 1.0))  # the Beta's variance, without overflow
        return np.clip(mean + sd * rng.standard_normal(c_arr.shape), 0.0, 1.0)

    def pdf(self, x: ArrayLike, c: ArrayLike) -> FloatArray:
        """The density of ``c_hat`` at ``x`` given ``c``, broadcast over ``x`` and ``c``; 0
        outside [0, 1]. Finite ``gamma`` only (at ``gamma = inf``, ``c_hat = c``: no
        density)."""
        if self.is_exact:
            raise UserError("at gamma = inf, c_hat = c: it has no density (a point mass)")
        x_arr, c_arr = np.broadcast_arrays(np.asarray(x, float), np.asarray(c, float))
        a, b = self.alpha_beta(c_arr)
        inside = (x_arr >= 0.0) & (x_arr <= 1.0)
        xc = np.clip(x_arr, 0.0, 1.0)
        # xlogy: 0 log 0 = 0, so the ends are right for a or b = 1
        log_pdf = np.asarray(xlogy(a - 1.0, xc) + xlogy(b - 1.0, 1.0 - xc) - betaln(a, b))
        if self.gamma > _GAMMA_NAIVE_DENSITY:
            # those terms of size gamma cancel (all accuracy lost by 1e16): Loader's form
            from threshold_choice import beta_kernel

            interior = (xc > 0.0) & (xc < 1.0) & (c_arr > 0.0) & (c_arr < 1.0)
            xi, ci = xc[interior], c_arr[interior]
            log_pdf[interior] = beta_kernel.log_density(self.gamma, xi, 1.0 - xi, ci, 1.0 - ci,
                                                        ci - xi)
        return np.where(inside, np.exp(log_pdf), 0.0)

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


def check_grid_size(grid_size: int, name: str = "grid_size") -> None:
    """Reject grids the estimators cannot serve (before anything is allocated); ``name`` is
    how the caller's user spells the parameter (``--grid-size`` on the command line)."""
    if isinstance(grid_size, bool) or not isinstance(grid_size, int | np.integer):
        raise UserError(f"{name} must be a whole number (the points of the grid of true costs; "
                        f"the paper's {PAPER_GRID_SIZE}), got {grid_size!r}")
    if grid_size < 1:
        raise UserError(f"{name} must be >= 1 (the points of the grid of true costs; the "
                        f"paper's {PAPER_GRID_SIZE}), got {grid_size}")
    if grid_size > MAX_GRID_SIZE:
        raise UserError(
            f"{name} {grid_size} is above the maximum {MAX_GRID_SIZE}: the grid estimators "
            "cost time and memory in proportion; use the exact estimator for the limit"
        )


def check_seed(seed: object, name: str = "seed", *, allow_none: bool = True) -> int | None:
    """``seed`` as an int after checking it is a whole number >= 0 (what
    :func:`numpy.random.default_rng` takes; a float such as 1.5 would be truncated by some
    paths and refused by others), or None where ``allow_none``; ``name`` is how the caller's
    user spells the parameter (``--seed`` on the command line)."""
    if seed is None and allow_none:
        return None
    if (isinstance(seed, bool) or not isinstance(seed, int | np.integer)
            or seed < 0):
        also = " or None" if allow_none else ""
        raise UserError(f"{name} must be a whole number >= 0{also}, got {seed!r}; e.g. "
                        f"{name}{' ' if name.startswith('--') else '='}0")
    return int(seed)


#: above it :meth:`Uncertainty.pdf` takes the saddle-point form of the density
#: (:mod:`threshold_choice.beta_kernel`): the naive one loses 1e-10 relative by 1e6
_GAMMA_NAIVE_DENSITY = 1000.0


def gamma_for_spread(c: float, spread: float) -> float:
    """Return the certainty gamma at which ``c_hat`` has a given spread around ``c``.

    The presumed ``c_hat ~ Beta(gamma c + 1, gamma (1 - c) + 1)`` has its mode at the true
    ``c``; its standard deviation falls from ``1/sqrt(12)`` (0.289, no information) at
    ``gamma = 0`` to 0 at ``gamma = inf``. "Our ``c_hat`` is typically 0.05 off at
    ``c = 0.8``" is ``gamma_for_spread(0.8, 0.05)``.

    Parameters
    ----------
    c : float
        The true cost proportion, in (0, 1).
    spread : float
        The standard deviation of ``c_hat`` given ``c``, in ``(0, 1/sqrt(12)]``.

    Returns
    -------
    float
        The certainty gamma (0 for the largest spread), found by root finding to a
        relative tolerance of 1e-12.

    Raises
    ------
    UserError
        If ``c`` is not in (0, 1) or ``spread`` not in ``(0, 1/sqrt(12)]``.

    See Also
    --------
    Uncertainty : The model of ``c_hat`` given ``c``.
    threshold_choice.beta_from_interval : The other knob: the belief about ``c`` itself.

    Examples
    --------
    >>> from threshold_choice import gamma_for_spread
    >>> round(gamma_for_spread(0.8, 0.05), 2)
    63.18
    >>> gamma_for_spread(0.5, 12 ** -0.5)  # no information
    0.0
    """
    from scipy.optimize import brentq

    most = 1.0 / math.sqrt(12.0)
    c = number_in(c, "c, the true cost proportion,", 0.0, 1.0)
    spread = number_in(spread, "the spread of c_hat", 0.0, most, closed="high", allowed=(
        f"(0, {most:.4f}] (gamma = 0 gives {most:.4f}: no information; gamma = inf gives 0)"))

    def sd(gamma: float) -> float:
        a, b = gamma * c + 1.0, gamma * (1.0 - c) + 1.0
        return math.sqrt((a / (a + b)) * (b / (a + b)) / (a + b + 1.0))  # no overflow

    if sd(0.0) <= spread:
        return 0.0
    upper = 1e15
    while sd(upper) > spread:  # sd ~ sqrt(c (1 - c) / gamma): a spread of 1e-150 by 1e300
        if upper >= 1e300:
            raise UserError(f"a spread of {spread:g} needs a gamma beyond the floats' range: "
                            "give gamma = inf (c_hat = c)")
        upper *= 1e15
    return float(brentq(lambda g: sd(g) - spread, 0.0, upper, xtol=1e-12, rtol=1e-12))


__all__ = [
    "MAX_GRID_SIZE",
    "PAPER_GAMMAS",
    "PAPER_GRID_SIZE",
    "Uncertainty",
    "certainty_limit",
    "check_grid_size",
    "check_seed",
    "format_gamma",
    "gamma_for_spread",
    "gamma_label",
    "parse_gamma",
]
