"""Beliefs about the true cost proportion: the density ``w(c)`` of ``L = integral K(c) w(c) dc``.

The paper takes ``c`` uniform on [0, 1]. A :class:`CostDistribution` is one of

``uniform``
    ``w = 1`` on [0, 1] (the paper's; the default). ``uniform:0,1`` is the same.
``beta:A,B``
    ``w(c) = c**(A-1) (1-c)**(B-1) / B(A, B)``, ``A, B >= 1`` (``beta:2,2``: Hand's H-measure
    default prior; ``beta:1,1`` is ``uniform``, computed by the general path).
``uniform:LO,HI``
    uniform on ``[LO, HI]``: the clinician who knows the threshold lies between 5% and 20%
    writes ``uniform:0.05,0.2``; at ``gamma = inf`` score-driven then gives the bounded
    Brier score (see :mod:`threshold_choice.metrics`).
``logit-uniform:LO,HI``
    ``w(c) = 1 / (Z c (1 - c))`` on ``[LO, HI]``, ``Z = logit(HI) - logit(LO)``: uniform in
    the log-odds of ``c``, the log-loss weighting restricted to a range (LO > 0, HI < 1).

Everything the engine needs is closed-form: the partial moments
``M_k(x) = integral_0^x c**k w(c) dc`` (``k <= 3``), the sup of the density (for the
large-gamma error bound of :mod:`threshold_choice.uncertainty`), the probability of each cell
of the paper's grid (the ``grid`` and ``montecarlo`` estimators weight grid point
``i/N`` by the mass of ``((i-1)/N, i/N]``, which is ``1/N`` for ``uniform``).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from threshold_choice._checks import number_in
from threshold_choice._typing import FloatArray
from threshold_choice.errors import UserError

Kind = Literal["uniform", "beta", "logit-uniform"]

#: the kinds of :func:`parse_cost_distribution`'s specs, for messages and the config schema
SPEC_FORMS: tuple[str, ...] = ("uniform", "beta:A,B", "uniform:LO,HI", "logit-uniform:LO,HI")
#: a regular expression the spec strings match (the config schema's pattern)
SPEC_PATTERN = (
    r"^(uniform|beta:[0-9.eE+-]+,[0-9.eE+-]+|uniform:[0-9.eE+-]+,[0-9.eE+-]+"
    r"|logit-uniform:[0-9.eE+-]+,[0-9.eE+-]+)$"
)
#: the moment tables cover logit(c) in [-30, 30]; logit-uniform ranges must lie inside
LOGIT_RANGE = 30.0
#: Beta shapes above this make ``w`` too peaked for the tables' resolution (checked to 1e-9)
MAX_BETA_SHAPE = 200.0


@dataclass(frozen=True)
class CostDistribution:
    """A probability density ``w`` on the true cost proportion ``c`` (a belief about it).

    The expected loss is ``L = integral K(c) w(c) dc``; the paper's ``w`` is uniform on
    [0, 1] (``kind="uniform"``, ``p, q = 0, 1``), on which every number is the paper's. The
    kinds are those of the module docstring: ``beta:A,B``, ``uniform:LO,HI`` and
    ``logit-uniform:LO,HI``. Build with :func:`parse_cost_distribution` from a spec, or with
    :func:`beta_from_interval`.

    Parameters
    ----------
    kind : {"uniform", "beta", "logit-uniform"}, default="uniform"
        The family.
    p : float, default=0.0
        ``A`` for ``beta`` (``1 <= A <= 200``); ``LO`` for the two bounded kinds.
    q : float, default=1.0
        ``B`` for ``beta`` (``1 <= B <= 200``); ``HI`` for the two bounded kinds
        (``0 <= LO < HI <= 1``; for ``logit-uniform`` within ``expit(+-30)``).

    Attributes
    ----------
    spec : str
        The canonical spec (``"uniform"``, ``"beta:2,2"``, ``"uniform:0.05,0.2"``), the text
        the workflow's ``cost_distribution`` and the command line take.
    mean : float
        ``E[c]`` (1/2 for the uniform).
    support : tuple of float
        ``(LO, HI)``, or ``(0, 1)`` for ``beta``.
    is_standard_uniform : bool
        ``w = 1`` on [0, 1], the paper's.
    is_bounded : bool
        A range other than [0, 1] (``w`` jumps at its ends).

    Raises
    ------
    UserError
        For parameters outside the ranges above, or an unknown kind.

    See Also
    --------
    parse_cost_distribution : A distribution from its spec.
    beta_from_interval : A Beta belief from an interval and the probability it holds.

    Examples
    --------
    >>> from threshold_choice import parse_cost_distribution
    >>> w = parse_cost_distribution("uniform:0.05,0.2")
    >>> w.kind, w.support, w.mean
    ('uniform', (0.05, 0.2), 0.125)
    >>> [round(v, 4) for v in w.pdf([0.1, 0.3]).tolist()]  # 1 / (HI - LO) inside, 0 outside
    [6.6667, 0.0]
    >>> float(parse_cost_distribution("beta:2,2").cdf(0.5))
    0.5
    """

    kind: Kind = "uniform"
    #: ``A, B`` for ``beta``; ``LO, HI`` for the two bounded kinds
    p: float = 0.0
    q: float = 1.0

    def __post_init__(self) -> None:
        p, q = float(self.p), float(self.q)
        if not (math.isfinite(p) and math.isfinite(q)):
            raise UserError(f"cost distribution {self.spec}: parameters must be finite numbers")
        if self.kind == "beta":
            if not (1.0 <= p <= MAX_BETA_SHAPE and 1.0 <= q <= MAX_BETA_SHAPE):
                raise UserError(
                    f"cost distribution {self.spec}: beta:A,B needs 1 <= A, B <= "
                    f"{MAX_BETA_SHAPE:g} (a bounded density; e.g. beta:2,2)"
                )
        elif self.kind == "uniform":
            if not 0.0 <= p < q <= 1.0:
                raise UserError(
                    f"cost distribution {self.spec}: uniform:LO,HI needs 0 <= LO < HI <= 1"
                )
        elif self.kind == "logit-uniform":
            lo, hi = _expit(-LOGIT_RANGE), _expit(LOGIT_RANGE)
            if not lo <= p < q <= hi:
                raise UserError(
                    f"cost distribution {self.spec}: logit-uniform:LO,HI needs "
                    f"{lo:.3g} <= LO < HI <= 1 - {lo:.3g}"
                )
        else:
            raise UserError(f"unknown cost distribution kind {self.kind!r}")

    # -- identity --------------------------------------------------------------------------
    @property
    def spec(self) -> str:
        """The canonical spec string (``uniform``, ``beta:2,2``, ``uniform:0.05,0.2``...)."""
        if self.is_standard_uniform:
            return "uniform"
        return f"{self.kind}:{_number(self.p)},{_number(self.q)}"

    def __str__(self) -> str:
        return self.spec

    @property
    def is_standard_uniform(self) -> bool:
        """``w = 1`` on [0, 1], computed by the paper's (unchanged) code paths."""
        return self.kind == "uniform" and self.p == 0.0 and self.q == 1.0

    @property
    def is_bounded(self) -> bool:
        """A range ``[LO, HI]`` other than [0, 1] (the density jumps at its ends)."""
        return self.kind != "beta" and not self.is_standard_uniform

    @property
    def support(self) -> tuple[float, float]:
        return (0.0, 1.0) if self.kind == "beta" else (float(self.p), float(self.q))

    @property
    def jumps(self) -> tuple[float, ...]:
        """Points in (0, 1) where ``w`` jumps (the ends of a bounded range)."""
        return tuple(x for x in self.support if 0.0 < x < 1.0) if self.is_bounded else ()

    @cached_property
    def _logit_width(self) -> float:
        from scipy.special import logit

        return float(logit(self.q) - logit(self.p))

    # -- the density ---------------------------------------------------------------------
    def pdf(self, c: ArrayLike) -> FloatArray:
        """``w(c)``; 0 outside the support."""
        from scipy.special import betaln, xlog1py, xlogy

        c_arr = np.asarray(c, dtype=np.float64)
        lo, hi = self.support
        inside = (c_arr >= lo) & (c_arr <= hi)
        if self.kind == "beta":
            with np.errstate(divide="ignore", invalid="ignore"):
                # xlogy: 0 log 0 = 0, so beta:1,1 is 1 at c = 0 and 1 (not 0 * -inf = nan)
                log_w = (
                    xlogy(self.p - 1, c_arr)
                    + xlog1py(self.q - 1, -c_arr)
                    - betaln(self.p, self.q)
                )
            out = np.exp(np.where(inside, log_w, -np.inf))
        elif self.kind == "uniform":
            out = np.full(c_arr.shape, 1.0 / (hi - lo))
        else:
            with np.errstate(divide="ignore"):
                out = 1.0 / (self._logit_width * c_arr * (1.0 - c_arr))
        return np.where(inside, out, 0.0)

    def log_pdf(self, c: FloatArray, c1: FloatArray) -> FloatArray:
        """``log w(c)`` at points inside the support, given ``c`` and ``c1 = 1 - c`` (each
        accurate near its end)."""
        from scipy.special import betaln

        if self.kind == "beta":
            return (self.p - 1) * np.log(c) + (self.q - 1) * np.log(c1) - betaln(self.p, self.q)
        if self.kind == "uniform":
            return np.full(np.shape(c), -math.log(self.q - self.p))
        return -math.log(self._logit_width) - np.log(c) - np.log(c1)

    def log_weight_logit(self, t: FloatArray) -> FloatArray:
        """``log(w(c) dc/dt)`` at ``c = expit(t)`` (the weight of quadrature in logit(c));
        ``-inf`` outside the support."""
        from scipy.special import betaln, expit, log_expit

        lc, l1c = log_expit(t), log_expit(-t)
        if self.kind == "beta":
            return self.p * lc + self.q * l1c - betaln(self.p, self.q)
        lo, hi = self.support
        c = expit(t)
        inside = (c >= lo) & (c <= hi)
        if self.kind == "uniform":
            value = lc + l1c - math.log(hi - lo)
        else:
            value = np.full(np.shape(t), -math.log(self._logit_width))
        return np.where(inside, value, -np.inf)

    @cached_property
    def sup_density(self) -> float:
        """``max w`` (finite: beta shapes >= 1, logit-uniform away from 0 and 1)."""
        if self.kind == "uniform":
            return 1.0 / (self.q - self.p)
        if self.kind == "logit-uniform":
            # c (1 - c) is concave: its minimum over [LO, HI] is at an end
            return 1.0 / (self._logit_width * min(self.p * (1 - self.p), self.q * (1 - self.q)))
        a, b = self.p, self.q
        if a == 1.0 and b == 1.0:
            return 1.0
        mode = (a - 1) / (a + b - 2)
        return float(self.pdf(mode))

    # -- integrals -----------------------------------------------------------------------
    def partial_moment(self, k: int, x: ArrayLike) -> FloatArray:
        """``integral_0^x c**k w(c) dc`` for ``k`` in 0..3, at each ``x`` (clipped to [0, 1])."""
        if k not in (0, 1, 2, 3):
            raise ValueError("k must be 0, 1, 2 or 3")
        xc = np.clip(np.asarray(x, dtype=np.float64), 0.0, 1.0)
        if self.kind == "beta":
            from scipy.special import betainc

            a, b = self.p, self.q
            ratio = math.prod((a + j) / (a + b + j) for j in range(k))  # B(a+k, b) / B(a, b)
            return ratio * betainc(a + k, b, xc)
        lo, hi = self.support
        xs = np.clip(xc, lo, hi)
        if self.kind == "uniform":
            return (xs ** (k + 1) - lo ** (k + 1)) / ((k + 1) * (hi - lo))
        return (_logit_antiderivative(k, xs) - _logit_antiderivative(k, np.float64(lo))) / (
            self._logit_width
        )

    @cached_property
    def moments(self) -> FloatArray:
        """``E[c**k]``, ``k = 0..3``."""
        return np.array([float(self.partial_moment(k, 1.0)) for k in range(4)])

    @property
    def mean(self) -> float:
        """``E[c]`` under the belief (1/2 for ``uniform``)."""
        return float(self.moments[1])

    def cdf(self, x: ArrayLike) -> FloatArray:
        return self.partial_moment(0, x)

    def cell_masses(self, grid_size: int) -> FloatArray:
        """The probability of each cell ``((i-1)/N, i/N]`` of the grid ``c = i/N``: the
        weights of the ``grid`` and ``montecarlo`` estimators (``1/N`` each for uniform)."""
        edges = np.arange(grid_size + 1, dtype=np.float64) / grid_size
        return np.diff(self.cdf(edges))


