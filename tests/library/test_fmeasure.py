"""The F-measure context (paper 004, Sect. 4): F-cost lines, their envelope, the FROC curve,
and expected ``2FQ/(1 - FQ)`` of the threshold choice methods; FROC is rank-based.

The references are computed here without the package: confusion matrices counted from the
scores at each threshold, ``FQ`` from its definition (eq. 18) and transformed, the optimal
pieces from all pairwise crossings of those lines, the rate-driven mixtures from the sorted
scores; expectations over ``c_hat`` by Beta CDF differences over those pieces (partial
means for rate-driven) and over ``c`` by adaptive quadrature.
"""

from __future__ import annotations

import math
import warnings
from io import StringIO

import numpy as np
import pandas as pd
import pytest
from scipy.integrate import quad
from scipy.special import betainc

from tests.conftest import random_scores
from tests.library.test_expected_loss_estimators import candidate_thresholds
from threshold_choice.cli import main
from threshold_choice.costlines import CostLines
from threshold_choice.evaluation import LossSettings, expected_losses
from threshold_choice.expected_loss import paper_grid
from threshold_choice.fmeasure import (
    FCostLines,
    expected_f_cost_curve,
    expected_f_loss,
    froc_points,
    loss_context,
)
from threshold_choice.methods import make_selection

INF = math.inf

# -- the reference ---------------------------------------------------------------------------


def confusion(y, s, t):
    """TP, FP, FN with class 0 positive, predicted positive iff score <= t."""
    pos = s <= t
    return (
        int(np.sum(pos & (y == 0))),
        int(np.sum(pos & (y == 1))),
        int(np.sum(~pos & (y == 0))),
    )


def f_odds(tp, fp, fn, c):
    """2FQ/(1 - FQ) from FQ (eq. 18): inf without true positives."""
    if tp == 0:
        return INF
    fq = (c * fn + (1 - c) * fp) / (tp + c * fn + (1 - c) * fp)
    return 2 * fq / (1 - fq)


def f_line(y, s, t):
    """The F-cost line of threshold t as its heights at c = 0 and c = 1."""
    counts = confusion(y, s, t)
    return np.array([f_odds(*counts, 0.0), f_odds(*counts, 1.0)])


def optimal_pieces(ly, ls, y, s):
    """The lowest F-cost line of (ly, ls) on each piece between pairwise crossings; its
    threshold's line on (y, s)."""
    cands = candidate_thresholds(ls)
    q = np.array([f_line(ly, ls, t) for t in cands])
    finite = np.isfinite(q[:, 0])
    cands, left, right = cands[finite], q[finite, 0], q[finite, 1]
    with np.errstate(divide="ignore", invalid="ignore"):
        gap = np.subtract.outer(left, left)
        cross = (gap / (gap - np.subtract.outer(right, right))).ravel()
    inside = cross[(cross > 0) & (cross < 1)]  # NaN and inf fail both tests
    edges = np.unique(np.concatenate(([0.0, 1.0], inside)))
    c = (edges[:-1] + edges[1:]) / 2
    lowest = np.argmin(np.outer(1 - c, left) + np.outer(c, right), axis=1)
    return edges, np.array([f_line(y, s, t) for t in cands[lowest]]), None


def score_pieces(y, s):
    """Threshold t = c_hat: predicted positive iff score <= c_hat."""
    u = np.unique(s)
    edges = np.concatenate(([0.0], u[(u > 0) & (u < 1)], [1.0]))
    return edges, np.array([f_line(y, s, m) for m in (edges[:-1] + edges[1:]) / 2]), None


def rate_pieces(y, s):
    """Rate v in [r_{j-1}, r_j): line 'scores < u_j positive' with probability
    p = (r_j - v)/(r_j - r_{j-1}), else 'scores <= u_j positive'."""
    u = np.unique(s)
    r = np.concatenate(([0.0], [np.mean(s <= v) for v in u]))
    strict = np.array([f_line(y, s, t) for t in np.concatenate(([-np.inf], u[:-1]))])
    inclusive = np.array([f_line(y, s, t) for t in u])
    return r, strict, inclusive


def reference_pieces(method, y, s, ty, ts):
    if method == "test-optimal":
        return optimal_pieces(y, s, y, s)
    if method == "train-optimal":
        return optimal_pieces(ty, ts, y, s)
    if method == "score-driven":
        return score_pieces(y, s)
    return rate_pieces(y, s)


