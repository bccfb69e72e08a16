"""How a threshold choice method is represented: a :class:`Selection` of cost lines.

A threshold choice method maps a presumed cost proportion ``c_hat`` to a threshold, i.e. to
one of the cost lines of the test scores (or, for rate-driven, to an interpolation between two
adjacent lines). Because the selected line changes only at finitely many ``c_hat`` (Lemma 1 /
Theorem 1 of Ferri et al. 2019), every method is represented by a :class:`Selection`: break
points ``x_1 <= ... <= x_{S-1}`` in ``c_hat`` and, on each segment ``s``, a loss of the form

``loss(c_hat, c) = a00 + a10 * c + (a01 + a11 * c) * phi(c_hat)``

where ``phi`` is the method's *input map* (the identity unless stated: the skew variants use
the cost-to-skew map, the uncertainty-aware variants the posterior mean). Non-interpolating
methods have ``a01 = a11 = 0`` (``loss = h(c)``, the selected cost line); rate-driven
interpolates linearly in ``phi(c_hat)`` between two lines. The fixed methods (score-fixed,
rate-fixed) have a single segment: one threshold whatever ``c_hat``.

Conventions: class 1 is the class whose probability the scores estimate; a threshold ``t``
predicts 1 iff ``score > t``; cost lines are indexed as in :mod:`threshold_choice.costlines`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray

from threshold_choice._typing import FloatArray

Closed = Literal["left", "right"]


@dataclass(frozen=True)
class InputMap:
    """A non-decreasing map from ``c_hat`` to the quantity the method thresholds on."""

    name: str
    forward: Callable[[FloatArray], FloatArray]
    derivative: Callable[[FloatArray], FloatArray] | None = None


@dataclass(frozen=True)
class ArgminRule:
    """Line selection as the authors' code does it at a given input: the first line of lowest
    height ``x * (right - left) + left`` among ``select_left/right`` (scanning from the lowest
    threshold), whose loss is then the line ``eval_left + eval_slope * c``.

    Used when evaluating at individual points (grid and Monte Carlo estimators), so that exact
    ties between lines (e.g. at ``c = 0.5``) are broken as in the published numbers. Exact
    integrals do not need it: ties have probability zero.
    """

    select_left: FloatArray
    select_right: FloatArray
    eval_left: FloatArray
    eval_slope: FloatArray

    @classmethod
    def deferred(cls, make: Callable[[], tuple[FloatArray, FloatArray, FloatArray, FloatArray]]
                 ) -> ArgminRule:
        """The rule whose four arrays ``make()`` returns, called at their first use: the exact
        estimator never uses a rule, whose arrays take passes over all the lines (for
        train-optimal, a search of every training threshold among the test scores). Give a
        picklable ``make`` (e.g. a ``functools.partial`` of a module's function)."""
        return _DeferredArgminRule(make)

    def loss(self, x: FloatArray, c: FloatArray, chunk: int = 200_000) -> FloatArray:
        j = self.select(x, chunk)
        return self.eval_left[j] + self.eval_slope[j] * c

    def select(self, x: FloatArray, chunk: int = 200_000) -> NDArray[np.intp]:
        """The line selected at each input ``x``: the first minimum of the heights as
        computed in floating point, ``x * slope + left``, over all lines (in memory for about
        ``chunk`` heights at a time). Lines that cannot be the minimum are skipped when that
        saves work (:func:`_candidate_argmin`), with the same result."""
        slope = self.select_right - self.select_left
        left = self.select_left
        out = np.empty(x.size, dtype=np.intp)
        # pieces whose block bounds (pieces / _BLOCK x lines) hold at most ``chunk`` numbers
        piece = max(4 * _BLOCK, chunk // max(1, slope.size) * _BLOCK)
        step = max(1, chunk // max(1, slope.size))
        for start in range(0, x.size, piece):
            xp = x[start : start + piece]
            fast = _candidate_argmin(xp, slope, left)
            if fast is not None:
                out[start : start + piece] = fast
                continue
            for lo in range(0, xp.size, step):
                heights = xp[lo : lo + step, None] * slope[None, :] + left[None, :]
                # first minimum = lowest threshold
                out[start + lo : start + lo + step] = np.argmin(heights, axis=1)
        return out


_RULE_FIELDS = ("select_left", "select_right", "eval_left", "eval_slope")


class _DeferredArgminRule(ArgminRule):
    """:meth:`ArgminRule.deferred`: the fields are set from ``make()`` when one is first read."""

    def __init__(self, make: Callable[[], tuple[FloatArray, ...]]) -> None:
        object.__setattr__(self, "_make", make)  # (frozen: the fields come later, the same way)

    def __getattr__(self, name: str) -> Any:  # only for what is not set yet: the fields
        if name not in _RULE_FIELDS or "_make" not in self.__dict__:
            raise AttributeError(name)
        for field_name, value in zip(_RULE_FIELDS, self.__dict__["_make"](), strict=True):
            object.__setattr__(self, field_name, value)
        return self.__dict__[name]


_BLOCK = 100  # inputs per block of the candidate search


def _candidate_argmin(
    x: FloatArray, slope: FloatArray, left: FloatArray
) -> NDArray[np.intp] | None:
    """``argmin(x[:, None] * slope + left, axis=1)`` bit for bit, computing the heights of
    candidate lines only; ``None`` when that would not save work (few lines or inputs) or
    cannot be decided (non-finite values).

    Two filters, each keeping every line that can be a computed first minimum: the lines
    whose exact height comes within a rounding margin of the lower envelope somewhere between
    the lowest and highest input (:func:`_near_envelope`: the envelope's lines and those
    through its vertices, typically a few per cent), then per block of inputs
    (:func:`_block_argmin`)."""
    n, m = x.size, slope.size
    if m < 64 or n < 2 * _BLOCK:
        return None
    if not (np.all(np.isfinite(x)) and np.all(np.isfinite(slope)) and np.all(np.isfinite(left))):
        return None
    lines = _near_envelope(float(x.min()), float(x.max()), slope, left)
    if lines is None:
        return _block_argmin(x, slope, left)
    return lines[_block_argmin(x, slope[lines], left[lines])]


def _near_envelope(
    x_lo: float, x_hi: float, slope: FloatArray, left: FloatArray
) -> NDArray[np.intp] | None:
    """The lines (in index order) whose exact height comes within a rounding margin of the
    lower envelope ``min_j (x slope_j + left_j)`` somewhere in ``[x_lo, x_hi]``; ``None`` if
    the envelope cannot be built (fewer than three distinct lines, all through one point...).

    The envelope's lines are the lower convex hull of the points ``(slope_j, left_j)``
    (Qhull). A line's height minus the envelope is convex in ``x``, least where the
    envelope's slope crosses the line's: at the envelope's vertex between the hull lines of
    slopes just below and above it (clipped to the inputs' range). A line whose least gap
    exceeds ``16 eps`` times the size of the heights there (``|x| |slope| + |left|``, of the
    line and of the envelope's lines) is, as computed, above the envelope's computed height
    at every input: it can never be the first minimum."""
    from scipy.spatial import ConvexHull, QhullError

    try:
        hull = ConvexHull(np.column_stack([slope, left]))
    except (QhullError, ValueError):
        return None
    vertices = hull.vertices  # counterclockwise: the lower chain runs by increasing slope
    a, b = slope[vertices], left[vertices]
    first = int(np.lexsort((b, a))[0])  # least slope (lowest of those)
    last = int(np.lexsort((b, -a))[0])  # greatest slope (lowest of those)
    chain = np.roll(np.arange(vertices.size), -first)
    chain = chain[: int(np.flatnonzero(chain == last)[0]) + 1]
    ha, hb = a[chain], b[chain]
    # the envelope's vertices, decreasing in x: chain line i is lowest between x_i and x_(i-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        corners = (hb[:-1] - hb[1:]) / (ha[1:] - ha[:-1])
    if not np.all(np.isfinite(corners)):
        return None
    i = np.searchsorted(ha, slope)  # the envelope's lines 0..i-1 are flatter
    at = np.full(slope.size, x_lo)  # steeper than all of them: least at x_lo
    at[i == 0] = x_hi  # flatter than all: least at x_hi
    inner = (i > 0) & (i < ha.size)
    at[inner] = corners[i[inner] - 1]
    at = np.clip(at, x_lo, x_hi)
    active = np.searchsorted(-corners, -at)
    gap = (at * slope + left) - (at * ha[active] + hb[active])
    reach = max(abs(x_lo), abs(x_hi))
    size = reach * np.abs(slope) + np.abs(left) + np.max(reach * np.abs(ha) + np.abs(hb))
    return np.flatnonzero(gap <= 16.0 * np.finfo(np.float64).eps * size)


def _block_argmin(x: FloatArray, slope: FloatArray, left: FloatArray) -> NDArray[np.intp]:
    """``argmin(x[:, None] * slope + left, axis=1)`` bit for bit, block by block of inputs.

    The sorted inputs are cut into blocks of ``_BLOCK``. On a block ``[xa, xb]`` a line's
    exact height lies between its heights at the ends, and each computed height is within
    ``d = 2u (|x| |slope| + |left|)`` of the exact one (two roundings, ``u = 2**-53``). So a
    line whose lower end minus ``2d`` exceeds ``min over lines of (upper end + 2d)`` is,
    as computed, above some other line at every input of the block and cannot be the first
    minimum: only the others are evaluated, in index order, with the same formula. (The
    margin is taken twice as wide, for the rounding of the bounds themselves.)"""
    n = x.size
    order = np.argsort(x, kind="stable")
    xs = x[order]
    starts = np.arange(0, n, _BLOCK)
    xa, xb = xs[starts], xs[np.minimum(starts + _BLOCK, n) - 1]
    ha = xa[:, None] * slope[None, :] + left[None, :]
    hb = xb[:, None] * slope[None, :] + left[None, :]
    reach = np.maximum(np.abs(xa), np.abs(xb))[:, None] * np.abs(slope) + np.abs(left)
    margin = 8.0 * np.finfo(np.float64).eps * reach  # 4 d, d <= eps * reach
    with np.errstate(over="ignore"):  # a huge sentinel height may overflow: never a bound
        upper = np.min(np.maximum(ha, hb) + margin, axis=1)
        candidate = np.minimum(ha, hb) - margin <= upper[:, None]
    out = np.empty(n, dtype=np.intp)
    for block, start in enumerate(starts):  # a few blocks, each a dense array
        lines = np.flatnonzero(candidate[block])
        heights = xs[start : start + _BLOCK, None] * slope[lines] + left[lines]
        out[order[start : start + _BLOCK]] = lines[np.argmin(heights, axis=1)]
    return out


@dataclass(frozen=True)
class Selection:
    """A threshold choice method applied to one set of scores, piecewise in ``c_hat``.

    On segment ``s`` of the presumed cost proportion ``c_hat`` the loss at the true cost
    proportion ``c`` is ``a00 + a10 * c + (a01 + a11 * c) * phi(c_hat)`` (``coef[s]``),
    ``phi`` the method's input map (see the module docstring): a cost line of the test
    scores, ``a01 = a11 = 0``, or for the rate methods a mixture of two adjacent lines.
    Build with :func:`~threshold_choice.methods.make_selection`.

    Parameters
    ----------
    method : str
        The method's name.
    coef : ndarray of shape (S, 4)
        ``a00, a10, a01, a11`` per segment.
    input_breaks : ndarray of shape (S - 1,)
        The break points in the method's input space (``phi(c_hat)``), non-decreasing.
    breaks : ndarray of shape (S - 1,)
        The same break points in ``c_hat`` space (``phi^-1``; ``-inf``/``inf`` allowed).
    closed : {"left", "right"}
        ``"left"``: segments are ``[x_s, x_{s+1})``; ``"right"``: ``(x_s, x_{s+1}]``.
        Matters only when evaluating at a break point exactly.
    input_map : InputMap or None, default=None
        ``phi``; ``None`` is the identity.
    ignores_c_hat : bool, default=False
        The method draws its own uniform ``c_hat`` (score-uniform, rate-uniform): its
        expected loss is the ``gamma = 0`` one whatever ``gamma``.
    argmin : ArgminRule or None, default=None
        Optional tie-faithful selection at single points, as the authors' code breaks ties
        (see :class:`~threshold_choice.methods.selection.ArgminRule`).

    Attributes
    ----------
    interpolating : bool
        Whether some segment mixes two lines (``a01`` or ``a11`` non-zero).

    Raises
    ------
    ValueError
        If ``coef`` does not have one row per segment (``len(breaks) + 1``) and 4 columns.

    See Also
    --------
    threshold_choice.make_selection : Build the selection of a method.
    threshold_choice.segment_contributions : Each segment's share of the expected loss.

    Examples
    --------
    >>> from threshold_choice import CostLines, make_selection
    >>> lines = CostLines.from_scores([0, 0, 1, 0, 1, 1, 0, 1],
    ...                               [0.1, 0.3, 0.35, 0.4, 0.6, 0.8, 0.7, 0.9])
    >>> sel = make_selection("score-driven", lines)  # t = c_hat
    >>> sel.breaks.tolist()  # the selected line changes at each distinct score
    [0.1, 0.3, 0.35, 0.4, 0.6, 0.7, 0.8, 0.9]
    >>> sel.coef.shape
    (9, 4)
    >>> sel.loss(c_hat=[0.2, 0.5], c=0.5).tolist()  # threshold 0.2 and 0.5 at c = 1/2
    [0.375, 0.25]
    """

    method: str
    coef: FloatArray
    input_breaks: FloatArray
    breaks: FloatArray
    closed: Closed
    input_map: InputMap | None = None
    ignores_c_hat: bool = False
    argmin: ArgminRule | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if self.coef.shape != (self.breaks.size + 1, 4):
            raise ValueError("coef must have one row per segment (len(breaks) + 1) and 4 columns")

    @cached_property
    def interpolating(self) -> bool:
        return bool(np.any(self.coef[:, 2:] != 0))

    def derive(self, **changes: Any) -> Selection:
        """``dataclasses.replace(self, **changes)``, keeping ``interpolating`` (cached) when the
        coefficients stay: it is a pass over them (4 ms at 10^6 segments) that each variant
        built on the same coefficients (uniform, skew, an aware one per gamma) would repeat."""
        out = replace(self, **changes)
        if "coef" not in changes and "interpolating" in self.__dict__:
            out.__dict__["interpolating"] = self.__dict__["interpolating"]
        return out

    def inputs(self, c_hat: ArrayLike) -> FloatArray:
        x = np.asarray(c_hat, dtype=np.float64)
        return x if self.input_map is None else self.input_map.forward(x)

    def segment(self, c_hat: ArrayLike) -> NDArray[np.intp]:
        """Segment index selected at each ``c_hat`` (compared in input space)."""
        side: Literal["left", "right"] = "left" if self.closed == "right" else "right"
        return np.searchsorted(self.input_breaks, self.inputs(c_hat), side=side)

    def loss(self, c_hat: ArrayLike, c: ArrayLike) -> FloatArray:
        """Return the loss at the true cost ``c`` when the method is given ``c_hat``.

        Parameters
        ----------
        c_hat : array-like of float
            Presumed cost proportions (the method's input).
        c : array-like of float
            True cost proportions, broadcast against ``c_hat``.

        Returns
        -------
        ndarray
            ``Q(T(c_hat); c)``, the loss of the selected line(s); exact ties between lines
            broken by ``argmin`` when set.
        """
        c_hat_arr, c_arr = np.broadcast_arrays(
            np.asarray(c_hat, dtype=np.float64), np.asarray(c, dtype=np.float64)
        )
        shape = c_arr.shape
        c_hat_flat, c_flat = c_hat_arr.ravel(), c_arr.ravel()
        x = self.inputs(c_hat_flat)
        if self.argmin is not None:
            return self.argmin.loss(x, c_flat).reshape(shape)
        a = self.coef[self.segment(c_hat_flat)]
        out = a[:, 0] + a[:, 1] * c_flat + (a[:, 2] + a[:, 3] * c_flat) * x
        return out.reshape(shape)


__all__ = ["ArgminRule", "Closed", "InputMap", "Selection"]