def _number(x: float) -> str:
    """Shortest round-tripping text of ``x`` (``2.0`` -> ``'2'``; ``1e300`` stays ``'1e+300'``,
    not a 301-digit integer)."""
    return str(int(x)) if float(x).is_integer() and abs(x) < 1e16 else repr(float(x))


def _expit(x: float) -> float:
    """The logistic function of a number (no scipy: importing it costs more than this)."""
    return 1.0 / (1.0 + math.exp(-x))


def _logit_antiderivative(k: int, x: FloatArray) -> FloatArray:
    """An antiderivative of ``c**k / (c (1 - c))`` (``k = 0..3``) at ``x`` in (0, 1)."""
    tail = -np.log1p(-x)  # antiderivative of 1 / (1 - c)
    if k == 0:
        return np.log(x) + tail
    if k == 1:
        return tail
    if k == 2:
        return tail - x
    return tail - x - x * x / 2.0


UNIFORM = CostDistribution()

_SPEC = re.compile(r"^\s*(uniform|beta|logit-uniform)\s*(?::(.*))?$")


def parse_cost_distribution(spec: str | CostDistribution | None) -> CostDistribution:
    """Parse a belief about the true cost proportion from its spec.

    Parameters
    ----------
    spec : str, CostDistribution or None
        ``"uniform"`` (or ``None``, or ``"uniform:0,1"``: the paper's), ``"beta:A,B"``,
        ``"uniform:LO,HI"`` or ``"logit-uniform:LO,HI"`` (blanks around the parts allowed);
        a :class:`CostDistribution` is returned as it is.

    Returns
    -------
    CostDistribution
        The distribution; ``None`` and every spec of the uniform on [0, 1] give the same
        object, ``UNIFORM``.

    Raises
    ------
    UserError
        With a one-line message naming the forms, for a spec that is not one of them or
        whose numbers are out of range.

    See Also
    --------
    CostDistribution : The distribution and its parameters' ranges.

    Examples
    --------
    >>> from threshold_choice import parse_cost_distribution
    >>> parse_cost_distribution("beta:2,2")
    CostDistribution(kind='beta', p=2.0, q=2.0)
    >>> parse_cost_distribution("uniform:0,1").spec
    'uniform'
    >>> parse_cost_distribution("beta:2")
    Traceback (most recent call last):
    ...
    threshold_choice.errors.UserError: cost distribution 'beta:2' needs two numbers: beta:A,B
    """
    if spec is None:
        return UNIFORM
    if isinstance(spec, CostDistribution):
        return spec
    if not isinstance(spec, str):
        raise UserError(
            f"cost distribution must be a string such as {', '.join(SPEC_FORMS)}; got {spec!r}"
        )
    match = _SPEC.match(spec)
    if match is None:
        raise UserError(
            f"cost distribution {spec!r} not understood; write one of {', '.join(SPEC_FORMS)} "
            "(e.g. beta:2,2 or uniform:0.05,0.2)"
        )
    kind, params = match.groups()
    if params is None:
        if kind != "uniform":
            form = "A,B" if kind == "beta" else "LO,HI"
            raise UserError(f"cost distribution {spec!r} needs two parameters: {kind}:{form}")
        return UNIFORM
    parts = [part.strip() for part in params.split(",")]
    try:
        if len(parts) != 2:
            raise ValueError
        p, q = float(parts[0]), float(parts[1])
    except ValueError:
        form = "A,B" if kind == "beta" else "LO,HI"
        raise UserError(
            f"cost distribution {spec!r} needs two numbers: {kind}:{form}"
        ) from None
    dist = CostDistribution(kind, p, q)  # type: ignore[arg-type]
    return UNIFORM if dist.is_standard_uniform else dist