def reference_curve(c, gamma, edges, lines, other):
    """K_F(c): the mixture over c_hat ~ Beta(gamma c + 1, gamma (1 - c) + 1) of the pieces."""
    with np.errstate(invalid="ignore"):  # inf * 0 at c = 0 or 1 on lines not selected
        h = lines[:, 0] * (1 - c) + lines[:, 1] * c
    if math.isinf(gamma):
        k = min(np.searchsorted(edges, c, side="right") - 1, len(h) - 1)
        if other is None:
            return h[k]
        p = (edges[k + 1] - c) / (edges[k + 1] - edges[k])
        return p * h[k] + (1 - p) * float(other[k] @ [1 - c, c])
    a, b = gamma * c + 1.0, gamma * (1.0 - c) + 1.0
    mass = np.diff(betainc(a, b, edges))
    if other is None:
        return float(h @ mass)
    mean = a / (a + b) * np.diff(betainc(a + 1.0, b, edges))  # E[c_hat 1{piece}]
    p_mass = (edges[1:] * mass - mean) / np.diff(edges)  # E[p(c_hat) 1{piece}]
    h_other = other[:, 0] * (1 - c) + other[:, 1] * c
    return float(h @ p_mass + h_other @ (mass - p_mass))


def reference_loss(method, y, s, ty, ts, gamma):
    edges, lines, other = reference_pieces(method, y, s, ty, ts)
    infinite = ~np.isfinite(lines[:, 0])
    if other is not None:
        infinite |= ~np.isfinite(other[:, 0])
    if np.any(infinite & (np.diff(edges) > 0)):  # c uniform, or c_hat with full support
        return INF
    return quad(
        lambda c: reference_curve(c, gamma, edges, lines, other),
        0,
        1,
        points=edges[1:-1] if math.isinf(gamma) else None,
        epsabs=1e-13,
        epsrel=1e-13,
        limit=500,
    )[0]


def f_loss(method, y, s, ty, ts, gamma, **options):
    test = FCostLines.from_scores(y, s)
    train = FCostLines.from_scores(ty, ts)
    return expected_f_loss(make_selection(method, test, train=train), gamma, **options)


def with_zero_score(y, s):
    """A class-0 example at score 0: score-driven never predicts without true positives."""
    s = s.copy()
    s[0] = 0.0
    assert y[0] == 0
    return y, s


CASES = {
    "ties": (random_scores(21, 14, decimals=1, pi1=0.6), random_scores(22, 12, pi1=0.5)),
    "zero-score": (
        with_zero_score(*random_scores(23, 18, decimals=2, pi1=0.7)),
        with_zero_score(*random_scores(24, 15, decimals=2, pi1=0.65)),
    ),
    "distinct": (random_scores(25, 30, decimals=None), random_scores(26, 25, decimals=None)),
}
METHODS = ["test-optimal", "train-optimal", "score-driven", "rate-driven"]


# -- the lines -----------------------------------------------------------------------------------


@pytest.mark.parametrize("case", list(CASES))
def test_f_cost_lines_are_the_transformed_f_measure_loss_of_each_threshold(case):
    (y, s), _ = CASES[case]
    lines = FCostLines.from_scores(y, s)
    for j, t in enumerate(lines.thresholds):
        tp, fp, fn = confusion(y, s, t)
        for c in (0.0, 0.3, 0.5, 1.0):
            assert lines.height(j, c) == pytest.approx(f_odds(tp, fp, fn, c), rel=1e-12)
        if tp:  # at c = 1/2, FQ = 1 - F1
            f1 = 2 * tp / (2 * tp + fp + fn)
            assert lines.height(j, 0.5) == pytest.approx(2 * (1 - f1) / f1, rel=1e-12)


def test_f_cost_lines_are_the_accuracy_lines_over_the_true_positive_share():
    y, s = random_scores(27, 40, decimals=2)
    acc, f = CostLines.from_scores(y, s), FCostLines.from_scores(y, s)
    tp_share = acc.n0_le / acc.n
    ok = f.finite
    assert np.all(f.finite == (acc.n0_le > 0))
    np.testing.assert_allclose(f.left[ok], acc.left[ok] / tp_share[ok], rtol=1e-13)
    np.testing.assert_allclose(f.right[ok], acc.right[ok] / tp_share[ok], rtol=1e-13)
    assert np.all(np.isinf(f.left[~ok])) and np.all(f.slope[~ok] == 0)


