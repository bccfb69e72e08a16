"""Expected loss ``L = integral_0^1 K(c) w(c) dc`` of a threshold choice method under uncertainty.

``K(c) = E[Q(T(c_hat); c) | c]`` with ``c_hat | c ~ Beta(gamma*c + 1, gamma*(1 - c) + 1)``;
``w`` is the density of the true cost (``distribution``: the paper's uniform by default, see
:mod:`threshold_choice.cost_distributions`). Three estimators:

``exact``
    The integral itself, from the method's segments (Theorem 1 of Ferri et al.
    2019) and the per-(gamma, distribution) moment table of :mod:`threshold_choice.moment_tables`;
    error < 1e-9. Cost per run: O(number of segments) once, then O(table cells) per gamma
    (:func:`_integrate`). From
    ``gamma >= certainty_limit(w)`` (3.2e25 for the uniform) the ``gamma = inf`` value, within
    1e-12 of the limit.
``grid``
    The paper's estimator with the exact inner expectation: the mean of ``K(c)`` over
    ``c = i/grid_size, i = 1..grid_size`` (1000 in the paper), each point weighted by the
    probability ``w`` gives to ``((i-1)/N, i/N]`` (``1/N`` for the uniform). At
    ``gamma = inf`` it evaluates each grid point directly, breaking ties between cost lines as
    the authors' code did, and so reproduces their per-run numbers given the same scores. Up
    to ``gamma = 1000`` from a moment table of the grid; above, ``K(c_i)`` directly by
    quadrature over the kernel's window (:func:`windowed_expected_cost`), at a cost of
    O(grid points x segments within the window).
``montecarlo``
    The authors' protocol: one ``c_hat`` drawn per grid point (seeded), the weighted mean of
    the losses. An unbiased but noisy estimate of ``grid``.
``authors``
    ``montecarlo`` at given draws, one set per run: the ``c_hat`` the authors' script drew
    for that run (R's ``rbeta`` on R's stream), which the reproduction replays
    (:mod:`threshold_choice.reproduction.authors_draws`). Not self-contained: the draws come
    with each run (:class:`~threshold_choice.evaluation.RunDraws`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.special import expit

from threshold_choice import beta_kernel
from threshold_choice._typing import FloatArray
from threshold_choice.cost_distributions import UNIFORM, CostDistribution, parse_cost_distribution
from threshold_choice.errors import UserError
from threshold_choice.methods import Selection
from threshold_choice.moment_tables import (
    GAMMA_WINDOWED,
    CMeasure,
    Increments,
    MomentTable,
    Points,
    Weighted,
    moment_table,
)
from threshold_choice.uncertainty import (
    PAPER_GRID_SIZE,
    Uncertainty,
    certainty_limit,
    check_grid_size,
    check_seed,
)

Estimator = Literal["exact", "grid", "montecarlo", "authors"]
#: the estimators that need nothing but the scores (the command line's choices)
ESTIMATORS: tuple[str, ...] = ("exact", "grid", "montecarlo")
#: the estimator evaluated at draws given with each run (the authors' replayed ones)
GIVEN_DRAWS = "authors"

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
_GL_T, _GL_W = np.polynomial.legendre.leggauss(4)
_PANEL = 0.25  # maximum panel width in w = logit(c_hat)
_CHUNK_NODES = 1 << 18  # quadrature nodes whose G values are held at once
_W_RANGE = 30.0  # dG outside [expit(-30), expit(30)] carries < 1e-12 (the moment table's range)
# Above this, the windowed quadrature uses this gamma: the kernel is then narrower than 1e-100
# and the difference is far below rounding
_GAMMA_CAP = 1e200


def _effective_gamma(sel: Selection, gamma: float) -> float:
    return 0.0 if sel.ignores_c_hat else float(gamma)


def _segment_edges(sel: Selection) -> FloatArray:
    edges = np.empty(sel.breaks.size + 2)  # 0, the breaks clipped to [0, 1], 1
    edges[0], edges[-1] = 0.0, 1.0
    np.clip(sel.breaks, 0.0, 1.0, out=edges[1:-1])
    return edges


@dataclass(frozen=True)
class _MappedPlan:
    """The quadrature of the skew variants' moments (the comment above) that depends on the
    selection only (not on ``G``)."""

    phi: FloatArray  # phi at the segment edges (cut to |w| <= 30)
    nodes: FloatArray  # (panels, nodes) in w
    node_x: FloatArray  # expit(nodes), computed once
    weights: FloatArray  # (panels, nodes), dc_hat and phi' included
    first: NDArray[np.intp] | None  # first panel of each piece when pieces have several
    piece_segment: NDArray[np.intp] | None  # segment of each piece when cut at ``cuts``
    panel_segment: NDArray[np.intp]  # segment of each panel

    @property
    def block(self) -> int:
        """Panels whose nodes are evaluated at once."""
        return max(1, _CHUNK_NODES // self.nodes.shape[1])


def _mapped_plan(sel: Selection, edges: FloatArray, cuts: FloatArray) -> _MappedPlan:
    """The panels of the skew variants' quadrature on the segments ``edges``, split at
    ``cuts`` (in ``w``: a moment table's refined cells, where ``G`` changes fast)."""
    imap = sel.input_map
    assert imap is not None and imap.derivative is not None
    with np.errstate(divide="ignore"):
        w_edges = np.clip(np.log(edges) - np.log1p(-edges), -_W_RANGE, _W_RANGE)
    phi = imap.forward(expit(w_edges))
    lo, width = w_edges[:-1], np.diff(w_edges)
    piece_segment = None
    if cuts.size:
        inner = cuts[(cuts > w_edges[0]) & (cuts < w_edges[-1])]
        pieces = np.unique(np.concatenate([w_edges, inner]))
        piece_segment = np.searchsorted(w_edges, (pieces[:-1] + pieces[1:]) / 2, side="right") - 1
        lo, width = pieces[:-1], np.diff(pieces)
    counts = np.maximum(1, np.ceil(width / _PANEL)).astype(np.intp)
    first = None
    panel_piece = np.arange(counts.size)
    if counts.size < counts.sum():  # wide segments: several panels each
        first = np.cumsum(counts) - counts
        panel_piece = seg = np.repeat(np.arange(counts.size), counts)
        width = width[seg] / counts[seg]
        lo = lo[seg] + (np.arange(seg.size) - first[seg]) * width
    panel_segment = panel_piece if piece_segment is None else piece_segment[panel_piece]
    half = width / 2.0
    nodes = (lo + half)[:, None] + half[:, None] * _GL_T[None, :]
    x = expit(nodes)
    # dc_hat = x (1 - x) dw; 1 - x loses relative accuracy only where x (1 - x) < 1e-13
    density = imap.derivative(x)  # (in place: phi'(x) x (1 - x), then times the rule's weights)
    density *= x
    density *= 1.0 - x
    weights = half[:, None] * _GL_W[None, :]
    weights *= density
    return _MappedPlan(phi, nodes, x, weights, first, piece_segment, panel_segment)


def _apply_mapped_plan(
    plan: _MappedPlan, g_edges: FloatArray, g_nodes_of: Callable[[int], FloatArray]
) -> FloatArray:
    """The mapped moments of ``plan`` for each row of ``g_edges`` (``G`` at the segment
    edges); ``g_nodes_of(lo)``: ``G`` at the nodes of the block of panels from ``lo``."""
    phi, nodes = plan.phi, plan.nodes
    out = phi[1:] * g_edges[:, 1:] - phi[:-1] * g_edges[:, :-1]
    # panel by panel in blocks (each panel's sum is the same): G at the nodes of a block only
    sums = np.empty((g_edges.shape[0], nodes.shape[0]))
    step = plan.block
    for lo in range(0, nodes.shape[0], step):
        block = slice(lo, lo + step)
        g_nodes = g_nodes_of(lo)
        sums[:, block] = np.einsum("ksn,sn->ks", g_nodes.reshape(-1, *nodes[block].shape),
                                   plan.weights[block])
    if plan.first is not None:
        sums = np.add.reduceat(sums, plan.first, axis=1)
    if plan.piece_segment is not None:
        sums = np.stack([np.bincount(plan.piece_segment, row, out.shape[1]) for row in sums])
    return out - sums


# -- the integrator ----------------------------------------------------------------------------

#: segments integrated at once: a chunk's temporaries take a few MB per table, whatever the
#: number of segments (a selection of at most this many segments is summed in one piece)
_SEGMENT_CHUNK = 1 << 16


def _chunk_integrals(sel: Selection, points: Points, table: MomentTable) -> FloatArray:
    """For the segments of ``sel`` with edges at ``points``, the integrals per segment
    (rows) that ``coef`` weighs (:func:`segment_integrals`), from ``table``: ``dG00, dG10``
    and, for an interpolating method, ``dG01, dG11`` (or the skew variants' mapped moments).
    The table is read at the edges, the rows needed only."""
    mapped = sel.interpolating and sel.input_map is not None
    g = table.read(points, rows=4 if sel.interpolating and not mapped else 2)
    dg = np.diff(g, axis=1)
    if not mapped:
        return dg
    plan = _mapped_plan(sel, points.x, cuts=table.cuts)

    def g_nodes_of(lo: int) -> FloatArray:
        return table.at_logit(plan.nodes[lo : lo + plan.block].ravel(), rows=2)

    return np.vstack([dg, _apply_mapped_plan(plan, g, g_nodes_of)])


def _segment_chunks(sel: Selection) -> Iterator[tuple[slice, Points]]:
    """The segments of ``sel`` in chunks of :data:`_SEGMENT_CHUNK`, with their edges."""
    edges = _segment_edges(sel)
    for lo in range(0, edges.size - 1, _SEGMENT_CHUNK):
        part = slice(lo, min(lo + _SEGMENT_CHUNK, edges.size - 1))
        yield part, Points(edges[part.start : part.stop + 1])


def _mapped_sums(
    sel: Selection, part: slice, points: Points, cuts: FloatArray
) -> tuple[Increments, Weighted, Weighted]:
    """The segments ``part`` of a skew variant as sums over ``G00, G10`` (rows), by parts
    (the comment above): per segment ``s`` and row,
    ``a0_s dG_s + a1_s ([phi G]_s - sum over its nodes n of weight_n G(n))`` with
    ``[phi G]_s = phi_{s+1} dG_s + (phi_{s+1} - phi_s) G(x_s)``."""
    a = sel.coef[part]
    plan = _mapped_plan(sel, points.x, cuts=cuts)
    phi = plan.phi
    increments = Increments(points, (a[:, :2] + a[:, 2:] * phi[1:, None]).T)
    starts = Weighted(points, np.hstack([(a[:, 2:] * np.diff(phi)[:, None]).T,
                                         np.zeros((2, 1))]))
    # -a[panel_segment, 2:].T[:, :, None] * weights, a column at a time (a 1-d take, not a
    # gather of strided rows)
    node_weights = np.empty((2, *plan.weights.shape))
    for r in range(2):
        np.multiply(-a[:, 2 + r].take(plan.panel_segment)[:, None], plan.weights,
                    out=node_weights[r])
    nodes = Weighted(Points.from_logit(plan.nodes.ravel(), plan.node_x.ravel()),
                     node_weights.reshape(2, plan.nodes.size))
    return increments, starts, nodes


def _integrate(sel: Selection, tables: Sequence[MomentTable]) -> list[float]:
    """The engine: ``sum over the segments of sel of coef . dG`` for each moment table, i.e.
    the expected loss of ``sel`` at each table's ``(gamma, measure)`` (Theorem 1; the exact
    estimator, and the grid one up to ``GAMMA_WINDOWED``).

    Each is a sum of increments of the table's rows over the segments (and, for the skew
    variants' interpolation, of the rows at quadrature nodes): the work that does not depend
    on the table (the points' cells, the weights' power sums per cell; see
    :class:`~threshold_choice.moment_tables.Increments`) is done once per selection, and each
    table costs O(cells occupied). One pass over the segments in chunks of
    :data:`_SEGMENT_CHUNK`: memory is a few MB whatever the number of segments, and a
    selection's loss at one table does not depend on the other tables (bit for bit)."""
    totals = [0.0] * len(tables)
    interpolating, mapped = sel.interpolating, sel.input_map is not None
    for part, points in _segment_chunks(sel):
        plain = None
        sets: dict[bytes, tuple[Increments, Weighted, Weighted]] = {}  # per table cuts
        for i, table in enumerate(tables):
            if interpolating and mapped:
                key = table.cuts.tobytes()
                if key not in sets:
                    sets[key] = _mapped_sums(sel, part, points, table.cuts)
                totals[i] += sum(table.integrate(piece) for piece in sets[key])
                continue
            if plain is None:
                a = sel.coef[part] if interpolating else sel.coef[part, :2]
                plain = Increments(points, a.T)
            totals[i] += table.integrate(plain)
    return totals


def windowed_expected_cost(
    sel: Selection, gamma: float, c: ArrayLike, max_nodes: int = 2_000_000
) -> FloatArray:
    """``K(c)`` at each ``c`` by quadrature over ``c_hat`` restricted to the kernel's window
    (``theta = arcsin(sqrt(c_hat))`` within ``10 / sqrt(gamma)`` of ``theta(c)``; beyond, the
    kernel carries less than ``exp(-100)``, :mod:`threshold_choice.beta_kernel`), cut at the
    method's break points: for every ``gamma > 0``, accurate to ~1e-12, in O(points x segments
    within the window) time and memory bounded by ``max_nodes`` quadrature nodes at a time.
    Used for large ``gamma``, where Beta CDFs of ``scipy`` lose accuracy (NaN from ~1e20)."""
    c_arr = np.asarray(c, dtype=np.float64)
    flat = c_arr.ravel()
    gamma = min(float(gamma), _GAMMA_CAP)
    reach = beta_kernel.window(gamma)
    theta_edges = beta_kernel.theta_of(_segment_edges(sel))
    n_seg = theta_edges.size - 1
    a = sel.coef
    interpolating = sel.interpolating
    theta_c = beta_kernel.theta_of(flat)
    # segments meeting the window; when theta(c) +- reach rounds to theta(c) (gamma > 1e32),
    # the segments on both sides of a break equal to c (sides 'left' / 'right')
    first = np.clip(np.searchsorted(theta_edges, theta_c - reach, side="left") - 1, 0, n_seg - 1)
    last = np.clip(np.searchsorted(theta_edges, theta_c + reach, side="right") - 1, 0, n_seg - 1)
    counts = np.maximum(last - first + 1, 1)
    # chunks of points whose nodes (at most NODES * (PANELS + pairs)) stay within max_nodes
    cost = np.cumsum(beta_kernel.NODES * (counts + beta_kernel.PANELS))
    out = np.empty(flat.size)
    start = 0
    while start < flat.size:
        base = cost[start - 1] if start else 0
        stop = max(start + 1, int(np.searchsorted(cost, base + max_nodes, side="right")))
        idx = np.arange(start, stop)
        out[start:stop] = _windowed_chunk(
            sel, a, interpolating, gamma, reach, theta_edges, flat[idx], theta_c[idx],
            first[idx], counts[idx],
        )
        start = stop
    return out.reshape(c_arr.shape)


def _windowed_chunk(
    sel: Selection, a: FloatArray, interpolating: bool, gamma: float, reach: float,
    theta_edges: FloatArray, c: FloatArray, theta_c: FloatArray,
    first: NDArray[np.intp], counts: NDArray[np.intp],
) -> FloatArray:
    pair_c = np.repeat(np.arange(c.size), counts)
    pair_s = first[pair_c] + (np.arange(pair_c.size) - (np.cumsum(counts) - counts)[pair_c])
    # the pair's interval of theta(c_hat) as offsets from theta(c), within +-reach (offsets,
    # not positions, so that a window far narrower than theta's resolution is kept; 0 exactly
    # at a break equal to c)
    low = np.maximum(theta_edges[pair_s] - theta_c[pair_c], -reach)
    high = np.minimum(theta_edges[pair_s + 1] - theta_c[pair_c], reach)
    span = np.maximum(high - low, 0.0)
    panels = np.where(span > 0, np.ceil(beta_kernel.PANELS * span / (2 * reach)), 0)
    owner, offset, weights = beta_kernel.panel_rule(low, high, panels.astype(np.intp))
    node_c = pair_c[owner]
    theta_x = theta_c[node_c] + offset
    x, x1 = np.sin(theta_x) ** 2, np.cos(theta_x) ** 2
    cc = c[node_c]
    delta = -np.sin(theta_c[node_c] + theta_x) * np.sin(offset)  # c - c_hat
    with np.errstate(divide="ignore", invalid="ignore", under="ignore"):
        log_k = beta_kernel.log_density(gamma, x, x1, cc, 1.0 - cc, delta)
        kernel = np.exp(log_k + np.log(np.sin(2.0 * theta_x))) * weights
    kernel = np.where(np.isfinite(kernel), kernel, 0.0)
    m0 = np.bincount(owner, kernel, pair_c.size)
    cp = c[pair_c]
    k_pairs = (a[pair_s, 0] + a[pair_s, 1] * cp) * m0
    if interpolating:
        m1 = np.bincount(owner, kernel * sel.inputs(x), pair_c.size)
        k_pairs += (a[pair_s, 2] + a[pair_s, 3] * cp) * m1
    return np.bincount(pair_c, k_pairs, c.size)


def paper_grid(grid_size: int = PAPER_GRID_SIZE) -> FloatArray:
    """The true costs of the paper's estimator: ``c = i/grid_size``, ``i = 1..grid_size``."""
    check_grid_size(grid_size)
    return np.arange(1, grid_size + 1, dtype=np.float64) / grid_size


def _grid_mean(values: FloatArray, measure: CMeasure) -> float:
    """The estimators' average over the grid: the mean for the uniform, else weighted."""
    if measure.distribution.is_standard_uniform:
        return float(np.mean(values))
    weights = measure.weights
    assert weights is not None
    return float(weights @ values)


def expected_loss(
    sel: Selection,
    gamma: float,
    *,
    estimator: Estimator = "exact",
    grid_size: int = PAPER_GRID_SIZE,
    seed: int | None = None,
    c_hat: ArrayLike | None = None,
    distribution: CostDistribution | str = UNIFORM,
) -> float:
    """Return the expected loss of a method applied to one set of scores.

    ``L = integral K(c) w(c) dc`` with ``K(c) = E[Q(T(c_hat); c) | c]`` and
    ``c_hat | c ~ Beta(gamma c + 1, gamma (1 - c) + 1)`` (see the module docstring for the
    three estimators). Import it from this module: the package's attribute
    ``threshold_choice.expected_loss`` is the module once it is imported.

    Parameters
    ----------
    sel : Selection
        The method applied to the test cost lines
        (:func:`~threshold_choice.methods.make_selection`).
    gamma : float
        The certainty, ``0 <= gamma <= inf``.
    estimator : {"exact", "grid", "montecarlo"}, default="exact"
        The integral itself, the paper's grid of true costs, or the authors' Monte Carlo
        protocol.
    grid_size : int, default=1000
        The grid ``c = i/grid_size`` of the ``grid`` and ``montecarlo`` estimators.
    seed : int or None, default=None
        The seed of the ``montecarlo`` draws (one ``c_hat`` per grid point), a whole number
        >= 0.
    c_hat : array-like of shape (grid_size,), default=None
        The ``montecarlo`` draws themselves, so that several methods share them as in the
        authors' code (instead of ``seed``).
    distribution : CostDistribution or str, default=UNIFORM
        The density ``w`` of the true cost (or its spec such as ``"beta:2,2"``); the
        paper's uniform by default.

    Returns
    -------
    float
        The expected loss, on the package's scale (``b = 2``).

    Raises
    ------
    UserError
        For a negative gamma, an unknown estimator, or (grid estimators) a grid outside
        ``1..100000`` or ``c_hat`` draws that are not one per grid point.

    See Also
    --------
    threshold_choice.expected_losses : Every method and gamma from labels and scores.
    threshold_choice.segment_contributions : The loss split over the selected lines.

    Examples
    --------
    >>> from threshold_choice import CostLines, make_selection
    >>> from threshold_choice.expected_loss import expected_loss
    >>> lines = CostLines.from_scores([0, 0, 1, 0, 1, 1, 0, 1],
    ...                               [0.1, 0.3, 0.35, 0.4, 0.6, 0.8, 0.7, 0.9])
    >>> sel = make_selection("test-optimal", lines)
    >>> expected_loss(sel, float("inf")), expected_loss(sel, 0.0)
    (0.125, 0.25)
    >>> round(expected_loss(sel, 1.0), 6), round(expected_loss(sel, 1.0, estimator="grid"), 6)
    (0.207363, 0.207363)
    """
    return expected_loss_batch(
        [sel], gamma, estimator=estimator, grid_size=grid_size, seed=seed, c_hat=c_hat,
        distribution=distribution,
    )[0]


def expected_loss_batch(
    sels: Sequence[Selection],
    gamma: float,
    *,
    estimator: Estimator = "exact",
    grid_size: int = PAPER_GRID_SIZE,
    seed: int | None = None,
    c_hat: ArrayLike | None = None,
    distribution: CostDistribution | str = UNIFORM,
) -> list[float]:
    """``[expected_loss(sel, gamma, ...) for sel in sels]`` bit for bit, with the arguments
    checked once and the Monte Carlo draws made once for all the selections."""
    Uncertainty(float(gamma))  # validates gamma, also for the methods that ignore it
    check_seed(seed)
    distribution = parse_cost_distribution(distribution)
    draws: dict[float, FloatArray] = {}  # per effective gamma, drawn once for all
    out = []
    if estimator == GIVEN_DRAWS and c_hat is None:
        raise UserError("the authors estimator evaluates at given draws: pass c_hat (one "
                        "per grid point), or choose exact, grid or montecarlo")
    for sel in sels:
        given = None
        if estimator in ("montecarlo", GIVEN_DRAWS):
            gamma_eff = _effective_gamma(sel, gamma)
            if gamma_eff not in draws:
                draws[gamma_eff] = np.asarray(
                    draw_c_hat(gamma_eff, grid_size, seed) if c_hat is None else c_hat,
                    dtype=np.float64)
            given = draws[gamma_eff]
        out += losses_at_gammas(sel, [gamma], estimator=estimator, grid_size=grid_size,
                                draws=[given], distribution=distribution)
    return out


def losses_at_gammas(
    sel: Selection,
    gammas: Sequence[float],
    *,
    estimator: Estimator = "exact",
    grid_size: int = PAPER_GRID_SIZE,
    draws: Sequence[FloatArray | None] | None = None,
    distribution: CostDistribution | str = UNIFORM,
) -> list[float]:
    """``[expected_loss(sel, gamma, ...) for gamma in gammas]`` bit for bit, in one pass over
    the selection's segments for all the gammas that integrate a moment table
    (:func:`_integrate`; gammas with the same effective table are integrated once).
    ``draws``: for ``montecarlo``, the presumed costs drawn for each gamma (one per grid
    point)."""
    distribution = parse_cost_distribution(distribution)
    if estimator not in (*ESTIMATORS, GIVEN_DRAWS):
        raise UserError(f"unknown estimator {estimator!r}; choose from {', '.join(ESTIMATORS)}")
    out = [math.nan] * len(gammas)
    integrate: dict[tuple[float, int | None], list[int]] = {}
    limit = certainty_limit(distribution)
    # the grid estimators' true costs and their weights (the exact one has neither)
    grid = None if estimator == "exact" else (paper_grid(grid_size),
                                               CMeasure(grid_size, distribution))
    for i, gamma in enumerate(gammas):
        gamma_eff = _effective_gamma(sel, gamma)
        Uncertainty(gamma_eff)  # validates gamma
        if grid is None:
            # from the limit on, the gamma = inf value (within 1e-12, uncertainty.certainty_limit)
            integrate.setdefault((math.inf if gamma_eff >= limit else gamma_eff, None),
                                 []).append(i)
            continue
        c, measure = grid
        if estimator in ("montecarlo", GIVEN_DRAWS):
            given = None if draws is None else draws[i]
            if given is None or np.shape(given) != c.shape:
                raise UserError(f"need one c_hat per grid point ({c.size}), got "
                                f"{None if given is None else np.shape(given)}")
            out[i] = _grid_mean(sel.loss(given, c), measure)
        elif math.isinf(gamma_eff):
            out[i] = _grid_mean(sel.loss(c, c), measure)
        elif gamma_eff > GAMMA_WINDOWED:
            out[i] = _grid_mean(windowed_expected_cost(sel, gamma_eff, c), measure)
        else:
            integrate.setdefault((gamma_eff, grid_size), []).append(i)
    tables = [moment_table(g, n, distribution) for g, n in integrate]
    for where, value in zip(integrate.values(), _integrate(sel, tables), strict=True):
        for i in where:
            out[i] = value
    return out


def draw_c_hat(
    gamma: float, grid_size: int = PAPER_GRID_SIZE, seed: int | None = None
) -> FloatArray:
    """One presumed cost per grid point ``i/grid_size``, from a generator seeded with ``seed``."""
    check_grid_size(grid_size)
    rng = np.random.default_rng(seed)
    return Uncertainty(gamma).sample(paper_grid(grid_size), rng)


def expected_cost_curve(sel: Selection, gamma: float, c: ArrayLike) -> FloatArray:
    """Return the expected cost curve ``K(c)`` of a method at the true costs ``c``.

    ``K(c) = E[Q(T(c_hat); c) | c]``, the method's expected loss when the true cost
    proportion is ``c`` and the method is given ``c_hat ~ Beta(gamma c + 1, gamma (1 - c) +
    1)``; at ``gamma = inf`` it is the loss at ``c_hat = c``. Its integral against the
    belief ``w`` is the expected loss. The curves of the plots and of the decision curves of
    methods. Up to ``gamma = 1000`` it is summed by parts, ``sum over the segment edges x_j of
    (coefficient jump) . (V(x_j | c), U(x_j | c))``, by
    :func:`~threshold_choice.beta_kernel.edge_sums` in O(segments + costs); above, by
    quadrature over the kernel's window.

    Parameters
    ----------
    sel : Selection
        The method's selection of the test cost lines.
    gamma : float
        The certainty, ``0 <= gamma <= inf`` (ignored by the methods that draw their own
        ``c_hat``: score-uniform, rate-uniform).
    c : array-like of float
        True cost proportions in [0, 1].

    Returns
    -------
    ndarray
        ``K(c)``, in the shape of ``c``.

    Raises
    ------
    UserError
        For a negative gamma.

    See Also
    --------
    threshold_choice.expected_loss.expected_loss : Its integral, the expected loss.
    threshold_choice.plotting.CostCurveDisplay : Plots these curves.

    Examples
    --------
    >>> from threshold_choice import CostLines, expected_cost_curve, make_selection
    >>> lines = CostLines.from_scores([0, 0, 1, 0, 1, 1, 0, 1],
    ...                               [0.1, 0.3, 0.35, 0.4, 0.6, 0.8, 0.7, 0.9])
    >>> sel = make_selection("test-optimal", lines)
    >>> expected_cost_curve(sel, float("inf"), [0.25, 0.5, 0.75]).tolist()
    [0.125, 0.25, 0.125]
    >>> expected_cost_curve(sel, 0.0, [0.25, 0.5, 0.75]).round(12).tolist()  # no information
    [0.25, 0.25, 0.25]
    """
    try:
        c_arr = np.asarray(c, dtype=np.float64)
    except (TypeError, ValueError):
        raise UserError("c must be true cost proportions, numbers in [0, 1]") from None
    inside = (c_arr >= 0.0) & (c_arr <= 1.0)  # NaN is not
    if not inside.all():
        raise UserError(f"c must be true cost proportions in [0, 1], got "
                        f"{float(c_arr[~inside].ravel()[0])!r}")
    gamma_eff = _effective_gamma(sel, gamma)
    if Uncertainty(gamma_eff).is_exact:
        return sel.loss(c_arr, c_arr)
    if gamma_eff > GAMMA_WINDOWED:
        return windowed_expected_cost(sel, gamma_eff, c_arr)
    flat = c_arr.ravel()
    # sum_s a_s (V(x_{s+1}) - V(x_s)) = sum_j (a_{j-1} - a_j) V(x_j), a_{-1} = a_S = 0
    jumps = -np.diff(sel.coef, axis=0, prepend=0.0, append=0.0).T
    interpolating = sel.interpolating
    v, u = beta_kernel.edge_sums(
        _segment_edges(sel), jumps[:2], jumps[2:] if interpolating else None,
        sel.inputs if interpolating else None, gamma_eff, flat)
    out = v[0] + flat * v[1]
    if u is not None:
        out += u[0] + flat * u[1]
    return out.reshape(c_arr.shape)


def segment_integrals(
    sel: Selection, gamma: float, distribution: CostDistribution | str = UNIFORM
) -> FloatArray:
    """The integrals over each segment of ``sel`` that its coefficients weigh: ``(rows,
    segments)``, rows ``integral dG00, integral dG10`` and, for an interpolating method,
    ``integral x dG00, integral x dG10`` (``x`` the method's input: ``c_hat``, or the skew for
    the skew variants), at ``gamma`` and the cost density ``distribution``. A segment's
    expected loss is ``coef[s] . integrals[:, s]`` (:func:`segment_contributions`); the
    bootstrap sums them per cost line."""
    distribution = parse_cost_distribution(distribution)
    table = moment_table(_effective_gamma(sel, gamma), None, distribution)
    return np.hstack([_chunk_integrals(sel, points, table) for _, points in _segment_chunks(sel)])


def segment_contributions(
    sel: Selection, gamma: float, distribution: CostDistribution | str = UNIFORM
) -> FloatArray:
    """Split the expected loss of a method into the shares of the lines it selects.

    Theorem 1 of the paper: ``L = sum_i L_i`` with
    ``L_i = integral [V(c_{i+1} | c) - V(c_i | c)] h_i(c) w(c) dc``, ``V(x | c) =
    P(c_hat <= x | c)``, one term per segment of ``sel`` (segment ``s`` spans ``c_hat`` in
    ``[breaks[s-1], breaks[s])``, its line ``coef[s]``; an interpolating segment counts its
    mixture of two lines). At ``gamma = 0`` and a uniform ``w`` it is Theorem 2's
    ``(c_{i+1} - c_i)(k_i / 2 + l_i)``, at ``gamma = inf`` Theorem 3's
    ``(c_{i+1} - c_i)(k_i (c_{i+1} + c_i) / 2 + l_i)``.

    Parameters
    ----------
    sel : Selection
        The method as :func:`~threshold_choice.methods.make_selection` builds it on the
        test cost lines.
    gamma : float
        How certain ``c_hat`` is: from 0 (no information) to ``inf`` (``c_hat = c``).
    distribution : CostDistribution or str, default=UNIFORM
        The density ``w`` of the true cost (or its spec); the paper's uniform by default.

    Returns
    -------
    ndarray of shape (len(sel.breaks) + 1,)
        ``L_i`` per segment; the sum is the exact estimator's expected loss up to
        rounding.

    Raises
    ------
    UserError
        For a negative gamma or an invalid ``distribution``.

    See Also
    --------
    threshold_choice.expected_loss.expected_loss : The total.

    Examples
    --------
    >>> from threshold_choice import CostLines, make_selection, segment_contributions
    >>> lines = CostLines.from_scores([0, 0, 1, 0, 1, 1, 0, 1],
    ...                               [0.1, 0.3, 0.35, 0.4, 0.6, 0.8, 0.7, 0.9])
    >>> sel = make_selection("test-optimal", lines)  # breaks 0, 1/2, 1
    >>> segment_contributions(sel, float("inf")).tolist()
    [0.0, 0.0625, 0.0625, 0.0]
    >>> segment_contributions(sel, 0.0).tolist()
    [0.0, 0.125, 0.125, 0.0]
    """
    integrals = segment_integrals(sel, gamma, distribution)
    out = sel.coef[:, 0] * integrals[0]
    for r in range(1, integrals.shape[0]):
        out += sel.coef[:, r] * integrals[r]
    return out
