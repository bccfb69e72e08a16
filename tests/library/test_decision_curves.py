"""Net benefit, decision curves and their average over a threshold range (paper 002,
Sect. 4.3 and Appendix D), against counts at each threshold, adaptive quadrature, the
``dcurves`` package and the table of paper 002's Appendix D."""

from __future__ import annotations

import math
import os
from io import StringIO

import numpy as np
import pandas as pd
import pytest
from scipy.integrate import quad
from scipy.special import betainc, expit

from tests.conftest import random_scores
from threshold_choice.cli import main
from threshold_choice.costlines import CostLines
from threshold_choice.decision_curves import (
    DEFAULT_THRESHOLDS,
    average_net_benefit,
    average_treat_all_net_benefit,
    decision_curve,
    expected_net_benefit,
    net_benefit,
    treat_all_net_benefit,
)
from threshold_choice.errors import UserError
from threshold_choice.methods import make_selection
from threshold_choice.metrics import compute_metrics

INF = math.inf


def counted_net_benefit(y, s, t, inclusive=False):
    """TP/n - FP/n * t/(1 - t), counting the treated (score > t, or >= t) examples."""
    treated = s >= t if inclusive else s > t
    n = len(y)
    return np.sum(treated & (y == 1)) / n - np.sum(treated & (y == 0)) / n * t / (1 - t)


def dataset(name):
    """Labels and scores: continuous; rounded to the threshold grid (ties at thresholds);
    with scores exactly 0 and 1; a rare event."""
    if name == "continuous":
        return random_scores(31, 400, decimals=None, pi1=0.3)
    if name == "on-grid":
        return random_scores(32, 300, decimals=2, pi1=0.4)
    if name == "ends":
        y, s = random_scores(33, 200, decimals=None, pi1=0.5)
        s[:10:2], s[1:10:2] = 0.0, 1.0
        return y, s
    rng = np.random.default_rng(35)
    y = (rng.random(2000) < 0.05).astype(np.int8)
    y[:2] = [0, 1]
    return y, expit(rng.normal(-3 + 1.5 * y, 1.0))


DATASETS = ["continuous", "on-grid", "ends", "rare"]


@pytest.mark.parametrize("inclusive", [False, True])
@pytest.mark.parametrize("name", DATASETS)
def test_net_benefit_counts_the_treated_at_each_threshold(name, inclusive):
    y, s = dataset(name)
    t = np.concatenate((DEFAULT_THRESHOLDS, np.unique(s[s < 1])[:50]))
    expected = [counted_net_benefit(y, s, ti, inclusive) for ti in t]
    np.testing.assert_allclose(
        net_benefit(y, s, t, inclusive=inclusive), expected, rtol=1e-13, atol=1e-15
    )


def test_decision_curve_has_treat_all_and_treat_none():
    y, s = dataset("rare")
    curve = decision_curve(y, s, [0.0, 0.02, 0.1, 0.5])
    pi1 = y.mean()
    everyone = np.ones_like(s)  # treating all = a score above every threshold
    expected_all = [counted_net_benefit(y, everyone, t) for t in curve.threshold]
    np.testing.assert_allclose(curve.treat_all, expected_all, rtol=1e-13)
    assert curve.treat_all.iloc[0] == pytest.approx(pi1)
    assert (curve.treat_none == 0).all()
    assert list(curve.columns) == ["threshold", "net_benefit", "treat_all", "treat_none"]


@pytest.mark.parametrize("bad", [1.0, -0.1, 1.5, float("nan")])
def test_thresholds_outside_the_unit_interval_are_rejected(bad):
    y, s = dataset("continuous")
    with pytest.raises(UserError, match=r"thresholds must be in \[0, 1\)"):
        net_benefit(y, s, [0.1, bad])


# -- the net benefit as a cost line (Thm 4.6) --------------------------------------------------


@pytest.mark.parametrize("name", DATASETS)
def test_net_benefit_is_prevalence_minus_regret_over_one_minus_t(name):
    # Thm 4.6: NB(c) = pi - R(c)/(1 - c), R(c) = c (1 - pi)(1 - F0(c)) + (1 - c) pi F1(c)
    # the regret of the threshold c at cost c: half the package's loss Q (b = 2)
    y, s = dataset(name)
    t = DEFAULT_THRESHOLDS
    pi = y.mean()
    f0 = np.array([np.mean(s[y == 0] <= ti) for ti in t])
    f1 = np.array([np.mean(s[y == 1] <= ti) for ti in t])
    regret = t * (1 - pi) * (1 - f0) + (1 - t) * pi * f1
    np.testing.assert_allclose(net_benefit(y, s, t), pi - regret / (1 - t), atol=1e-14)
    sel = make_selection("score-driven", CostLines.from_scores(y, s))
    np.testing.assert_allclose(2 * regret, sel.loss(t, t), atol=1e-14)


