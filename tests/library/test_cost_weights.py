"""The implicit weights of the scoring rules on the cost proportion (paper 002, Figs 2 and 3):
``cost_weight_density`` on ``c`` and on ``z = logit(c)``, checked against scipy's
distributions (quadrature, sampling, CDFs) and the closed forms, the paper's statements about
them, and ``CostWeightDisplay``'s numbers and drawing."""

from __future__ import annotations

import itertools
import math

import matplotlib.pyplot as plt
import numpy as np
import pytest
from scipy import stats
from scipy.integrate import quad
from scipy.special import expit, logit

from threshold_choice import UserError, cost_weight_density
from threshold_choice.plotting import CostWeightDisplay
from threshold_choice.plotting._common import DATA_COLUMNS

SPECS = ["uniform", "beta:1,1", "beta:2,2", "beta:2,8", "beta:30,5", "uniform:0.05,0.2",
         "logit-uniform:0.001,0.999", "logit-uniform:0.01,0.5"]


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def scipy_distribution(spec: str):
    """The belief as a frozen scipy distribution of ``c`` (logit-uniform: ``None``, written
    out by hand in :func:`textbook_pdf`)."""
    kind, _, params = spec.partition(":")
    if kind == "uniform":
        lo, hi = (float(v) for v in params.split(",")) if params else (0.0, 1.0)
        return stats.uniform(lo, hi - lo)
    if kind == "beta":
        a, b = (float(v) for v in params.split(","))
        return stats.beta(a, b)
    return None


def textbook_pdf(spec: str, c: float) -> float:
    """``w(c)`` from its textbook formula (scipy's, or ``1 / (Z c (1 - c))``)."""
    dist = scipy_distribution(spec)
    if dist is not None:
        return float(dist.pdf(c))
    lo, hi = (float(v) for v in spec.partition(":")[2].split(","))
    return 1.0 / ((math.log(hi / (1 - hi)) - math.log(lo / (1 - lo))) * c * (1 - c)) \
        if lo <= c <= hi else 0.0


def textbook_cdf(spec: str, c: float) -> float:
    dist = scipy_distribution(spec)
    if dist is not None:
        return float(dist.cdf(c))
    lo, hi = (float(v) for v in spec.partition(":")[2].split(","))
    return quad(lambda u: textbook_pdf(spec, u), lo, min(max(c, lo), hi))[0]


def ends(spec: str) -> list[float]:
    kind, _, params = spec.partition(":")
    return [float(v) for v in params.split(",")] if params and kind != "beta" else []


def log_odds_mass(spec: str, a: float, b: float) -> float:
    """The integral of the log-odds density over [a, b] (infinite ends allowed), by adaptive
    quadrature in pieces cut at the jumps of a bounded range."""
    cuts = [a, *[u for u in logit(np.asarray(ends(spec))) if a < u < b], b]
    return sum(quad(lambda z: float(cost_weight_density(spec, z, "log-odds")), lo, hi,
                    limit=200)[0] for lo, hi in itertools.pairwise(cuts))


# -- the function ------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", SPECS)
def test_the_density_integrates_to_one_on_each_scale(spec):
    cost = quad(lambda c: float(cost_weight_density(spec, c)), 0.0, 1.0,
                points=ends(spec) or None, limit=200)[0]
    log_odds = log_odds_mass(spec, -math.inf, math.inf)
    assert cost == pytest.approx(1.0, abs=1e-8)
    assert log_odds == pytest.approx(1.0, abs=1e-8)


@pytest.mark.parametrize("spec", SPECS)
def test_on_c_the_density_is_scipys(spec):
    c = np.linspace(0.0, 1.0, 401)
    expected = [textbook_pdf(spec, v) for v in c]
    np.testing.assert_allclose(cost_weight_density(spec, c), expected, rtol=1e-12, atol=1e-300)


@pytest.mark.parametrize("spec", SPECS)
def test_the_log_odds_density_integrates_to_the_cdf_of_c(spec):
    """The change of variables done independently: P(z <= t) = F_c(expit(t))."""
    for t in (-6.0, -2.5, -1.0, 0.0, 0.7, 3.0):
        mass = log_odds_mass(spec, -math.inf, t)
        assert mass == pytest.approx(textbook_cdf(spec, float(expit(t))), abs=1e-8), t