@pytest.mark.parametrize("case", list(CASES))
def test_test_optimal_is_the_lowest_f_cost_line_at_every_cost(case):
    (y, s), _ = CASES[case]
    sel = make_selection("test-optimal", FCostLines.from_scores(y, s))
    cands = candidate_thresholds(s)
    c = np.concatenate((np.linspace(0, 1, 2001), sel.breaks))
    direct = np.array([[f_odds(*confusion(y, s, t), ci) for t in cands] for ci in c])
    np.testing.assert_allclose(
        expected_f_cost_curve(sel, INF, c), direct.min(axis=1), rtol=1e-12, atol=1e-12
    )


def convex_chain(points, upper):
    """Vertices of the upper (or lower) convex hull chain, left to right (monotone chain)."""
    chain: list[tuple[float, float]] = []
    for p in sorted(set(points)):
        while len(chain) >= 2:
            (ax, ay), (bx, by) = chain[-2], chain[-1]
            cross = (bx - ax) * (p[1] - ay) - (by - ay) * (p[0] - ax)
            if (cross < 0) if upper else (cross > 0):
                break
            chain.pop()
        chain.append(p)
    return chain


def fig2_example():
    """10 positives (class 0), 90 negatives; ROC hull (FPR, TPR) vertices (0, 0), (0, .3),
    (5/90, .6), (15/90, .8), (35/90, .9), (60/90, 1), (1, 1): within each hull edge the
    negatives come first, so no other ROC point is on the hull."""
    steps = [(0, 3), (5, 3), (10, 2), (20, 1), (25, 1), (30, 0)]  # (negatives, positives)
    labels: list[int] = []
    for neg, pos in steps:
        labels += [1] * neg + [0] * pos
    y = np.array(labels)
    return y, np.arange(1, y.size + 1) / (y.size + 1.0)


def test_fig2_froc_hull_is_the_roc_hull_without_its_singular_point():
    # paper 004, Fig. 2: 10 positives, 90 negatives; 7 ROC hull points, the FROC hull is
    # formed by 6 of them, the seventh (the origin, no true positive) is a singularity
    y, s = fig2_example()
    lines = CostLines.from_scores(y, s)
    roc = zip(lines.n1_le / lines.n1, lines.n0_le / lines.n0, strict=True)  # (FPR, TPR)
    roc_hull = convex_chain(roc, upper=True)
    assert len(roc_hull) == 7 and roc_hull[0] == (0.0, 0.0)
    froc = froc_points(y, s)
    lower = convex_chain(zip(froc.G_x, froc.G_y, strict=True), upper=False)
    # the F-optimal part: from the least G_x down to the least G_y (slopes -c/(1 - c) <= 0),
    # closed, like the ROC hull by (1, 1), by the all-positive point (0, n1/n0), which ties
    # with the point above it at c = 1 and bounds the plot
    froc_hull = [p for i, p in enumerate(lower) if i == 0 or p[1] < lower[i - 1][1]]
    froc_hull.append((0.0, 90 / 10))
    assert len(froc_hull) == 6
    on_hull = froc[froc.on_hull]
    assert set(zip(on_hull.G_x, on_hull.G_y, strict=True)) == set(froc_hull)
    back = set(zip(on_hull.fp / lines.n1, on_hull.tp / lines.n0, strict=True))
    assert back == set(roc_hull[1:])


def test_fig2_isometrics_rotate_around_minus_one_ninth_and_the_all_positive_bound_is_nine():
    y, s = fig2_example()
    froc = froc_points(y, s)
    pi = 10 / 100
    assert -pi / (1 - pi) == pytest.approx(-1 / 9)
    # F-measure isometrics are G_x + G_y = 2/F1 - 2: F1 = 1, 1/2, ..., 1/5 -> 0, 2, ..., 8
    np.testing.assert_allclose(froc.G_x + froc.G_y, 2 / froc.F1 - 2, rtol=1e-12)
    for f in (1, 1 / 2, 1 / 3, 1 / 4, 1 / 5):
        assert 2 / f - 2 == pytest.approx(2 * round(1 / f) - 2)
    # each ROC point lies on the ROC isometric of its F1 through (F1 = -pi/(1 - pi), F0 = 0),
    # of slope (1 - pi)/pi (1 - q)/(1 + q), q = 1 - F1 (eq. 19 at c = 1/2)
    q = 1 - froc.F1
    slope = (1 - pi) / pi * (1 - q) / (1 + q)
    tpr, fpr = froc.tp / 10, froc.fp / 90
    np.testing.assert_allclose(tpr, slope * (fpr + pi / (1 - pi)), rtol=1e-12)
    # the all-positive classifier: G = (0, (1 - pi)/pi) = (0, 9), F1 = 2/11, on G_x + G_y = 9
    last = froc.iloc[-1]
    assert (last.G_x, last.G_y) == (0.0, pytest.approx(9.0))
    assert last.F1 == pytest.approx(2 / 11) and last.on_hull
    # its F-cost line is 2 (1 - c)(1 - pi)/pi: the text's (1 - pi)/pi is its value at c = 1/2
    lines = FCostLines.from_scores(y, s)
    c = np.array([0.0, 0.25, 0.5, 1.0])
    np.testing.assert_allclose(lines.height(-1, c), 2 * (1 - c) * 9, rtol=1e-12)