def test_expected_net_benefit_of_score_driven_under_certainty_is_the_decision_curve():
    y, s = dataset("on-grid")
    sel = make_selection("score-driven", CostLines.from_scores(y, s))
    t = DEFAULT_THRESHOLDS
    np.testing.assert_allclose(
        expected_net_benefit(sel, INF, t, pi1=y.mean()), net_benefit(y, s, t), atol=1e-14
    )


def test_expected_net_benefit_of_test_optimal_is_the_best_threshold_at_each_t():
    y, s = dataset("ends")
    sel = make_selection("test-optimal", CostLines.from_scores(y, s))
    t = np.linspace(0, 0.99, 199)
    cands = np.concatenate(([-1.0], np.unique(s)))  # treat all, ..., treat none
    best = np.array([max(counted_net_benefit_at(y, s, c, ti) for c in cands) for ti in t])
    np.testing.assert_allclose(expected_net_benefit(sel, INF, t, pi1=y.mean()), best, atol=1e-13)


def counted_net_benefit_at(y, s, threshold, t):
    """Net benefit at exchange rate t/(1 - t) of the classifier 'treat iff score > threshold'."""
    treated = s > threshold
    n = len(y)
    return np.sum(treated & (y == 1)) / n - np.sum(treated & (y == 0)) / n * t / (1 - t)


@pytest.mark.parametrize("gamma", [16.0, 2.0, 0.0])
def test_expected_net_benefit_under_uncertainty_matches_quadrature_over_c_hat(gamma):
    # score-driven given c_hat ~ Beta(gamma t + 1, gamma (1 - t) + 1): the threshold is c_hat,
    # the exchange rate stays t; E over c_hat piecewise between the scores (Beta CDFs)
    y, s = random_scores(34, 60, decimals=2, pi1=0.4)
    sel = make_selection("score-driven", CostLines.from_scores(y, s))
    u = np.unique(s)
    edges = np.concatenate(([0.0], u[(u > 0) & (u < 1)], [1.0]))
    mids = (edges[:-1] + edges[1:]) / 2
    for t in (0.0, 0.05, 0.3, 0.7, 0.95):
        a, b = gamma * t + 1, gamma * (1 - t) + 1
        mass = np.diff(betainc(a, b, edges))
        nb = [counted_net_benefit_at(y, s, c, t) for c in mids]
        expected = float(np.dot(mass, nb))
        got = expected_net_benefit(sel, gamma, [t], pi1=y.mean())[0]
        assert got == pytest.approx(expected, abs=1e-9)


# -- the average over a range (Thm 4.7) ---------------------------------------------------------


@pytest.mark.parametrize(("low", "high"), [(0.0, 0.99), (0.05, 0.2), (0.1, 0.5), (0.3, 0.31)])
@pytest.mark.parametrize("name", DATASETS)
def test_average_net_benefit_equals_adaptive_quadrature(name, low, high):
    y, s = dataset(name)
    inside = np.unique(s[(s > low) & (s < high)])
    expected = quad(
        lambda t: counted_net_benefit(y, s, t),
        low,
        high,
        points=inside if inside.size else None,
        limit=max(50, 4 * inside.size),
        epsabs=1e-13,
        epsrel=1e-13,
    )[0] / (high - low)
    assert average_net_benefit(y, s, low, high) == pytest.approx(expected, abs=1e-10)
    everyone = quad(lambda t: counted_net_benefit(y, np.ones_like(s), t), low, high)[0]
    assert average_treat_all_net_benefit(y.mean(), low, high) == pytest.approx(
        everyone / (high - low), abs=1e-10
    )


def theorem_4_7(y, s, low, high, class1_loss):
    """pi - [E L(clip(s), y) - E L(clip(y), y)] / (b - a), L(s, 0) = (1 - s) - ln(1 - s)."""

    def loss(p, label):
        return np.where(label == 1, class1_loss(p), (1 - p) - np.log1p(-p))

    gap = np.mean(loss(np.clip(s, low, high), y)) - np.mean(loss(np.clip(y, low, high), y))
    return y.mean() - gap / (high - low)