@pytest.mark.parametrize("spec", ["beta:2,8", "beta:2,2", "uniform:0.05,0.2"])
def test_the_log_odds_density_is_the_histogram_of_logit_of_samples_of_c(spec):
    n = 400_000
    z = logit(scipy_distribution(spec).rvs(size=n, random_state=np.random.default_rng(0)))
    edges = np.linspace(-6.0, 4.0, 41)
    counts, _ = np.histogram(z, bins=edges)
    expected = np.array([log_odds_mass(spec, a, b) for a, b in itertools.pairwise(edges)])
    sigma = np.sqrt(n * expected * (1 - expected)) + 1.0
    assert np.all(np.abs(counts - n * expected) < 5 * sigma)
    assert expected.sum() > 0.95


def test_the_brier_scores_weight_on_the_log_odds_is_the_logistic_density():
    z = np.concatenate([np.linspace(-40.0, 40.0, 801), [-1e-9, 1e-9]])
    closed = 1.0 / (4.0 * np.cosh(z / 2.0) ** 2)
    for spec in ("uniform", "beta:1,1", None):
        np.testing.assert_allclose(cost_weight_density(spec, z, "log-odds"), closed,
                                   rtol=1e-12, atol=0)


def test_the_logit_uniform_weight_is_flat_on_the_log_odds():
    lo, hi = 0.01, 0.5
    z = np.linspace(-8.0, 3.0, 1101)
    inside = (z >= logit(lo)) & (z <= logit(hi))
    density = cost_weight_density(f"logit-uniform:{lo},{hi}", z, "log-odds")
    np.testing.assert_allclose(density[inside], 1.0 / (logit(hi) - logit(lo)), rtol=1e-12)
    assert inside.sum() > 300 and np.all(density[~inside] == 0.0)


def test_the_density_is_vectorised_and_keeps_nan():
    x = np.array([[0.1, np.nan], [0.5, 0.9]])
    for scale in ("cost", "log-odds"):
        out = cost_weight_density("beta:2,2", x, scale)
        assert out.shape == (2, 2) and np.isnan(out[0, 1])
        assert np.all(np.isfinite(np.delete(out.ravel(), 1)))
    assert np.ndim(cost_weight_density("uniform", 0.3)) == 0


def test_invalid_scales_and_point_masses_are_refused():
    with pytest.raises(UserError, match="scale must be one of cost, log-odds"):
        cost_weight_density("uniform", [0.5], scale="logit")
    with pytest.raises(UserError, match="not understood"):
        cost_weight_density("accuracy", [0.5])


# -- the paper's statements (Figs 2 and 3) -----------------------------------------------------


def test_the_brier_scores_log_odds_weight_is_unimodal_at_zero():
    z = np.linspace(-10.0, 10.0, 2001)  # z = 0 is a grid point
    density = cost_weight_density("uniform", z, "log-odds")
    mode = int(np.argmax(density))
    assert z[mode] == 0.0
    assert np.all(np.diff(density[: mode + 1]) > 0) and np.all(np.diff(density[mode:]) < 0)


def test_the_log_losss_weight_on_c_peaks_at_the_ends():
    lo, hi = 0.001, 0.999
    c = np.linspace(lo, hi, 2001)
    density = cost_weight_density(f"logit-uniform:{lo},{hi}", c)
    middle = int(np.argmin(density))
    assert c[middle] == pytest.approx(0.5)
    assert np.all(np.diff(density[: middle + 1]) < 0) and np.all(np.diff(density[middle:]) > 0)
    assert min(density[0], density[-1]) > 200 * density[middle]  # c (1 - c): 1/4 vs ~1e-3


def test_the_h_measure_concentrates_the_brier_scores_weight_near_one_to_one():
    """Fig. 3: on the log-odds Beta(1, 1) is already centred on 1:1, Beta(2, 2) more so."""

    def variance(spec):
        return quad(lambda z: z * z * float(cost_weight_density(spec, z, "log-odds")),
                    -math.inf, math.inf)[0]

    assert variance("beta:1,1") == pytest.approx(math.pi ** 2 / 3, rel=1e-8)  # logistic
    assert variance("beta:2,2") < 0.5 * variance("beta:1,1")


# -- the Display -------------------------------------------------------------------------------

FIG2 = ["uniform", "beta:2,2", "logit-uniform:0.001,0.999", "accuracy"]