def test_froc_points_are_counted_from_the_scores():
    y, s = random_scores(28, 30, decimals=1)
    froc = froc_points(y, s)
    assert (froc.tp > 0).all()
    for row in froc.itertuples():
        tp, fp, fn = confusion(y, s, row.threshold)
        assert (row.tp, row.fp, row.fn) == (tp, fp, fn)
        assert row.G_x == pytest.approx(fn / tp) and row.G_y == pytest.approx(fp / tp)


# -- expected values -------------------------------------------------------------------------


@pytest.mark.parametrize("gamma", [INF, 16.0, 4.0, 1.0, 0.0])
@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("case", list(CASES))
def test_expected_f_loss_matches_the_reference(case, method, gamma):
    (y, s), (ty, ts) = CASES[case]
    expected = reference_loss(method, y, s, ty, ts, gamma)
    got = f_loss(method, y, s, ty, ts, gamma)
    if math.isinf(expected):
        assert got == INF
    else:
        assert got == pytest.approx(expected, abs=1e-9)


def test_the_reference_cases_cover_finite_and_infinite_values():
    finite = {
        (case, m)
        for case, ((y, s), (ty, ts)) in CASES.items()
        for m in METHODS
        if math.isfinite(reference_loss(m, y, s, ty, ts, 4.0))
    }
    assert {m for _, m in finite} == {"test-optimal", "train-optimal", "score-driven"}
    assert ("distinct", "score-driven") not in finite  # lowest score above 0: never finite
    assert any(m == "train-optimal" for c, m in finite if c != "zero-score")


@pytest.mark.parametrize("case", list(CASES))
def test_rate_driven_curve_is_the_mixture_of_adjacent_f_cost_lines(case):
    (y, s), _ = CASES[case]
    sel = make_selection("rate-driven", FCostLines.from_scores(y, s))
    edges, lines, other = rate_pieces(y, s)
    c = np.linspace(0, 1, 997)
    expected = [reference_curve(ci, INF, edges, lines, other) for ci in c]
    got = expected_f_cost_curve(sel, INF, c)
    finite = np.isfinite(expected)
    assert finite.any() and not finite.all()
    assert np.array_equal(np.isfinite(got), finite)
    np.testing.assert_allclose(got[finite], np.array(expected)[finite], rtol=1e-12, atol=1e-12)
    assert np.all(np.isinf(expected_f_cost_curve(sel, 4.0, c)))


@pytest.mark.parametrize("method", ["test-optimal", "train-optimal"])
def test_grid_estimator_under_certainty_averages_the_lowest_lines_at_grid_points(method):
    (y, s), (ty, ts) = CASES["distinct"]
    c = paper_grid(1000)
    select_y, select_s = (y, s) if method == "test-optimal" else (ty, ts)
    cands = candidate_thresholds(select_s)
    lines = np.array([f_line(select_y, select_s, t) for t in cands])
    finite = np.isfinite(lines[:, 0])  # lines without true positives are never the lowest
    cands, lines = cands[finite], lines[finite]
    heights = lines[:, 0][None, :] * (1 - c[:, None]) + lines[:, 1][None, :] * c[:, None]
    chosen = cands[np.argmin(heights, axis=1)]  # the first (lowest threshold) on ties
    direct = np.mean([f_odds(*confusion(y, s, t), ci) for t, ci in zip(chosen, c, strict=True)])
    assert f_loss(method, y, s, ty, ts, INF, estimator="grid") == pytest.approx(direct, rel=1e-12)