def beta_from_interval(low: float, high: float, mass: float = 0.9) -> CostDistribution:
    """Return the Beta belief about ``c`` centred on an interval that holds a given mass.

    "``c`` is 0.8, give or take 0.1, 90% sure" is ``beta_from_interval(0.7, 0.9, 0.9)``:
    the ``beta:A,B`` whose mean is the middle of ``[low, high]`` and which puts ``mass`` of
    its probability there.

    Parameters
    ----------
    low : float
        The interval's lower end, ``0 <= low < high``.
    high : float
        The interval's upper end, ``high <= 1``.
    mass : float, default=0.9
        The probability the belief puts on ``[low, high]``, in (0, 1).

    Returns
    -------
    CostDistribution
        A ``beta`` distribution, ``A`` and ``B`` to 6 significant digits (its ``spec`` is
        the text the workflow's ``cost_distribution`` takes).

    Raises
    ------
    UserError
        For an interval or mass out of range, or when no Beta with
        ``1 <= A, B <= MAX_BETA_SHAPE`` (200) fits: an interval too wide (use
        ``uniform:LO,HI``) or too narrow for the moment tables.

    See Also
    --------
    threshold_choice.gamma_for_spread : The other knob: how far ``c_hat`` is from ``c``.

    Examples
    --------
    >>> from threshold_choice import beta_from_interval
    >>> belief = beta_from_interval(0.7, 0.9, 0.9)
    >>> belief.spec
    'beta:32.593,8.14825'
    >>> round(belief.mean, 4), round(float(belief.cdf(0.9) - belief.cdf(0.7)), 4)
    (0.8, 0.9)
    """
    from scipy.optimize import brentq
    from scipy.special import betainc

    low = number_in(low, "the interval's lower end low", 0.0, 1.0, closed="both")
    high = number_in(high, "the interval's upper end high", 0.0, 1.0, closed="both")
    if not low < high:
        raise UserError(f"the interval needs low < high, got [{low}, {high}]")
    mass = number_in(mass, "mass, the probability the belief puts on [low, high],", 0.0, 1.0)
    middle = (low + high) / 2.0

    def inside(k: float) -> float:  # the mass in [low, high] of Beta(middle k, (1-middle) k)
        a, b = middle * k, (1.0 - middle) * k
        return float(betainc(a, b, high) - betainc(a, b, low)) - mass

    flattest = max(1.0 / middle, 1.0 / (1.0 - middle))  # A, B >= 1
    sharpest = MAX_BETA_SHAPE / max(middle, 1.0 - middle)
    if inside(flattest) > 0.0:
        raise UserError(
            f"[{low}, {high}] holds more than {mass} of even the flattest Beta belief with mean "
            f"{middle:g}: a belief this vague is better written uniform:{low:g},{high:g}"
        )
    if inside(sharpest) < 0.0:
        raise UserError(
            f"[{low}, {high}] is too narrow to hold {mass} of a Beta belief the moment tables "
            f"resolve (A, B <= {MAX_BETA_SHAPE:g}); widen it, or state c exactly (gamma = inf "
            "with the uniform belief)"
        )
    k = brentq(inside, flattest, sharpest, xtol=1e-12)
    return parse_cost_distribution(f"beta:{middle * k:.6g},{(1.0 - middle) * k:.6g}")