@pytest.mark.parametrize("scale", ["cost", "log-odds"])
def test_the_displays_numbers_are_the_functions(scale):
    display = CostWeightDisplay.from_distributions(FIG2, scale=scale, plot=False)
    assert display.ax_ is None
    frame = display.data
    assert list(frame.columns) == list(DATA_COLUMNS)
    density = frame[frame["kind"] != "point mass"]
    assert set(density["kind"]) == {"density of c" if scale == "cost" else
                                    "density of logit(c)"}
    specs = dict(zip(display.curves["label"], display.curves["spec"], strict=False))
    assert sorted(specs.values()) == sorted(["uniform", "beta:2,2",
                                             "logit-uniform:0.001,0.999"])
    for series, rows in density.groupby("series"):
        np.testing.assert_array_equal(
            rows["y"].to_numpy(), cost_weight_density(specs[series], rows["x"], scale))
    mass = frame[frame["kind"] == "point mass"]
    assert mass["x"].tolist() == [0.5 if scale == "cost" else 0.0]
    assert math.isinf(mass["y"].iloc[0])


def test_each_line_is_labelled_by_the_scoring_rule_it_implies():
    display = CostWeightDisplay.from_distributions(
        [*FIG2, "uniform:0.05,0.2", "beta:1,1"])
    legend = [t.get_text() for t in display.ax_.get_legend().get_texts()]
    assert legend == ["Brier score (uniform)", "H-measure (beta:2,2)",
                      "log loss (logit-uniform:0.001,0.999)",
                      "bounded Brier score (uniform:0.05,0.2)", "Brier score (beta:1,1)",
                      "accuracy (point mass at c = 1/2)"]
    named = CostWeightDisplay.from_distributions(["beta:2,8"], names=["Zhu et al."])
    assert [t.get_text() for t in named.ax_.get_legend().get_texts()] == ["Zhu et al."]


def test_accuracy_is_a_vertical_line_at_one_to_one_on_both_scales():
    for scale, at in (("cost", 0.5), ("log-odds", 0.0)):
        display = CostWeightDisplay.from_distributions(["uniform", "accuracy"], scale=scale)
        line = next(ln for ln in display.ax_.get_lines() if "accuracy" in ln.get_label())
        assert list(line.get_xdata()) == [at, at]
        assert any(t.get_text() == "point mass" for t in display.ax_.texts)


def test_the_drawing_follows_the_displays_conventions():
    display = CostWeightDisplay.from_distributions(FIG2, plot=False)
    assert display.plot() is display and display.figure_ is display.ax_.figure
    assert display.ax_.get_title() == CostWeightDisplay.TITLE
    display.figure_.canvas.draw()
    renderer = display.figure_.canvas.get_renderer()
    box = display.ax_.get_legend().get_window_extent(renderer)
    assert box.x0 >= display.ax_.get_window_extent(renderer).x1
    assert box.x1 <= display.figure_.bbox.x1 + 1
    assert "log-odds" in display.ax_.get_xlabel()
    assert display.ax_.get_xlim() == (-8.0, 8.0)
    assert display.ax_.get_ylim()[1] == pytest.approx(1.12 * 0.375)  # beta:2,2's peak


def test_on_c_the_log_losss_peaks_run_off_the_top_and_say_so():
    display = CostWeightDisplay.from_distributions(FIG2, scale="cost")
    top = display.ax_.get_ylim()[1]
    # the y range is set by the densities away from the ends (2% each side): the log loss's
    # at c = 0.02 (3.7), not its ~72 at c = 0.001
    inner = float(cost_weight_density("logit-uniform:0.001,0.999", 0.02))
    assert top == pytest.approx(1.12 * inner) and 3.5 < inner < 4
    labels = [t.get_text() for t in display.ax_.get_legend().get_texts()]
    assert "log loss (logit-uniform:0.001,0.999) (runs off the top)" in labels
    assert sum(label.endswith("(runs off the top)") for label in labels) == 1


def test_a_bounded_range_is_drawn_with_its_jumps():
    display = CostWeightDisplay.from_distributions(["uniform:0.05,0.2"], plot=False)
    x, y = display.curves["x"].to_numpy(), display.curves["density"].to_numpy()
    for end in logit(np.array([0.05, 0.2])):
        near = np.abs(x - end) < 1e-6
        assert (y[near] == 0).any() and (y[near] > 0.3).any()


def test_the_display_refuses_scores_bad_scales_and_mismatched_names():
    with pytest.raises(UserError, match="from_distributions"):
        CostWeightDisplay.from_predictions([0, 1], [0.2, 0.8])
    with pytest.raises(UserError, match="from_distributions"):
        CostWeightDisplay.from_estimator(None, None, None)
    with pytest.raises(UserError, match="scale"):
        CostWeightDisplay.from_distributions(["uniform"], scale="odds")
    with pytest.raises(UserError, match="one label per distribution"):
        CostWeightDisplay.from_distributions(["uniform", "beta:2,2"], names=["Brier"])
    with pytest.raises(UserError, match="at least one"):
        CostWeightDisplay.from_distributions([])