@pytest.mark.parametrize(("low", "high"), [(0.05, 0.2), (0.0, 0.5), (0.2, 0.9)])
@pytest.mark.parametrize("name", DATASETS)
def test_theorem_4_7_holds_with_a_decreasing_class_1_loss_not_as_printed(name, low, high):
    y, s = dataset(name)
    exact = average_net_benefit(y, s, low, high)
    corrected = theorem_4_7(y, s, low, high, lambda p: 1 - p)
    assert corrected == pytest.approx(exact, abs=1e-12)
    printed = theorem_4_7(y, s, low, high, lambda p: p)
    # as printed (L(s, 1) = s) it overstates by 2 pi1 E[b - clip(s) | y = 1] / (b - a)
    excess = 2 * y.mean() * np.mean(high - np.clip(s[y == 1], low, high)) / (high - low)
    assert printed - exact == pytest.approx(excess, abs=1e-12)
    if name in ("rare", "ends"):  # events scored inside the range: the printed form is off
        assert excess > 0.005


def test_bad_ranges_are_rejected():
    y, s = dataset("continuous")
    for low, high in [(0.2, 0.1), (0.1, 0.1), (-0.1, 0.5), (0.5, 1.0)]:
        with pytest.raises(UserError, match="0 <= low < high < 1"):
            average_net_benefit(y, s, low, high)


# -- dcurves ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def dcurves():
    return pytest.importorskip("dcurves", reason="dcurves not installed: pip install .[test]")


def dcurves_curve(dcurves, y, s, thresholds=DEFAULT_THRESHOLDS):
    frame = pd.DataFrame({"outcome": y.astype(bool), "model": s})
    out = dcurves.dca(data=frame, outcome="outcome", modelnames=["model"], thresholds=thresholds)
    return out.pivot(index="threshold", columns="model", values="net_benefit")


def dcurves_convention(y, s, thresholds=DEFAULT_THRESHOLDS):
    """dcurves treats iff score >= t, but never a score of exactly 0 (it moves 0 to -eps):
    our inclusive convention for t > 0, the strict one at t = 0."""
    inclusive = decision_curve(y, s, thresholds, inclusive=True)
    strict = decision_curve(y, s, thresholds)
    return inclusive.where(inclusive.threshold > 0, strict)