#: the scales :func:`cost_weight_density` draws a belief on
WEIGHT_SCALES: tuple[str, ...] = ("cost", "log-odds")


def cost_weight_density(
    distribution: str | CostDistribution | None,
    x: ArrayLike,
    scale: Literal["cost", "log-odds"] = "cost",
) -> FloatArray:
    """Return the density of a belief about ``c``, on the cost proportion or its log-odds.

    A scoring rule that averages the regret over costs weights each cost by a density (paper
    ``002_...``, Figs 2 and 3): the Brier score by ``uniform`` (``beta:1,1``), Hand's
    H-measure by ``beta:2,2``, the log loss by ``logit-uniform`` as its bounds go to 0 and
    1. Which of them is "flat" depends on the scale: on ``c`` the density is ``w(c)``; on
    the log-odds ``z = logit(c) = log(c / (1 - c))`` it is the change of variables
    ``w(expit(z)) expit(z) (1 - expit(z))``, which makes the Brier score's the logistic
    density ``1 / (4 cosh(z / 2)**2)`` and the log loss's flat.

    Parameters
    ----------
    distribution : str, CostDistribution or None
        The belief, as :func:`parse_cost_distribution` takes it (``None``: ``uniform``).
    x : array-like of float
        Where to evaluate: cost proportions (``scale="cost"``) or their log-odds
        (``scale="log-odds"``, any reals, infinities included).
    scale : {"cost", "log-odds"}, default="cost"
        The variable the density is of.

    Returns
    -------
    numpy.ndarray
        The density at each ``x``, of ``x``'s shape; 0 outside the support (at an end of a
        bounded range, the density inside it), NaN at NaN.

    Raises
    ------
    UserError
        For an unknown ``scale`` or an invalid distribution spec (a point mass, such as
        accuracy's at ``c = 1/2``, has no density).

    See Also
    --------
    CostDistribution.pdf : The density on ``c``.
    threshold_choice.plotting.CostWeightDisplay : Draws these densities (paper 002, Figs 2
        and 3).

    Examples
    --------
    >>> from threshold_choice import cost_weight_density
    >>> [round(v, 4) for v in cost_weight_density("uniform", [0.1, 0.5]).tolist()]
    [1.0, 1.0]
    >>> [round(v, 4) for v in cost_weight_density("uniform", [0.0, 2.0], "log-odds").tolist()]
    [0.25, 0.105]
    >>> [round(v, 4) for v in cost_weight_density("beta:2,2", [0.0, 2.0], "log-odds").tolist()]
    [0.375, 0.0661]
    >>> flat = cost_weight_density("logit-uniform:0.001,0.999", [-5.0, 0.0, 5.0], "log-odds")
    >>> [round(v, 4) for v in flat.tolist()]  # 1 / (logit(0.999) - logit(0.001))
    [0.0724, 0.0724, 0.0724]
    """
    if scale not in WEIGHT_SCALES:
        raise UserError(f"scale must be one of {', '.join(WEIGHT_SCALES)}; got {scale!r}")
    dist = parse_cost_distribution(distribution)
    values = np.asarray(x, dtype=np.float64)
    if scale == "cost":
        density = dist.pdf(values)
    else:
        with np.errstate(divide="ignore", invalid="ignore"):
            density = np.exp(dist.log_weight_logit(values))
    return np.where(np.isnan(values), np.nan, density)


__all__ = [
    "SPEC_FORMS",
    "SPEC_PATTERN",
    "UNIFORM",
    "WEIGHT_SCALES",
    "CostDistribution",
    "beta_from_interval",
    "cost_weight_density",
    "parse_cost_distribution",
]