def test_grid_and_montecarlo_estimators_approach_the_exact_value():
    (y, s), (ty, ts) = CASES["zero-score"]
    for method in ("test-optimal", "score-driven"):
        exact = f_loss(method, y, s, ty, ts, 4.0)
        assert math.isfinite(exact)
        assert f_loss(method, y, s, ty, ts, 4.0, estimator="grid") == pytest.approx(
            exact, abs=5e-3
        )
        mc = f_loss(method, y, s, ty, ts, 4.0, estimator="montecarlo", grid_size=20000, seed=3)
        assert mc == pytest.approx(exact, rel=0.05)
    assert f_loss("rate-driven", y, s, ty, ts, 4.0, estimator="montecarlo", seed=3) == INF


@pytest.mark.parametrize("gamma", [8.0, 2.0, 0.5])
@pytest.mark.parametrize("case", list(CASES))
def test_test_optimal_aware_is_never_worse_for_the_f_measure(case, gamma):
    # the F-cost lines are linear in c too, so the line chosen at E[c | c_hat] minimises the
    # posterior expected 2FQ/(1 - FQ) among the lines
    (y, s), _ = CASES[case]
    lines = FCostLines.from_scores(y, s)
    aware = expected_f_loss(make_selection("test-optimal-aware", lines, gamma=gamma), gamma)
    plain = expected_f_loss(make_selection("test-optimal", lines), gamma)
    assert math.isfinite(aware) and aware <= plain + 1e-9


def test_expected_losses_with_the_f_measure_loss_uses_the_f_cost_lines():
    (y, s), (ty, ts) = CASES["zero-score"]
    frame = expected_losses(
        y,
        s,
        train_y=ty,
        train_s=ts,
        methods=METHODS,
        gammas=[INF, 4.0],
        loss_function="f-measure",
    ).set_index(["method", "gamma"])["expected_loss"]
    for method in METHODS:
        for gamma in (INF, 4.0):
            assert frame[(method, gamma)] == f_loss(method, y, s, ty, ts, gamma)
    accuracy = expected_losses(y, s, methods=["test-optimal"], gammas=[INF])
    assert accuracy["expected_loss"].item() != frame[("test-optimal", INF)]


def test_unknown_loss_and_the_authors_tie_breaking_are_rejected():
    from threshold_choice.errors import UserError

    with pytest.raises(UserError, match="unknown loss 'recall'"):
        loss_context("recall")
    y, s = random_scores(29, 20)
    with pytest.raises(UserError, match="use 'project' with the f-measure loss"):
        expected_losses(
            y,
            s,
            methods=["test-optimal"],
            settings=LossSettings(tie_breaking="authors"),
            loss_function="f-measure",
        )


def test_loss_command_with_the_f_measure_loss(tmp_path, capsys):
    (y, s), (ty, ts) = CASES["ties"]
    test, train = tmp_path / "test.csv", tmp_path / "train.csv"
    pd.DataFrame({"label": y, "score": s}).to_csv(test, index=False)
    pd.DataFrame({"label": ty, "score": ts}).to_csv(train, index=False)
    args = ["loss", "--test", str(test), "--train", str(train), "--gamma", "inf"]
    assert main([*args, "--loss", "f-measure"]) == 0
    losses = pd.read_csv(StringIO(capsys.readouterr().out.split("\n\n")[0]))
    got = losses.set_index("method")["expected_loss"]
    for method in METHODS:
        expected = f_loss(method, y, s, ty, ts, INF)
        assert got[method] == (INF if math.isinf(expected) else pytest.approx(expected))
    assert got["rate-driven"] == INF and math.isfinite(got["test-optimal"])
    assert main([*args, "--loss", "f-measure", "--tie-breaking", "authors"]) == 2
    assert "f-measure" in capsys.readouterr().err


def weighted_reference_loss(method, y, s, ty, ts, gamma, pdf, low, high):
    """reference_loss with the true cost c of density ``pdf`` on [low, high]."""
    edges, lines, other = reference_pieces(method, y, s, ty, ts)
    infinite = ~np.isfinite(lines[:, 0])
    if other is not None:
        infinite |= ~np.isfinite(other[:, 0])
    if math.isinf(gamma):  # only the pieces the costs of positive density reach
        reach = (edges[1:] > low) & (edges[:-1] < high) & (np.diff(edges) > 0)
    else:  # c_hat reaches every piece
        reach = np.diff(edges) > 0
    if np.any(infinite & reach):
        return INF
    inner = edges[(edges > low) & (edges < high)]
    return quad(
        lambda c: reference_curve(c, gamma, edges, lines, other) * pdf(c),
        low,
        high,
        points=inner if math.isinf(gamma) and inner.size else None,
        epsabs=1e-13,
        epsrel=1e-13,
        limit=500,
    )[0]