@pytest.mark.parametrize("name", DATASETS)
def test_equal_to_dcurves(dcurves, name):
    y, s = dataset(name)
    theirs = dcurves_curve(dcurves, y, s)
    ours = dcurves_convention(y, s)
    np.testing.assert_allclose(ours.net_benefit, theirs["model"], rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(ours.treat_all, theirs["all"], rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(ours.treat_none, theirs["none"], atol=1e-15)


def test_ties_at_thresholds_are_where_the_conventions_differ(dcurves):
    y, s = dataset("on-grid")
    theirs = dcurves_curve(dcurves, y, s)["model"].to_numpy()
    strict = decision_curve(y, s).net_benefit.to_numpy()
    differ = ~np.isclose(strict, theirs, rtol=0, atol=1e-15)
    on_a_score = np.isin(DEFAULT_THRESHOLDS, s[s > 0])
    assert differ.sum() >= 10 and np.array_equal(differ, on_a_score)


@pytest.mark.parametrize("model", ["cancerpredmarker", "famhistory"])
def test_equal_to_dcurves_on_its_own_example_data(dcurves, model):
    frame = pd.read_csv(os.path.join(dcurves.data, "df_binary.csv"))
    y, s = frame["cancer"].to_numpy().astype(np.int8), frame[model].to_numpy(dtype=float)
    theirs = dcurves_curve(dcurves, y, s)
    ours = dcurves_convention(y, s)
    np.testing.assert_allclose(ours.net_benefit, theirs["model"], rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(ours.treat_all, theirs["all"], rtol=1e-12, atol=1e-15)


# -- the command -----------------------------------------------------------------------------


def test_decision_curve_command_prints_the_curve_and_averages(tmp_path, capsys):
    y, s = dataset("continuous")
    path = tmp_path / "test.csv"
    pd.DataFrame({"label": y, "score": s}).to_csv(path, index=False)
    args = ["decision-curve", "--test", str(path), "--thresholds", "0.05", "0.1", "0.2"]
    assert main([*args, "--average", "0.05", "0.2", "--average", "0", "0.5"]) == 0
    curve_text, average_text = capsys.readouterr().out.split("\n\n")
    curve = pd.read_csv(StringIO(curve_text))
    expected = decision_curve(y, s, [0.05, 0.1, 0.2])
    pd.testing.assert_frame_equal(curve, expected, rtol=1e-9, check_dtype=False)
    averages = pd.read_csv(StringIO(average_text))
    assert list(averages.columns) == ["low", "high", "net_benefit", "treat_all", "treat_none"]
    assert averages.net_benefit.tolist() == pytest.approx(
        [average_net_benefit(y, s, 0.05, 0.2), average_net_benefit(y, s, 0.0, 0.5)], abs=1e-9
    )
    assert main(["decision-curve", "--test", str(path)]) == 0
    assert len(pd.read_csv(StringIO(capsys.readouterr().out))) == 100  # dcurves' default grid


@pytest.mark.parametrize("scale", ["quadratic", "log"])
def test_decision_curve_command_adds_the_rescaled_axis(tmp_path, capsys, scale):
    from threshold_choice.cli.decision_curve import SCALES
    from threshold_choice.decision_curves import RESCALINGS

    assert SCALES == tuple(RESCALINGS)  # the command's choices are the library's
    y, s = dataset("continuous")
    path = tmp_path / "test.csv"
    pd.DataFrame({"label": y, "score": s}).to_csv(path, index=False)
    args = ["decision-curve", "--test", str(path), "--thresholds", "0.05", "0.1", "0.2"]
    assert main([*args, "--scale", scale, "--average", "0.05", "0.2"]) == 0
    curve_text, average_text = capsys.readouterr().out.split("\n\n")
    curve = pd.read_csv(StringIO(curve_text))
    t = np.array([0.05, 0.1, 0.2])
    x = np.log(t) if scale == "log" else -((1 - t) ** 2) / 2  # App. C's axes, written out
    np.testing.assert_allclose(curve["x"], x, rtol=1e-9)
    plain = decision_curve(y, s, t)
    np.testing.assert_allclose(curve["net_benefit"], plain["net_benefit"], rtol=1e-9)
    averages = pd.read_csv(StringIO(average_text))
    assert list(averages.columns) == ["low", "high", "net_benefit", "treat_all", "treat_none"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--thresholds", "0.1", "1"], "thresholds must be in [0, 1)"),
        (["--average", "0.3", "0.2"], "0 <= low < high < 1"),
    ],
)
def test_decision_curve_command_rejects_bad_input(tmp_path, capsys, args, message):
    path = tmp_path / "test.csv"
    pd.DataFrame({"label": [0, 1, 1], "score": [0.1, 0.4, 0.8]}).to_csv(path, index=False)
    assert main(["decision-curve", "--test", str(path), *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


# -- paper 002, Appendix D (Assel et al.'s simulation) -----------------------------------------

# AUC, Brier, NB 5%, NB 10%, NB 20%, bounded Brier 5%-20%, as printed (2 decimals)
APPENDIX_D = {
    "Highly sensitive": (0.73, 0.41, 0.17, 0.15, 0.09, 0.12),
    "Underestimating risk": (0.75, 0.15, 0.16, 0.12, 0.06, 0.16),
    "Well calibrated": (0.75, 0.17, 0.16, 0.12, 0.05, 0.17),
    "Overestimating risk": (0.75, 0.20, 0.16, 0.11, 0.03, 0.18),
    "Assume all positive": (0.50, 0.80, 0.16, 0.11, 0.00, 0.20),
    "Highly specific": (0.73, 0.14, 0.10, 0.10, 0.09, 0.18),
    "Severely underestimating risk": (0.75, 0.18, 0.09, 0.04, 0.01, 0.29),
    "Assume all negative": (0.50, 0.20, 0.00, 0.00, 0.00, 0.35),
}


def assel_simulation(n=1_000_000, seed=42):
    """Assel et al. (2017)'s patients: prevalence 20%; binary tests of sensitivity /
    specificity 95%/50% and 50%/95%; a marker z ~ N(0.95 y, 1) and risks
    expit(-0.9 + z + shift), shift 0 (calibrated), +0.361, -0.285, -3.04 (the constants of
    briertools' reproduction, ``assel/simulation.py``). Our own draws (numpy's default
    generator): the numbers agree with the table up to sampling noise."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.2).astype(np.int8)
    sick = y == 1

    def binary_test(sensitivity, specificity):
        return np.where(sick, rng.random(n) < sensitivity, rng.random(n) > specificity) * 1.0

    sensitive, specific = binary_test(0.95, 0.50), binary_test(0.50, 0.95)
    logit = -0.9 + rng.normal(0.0, 1.0, n) + 0.95 * sick
    return y, {
        "Highly sensitive": sensitive,
        "Underestimating risk": expit(logit - 0.285),
        "Well calibrated": expit(logit),
        "Overestimating risk": expit(logit + 0.361),
        "Assume all positive": np.ones(n),
        "Highly specific": specific,
        "Severely underestimating risk": expit(logit - 3.04),
        "Assume all negative": np.zeros(n),
    }


def bounded_brier(y, s, low, high):
    """The right-hand side of Thm 4.3: [E(y - clip(s))^2 - E(y - clip(y))^2] / (b - a)."""
    clip = np.clip
    return (np.mean((y - clip(s, low, high)) ** 2) - np.mean((y - clip(y, low, high)) ** 2)) / (
        high - low
    )


@pytest.mark.slow
def test_appendix_d_table_of_paper_002():
    y, models = assel_simulation()
    low, high = 0.05, 0.20
    ours = {}
    for name, s in models.items():
        metrics = compute_metrics(y, s)
        nb = net_benefit(y, s, [0.05, 0.10, 0.20])
        # the bounded Brier score as the table computes it (Thm 4.3's right-hand side) ...
        bounded = bounded_brier(y, s, low, high)
        ours[name] = (metrics["AUC"], metrics["BS"], *nb, bounded)
        for value, printed in zip(ours[name], APPENDIX_D[name], strict=True):
            # half a unit of the last printed digit, plus sampling noise (SE <= 6e-4); the
            # binary tests' AUC is (sens + spec)/2 = 0.725 in expectation, on the boundary
            assert value == pytest.approx(printed, abs=0.005 + 0.001)
    # "the ordering by the bounded Brier score is almost the same as by NB at 5%; the single
    # exception is Assume all positive"
    by_nb5 = sorted(ours, key=lambda k: -ours[k][2])
    by_bounded = sorted(ours, key=lambda k: ours[k][5])
    assert [k for k in by_nb5 if k != "Assume all positive"] == [
        k for k in by_bounded if k != "Assume all positive"
    ]
    assert by_nb5.index("Assume all positive") != by_bounded.index("Assume all positive")
    assert list(APPENDIX_D) == by_nb5  # the table is sorted by NB at 5%


def mean_regret(y, s, low, high):
    """Mean over c uniform on [low, high] of (pi - NB(c)) (1 - c) (Thm C.3), exactly: on each
    piece between scores, TP and FP are constant and the integrand is a polynomial."""
    n, pi = len(y), y.mean()
    edges = np.unique(np.concatenate(([low, high], s[(s > low) & (s < high)])))
    mid = (edges[:-1] + edges[1:]) / 2
    tp = np.sum((s[y == 1][None, :] > mid[:, None]), axis=1) / n
    fp = np.sum((s[y == 0][None, :] > mid[:, None]), axis=1) / n
    lo, hi = edges[:-1], edges[1:]
    # (pi - tp + fp c/(1 - c)) (1 - c) = (pi - tp)(1 - c) + fp c
    total = (pi - tp) * ((hi - lo) - (hi**2 - lo**2) / 2) + fp * (hi**2 - lo**2) / 2
    return total.sum() / (high - low)


@pytest.mark.slow
def test_appendix_d_bounded_brier_is_twice_the_mean_regret_over_the_range():
    # Thm 4.3 (and 4.1) as printed miss a factor 2: their right-hand side, which the table
    # prints, is twice the mean regret, here from the quadratically rescaled decision curve
    # (Thm C.3: the mean over [a, b] of (pi - NB(c)) (1 - c) is the mean regret)
    y, models = assel_simulation(n=5_000, seed=7)
    low, high = 0.05, 0.20
    for name, s in models.items():
        twice = 2 * mean_regret(y, s, low, high)
        assert bounded_brier(y, s, low, high) == pytest.approx(twice, abs=1e-12), name


@pytest.mark.parametrize(("call", "message"), [
    (lambda: average_net_benefit([0, 1, 0, 1], [0.1, 0.8, 0.3, 0.6], "0.05", None),
     "the threshold range needs numbers 0 <= low < high < 1, got low='0.05', high=None"),
    (lambda: average_treat_all_net_benefit(0.5, 0.05, float("nan")), "the threshold range"),
    (lambda: treat_all_net_benefit(float("nan"), [0.1]), "pi1, the class-1 proportion"),
    (lambda: average_treat_all_net_benefit(2.0, 0.1, 0.2), r"must be a number in \[0, 1\]"),
])
def test_a_range_or_proportion_that_is_not_a_number_in_range_is_named(call, message):
    with pytest.raises(UserError, match=message):
        call()