@pytest.mark.parametrize(
    ("spec", "gammas"),
    [("beta:2,2", [INF, 4.0]), ("uniform:0.2,0.8", [INF])],
)
@pytest.mark.parametrize("method", ["test-optimal", "train-optimal", "score-driven"])
def test_expected_f_loss_under_a_cost_distribution_matches_the_weighted_reference(
    spec, gammas, method
):
    from scipy.stats import beta

    pdf, low, high = ((lambda c: beta.pdf(c, 2, 2)), 0.0, 1.0) if spec.startswith("beta") \
        else ((lambda c: 1 / 0.6), 0.2, 0.8)
    for case, ((y, s), (ty, ts)) in CASES.items():
        for gamma in gammas:
            expected = weighted_reference_loss(method, y, s, ty, ts, gamma, pdf, low, high)
            got = f_loss(method, y, s, ty, ts, gamma, distribution=spec)
            if math.isinf(expected):
                assert got == INF, (case, gamma)
            else:
                assert got == pytest.approx(expected, abs=1e-8), (case, gamma)


# -- FROC takes any real scores -----------------------------------------------------------------


def test_froc_is_rank_based_so_any_real_scores_give_the_same_points():
    # unlike a decision curve, FROC thresholds the scores' order only
    from threshold_choice.fmeasure import froc_points

    y, s = random_scores(3, 200)
    ours = froc_points(y, s).drop(columns="threshold")
    scaled = froc_points(y, 100 * s - 7).drop(columns="threshold")
    pd.testing.assert_frame_equal(ours, scaled)


def test_instance_uniform_under_the_f_measure_loss_warns_of_nothing():
    y, s = random_scores(0, 40)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # 0 * inf, inf - inf were warned
        out = expected_losses(y, s, methods="instance-uniform", loss_function="f-measure")
    assert len(out) > 0


# a tiny set whose lowest scores are class 1: the F-cost lines predicting 0 for none or only
# for them are infinite (TP = 0), so rate-driven's interpolation meets inf - inf and 0 * inf
TINY_Y, TINY_S = [0, 1, 1], [0.9, 0.1, 0.5]


@pytest.mark.parametrize("settings", [
    None,
    LossSettings(rate_threshold_offset=1e-7),
    LossSettings(fixed_rate=0.8),  # rate-fixed between the last infinite and a finite line
    LossSettings(estimator="grid", grid_size=50),
])
def test_methods_on_infinite_f_cost_lines_warn_of_nothing(settings):
    methods = ["rate-driven", "rate-uniform", "rate-driven-z", "rate-fixed", "score-fixed",
               "instance-uniform", "test-optimal"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # numpy's "invalid value encountered" reached the user
        out = expected_losses(TINY_Y, TINY_S, train_y=TINY_Y, train_s=TINY_S, methods=methods,
                              gammas=[INF, 4.0, 0.0], settings=settings,
                              loss_function="f-measure")
    # every method but test-optimal picks a line without true positives with positive
    # probability (score-fixed's t = 1/2 predicts 0 for the two class-1 examples only)
    optimal = out["method"] == "test-optimal"
    assert (out.loc[~optimal, "expected_loss"] == INF).all()
    assert np.isfinite(out.loc[optimal, "expected_loss"]).all()


def test_the_f_cost_display_and_plot_f_cost_on_a_tiny_set_warn_of_nothing(tmp_path, capsys):
    from threshold_choice.plotting import FCostDisplay

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        display = FCostDisplay.from_predictions(TINY_Y, TINY_S, plot=False)
    areas = display.areas.set_index("method")["expected_loss"]
    assert areas["test-optimal"] == pytest.approx(2.0)
    assert areas["score-driven"] == INF and areas["rate-driven"] == INF
    path = tmp_path / "tiny.csv"
    pd.DataFrame({"label": TINY_Y, "score": TINY_S}).to_csv(path, index=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        code = main(["plot", "f-cost", "--test", str(path), "--out", str(tmp_path / "f.png")])
    err = capsys.readouterr().err
    assert code == 0, err
    assert "Warning" not in err and "invalid value" not in err, err
