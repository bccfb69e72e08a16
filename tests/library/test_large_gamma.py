"""Every finite gamma in bounded time and memory, and accurate (issue 12.1).

Above gamma = 1000 the tables integrate over the kernel's window with a stable kernel, the
grid estimator evaluates K(c_i) by windowed quadrature, and from the proven limit on the
gamma = inf value is used. Checked here against Beta CDFs (scipy, reliable to ~1e15), the
proven bound |L(gamma) - L(inf)| <= 8 sup(w) / sqrt(2 gamma), and in subprocesses under
memory and CPU limits (resource.setrlimit), not by timing.
"""

from __future__ import annotations

import itertools
import math
import subprocess
import sys
import textwrap

import numpy as np
import pandas as pd
import pytest
from scipy.integrate import quad
from scipy.special import betainc

from tests.conftest import random_scores
from tests.library.test_cost_distributions import cell_masses, density, pieces_under
from threshold_choice.cost_distributions import parse_cost_distribution
from threshold_choice.costlines import CostLines
from threshold_choice.expected_loss import expected_cost_curve, expected_loss, paper_grid
from threshold_choice.methods import make_selection
from threshold_choice.uncertainty import certainty_limit, format_gamma

INF = float("inf")
Y, S = random_scores(41, 30, decimals=2)
TY, TS = random_scores(42, 30, decimals=2, pi1=0.4)


def beta_cdf_cost(sel, gamma, c):
    """K(c) for a step or rate-driven method from Beta CDFs and partial means (scipy)."""
    edges = np.concatenate(([0.0], np.clip(sel.breaks, 0, 1), [1.0]))
    a, b = gamma * c + 1, gamma * (1 - c) + 1
    total = (sel.coef[:, 0] + sel.coef[:, 1] * c) @ np.diff(betainc(a, b, edges))
    if sel.interpolating:
        mean = a / (a + b) * np.diff(betainc(a + 1, b, edges))
        total += (sel.coef[:, 2] + sel.coef[:, 3] * c) @ mean
    return total


@pytest.mark.parametrize("gamma", [2000.0, 1e5, 1e9])
@pytest.mark.parametrize("method", ["test-optimal", "score-driven", "rate-driven"])
def test_windowed_expected_cost_matches_beta_cdfs(method, gamma):
    sel = make_selection(method, CostLines.from_scores(Y, S))
    # grid points, the scores themselves (breaks: the kernel is split there) and near them
    c = np.unique(np.concatenate([np.linspace(0.001, 0.999, 37), S, S + 3e-4]))
    c = c[(c > 0) & (c < 1)]
    expected = np.array([beta_cdf_cost(sel, gamma, ci) for ci in c])
    np.testing.assert_allclose(expected_cost_curve(sel, gamma, c), expected, rtol=0, atol=1e-11)


def test_windowed_skew_cost_matches_quadrature():
    test, train = CostLines.from_scores(Y, S), CostLines.from_scores(TY, TS)
    sel = make_selection("rate-driven-z", test, train=train)
    gamma = 5e4
    for c in (0.05, 0.31, 0.5, 0.87):
        a, b = gamma * c + 1, gamma * (1 - c) + 1
        sd = math.sqrt(c * (1 - c) / gamma)
        lo, hi = max(0.0, c - 40 * sd), min(1.0, c + 40 * sd)

        def integrand(x, a=a, b=b, c=c):
            from scipy.stats import beta

            return sel.loss(np.array([x]), np.array([c]))[0] * beta.pdf(x, a, b)

        points = [x for x in sel.breaks if lo < x < hi]
        expected = quad(integrand, lo, hi, points=points, epsabs=1e-14, epsrel=1e-12, limit=500)
        got = expected_cost_curve(sel, gamma, np.array([c]))[0]
        assert got == pytest.approx(expected[0], abs=1e-10)


def oracle_loss_sharp(method, gamma, spec):
    """L = integral K(c) w(c) dc with K from Beta CDFs, quadrature cut at every break."""
    edges, alpha, beta, _, _ = pieces_under(method, Y, S, TY, TS, gamma, spec)
    pdf, (lo, hi) = density(spec)

    def cost(c):
        a, b = gamma * c + 1, gamma * (1 - c) + 1
        total = (alpha[:, 0] * (1 - c) + alpha[:, 1] * c) @ np.diff(betainc(a, b, edges))
        if beta is not None:
            mean = a / (a + b) * np.diff(betainc(a + 1, b, edges))
            total += (beta[:, 0] * (1 - c) + beta[:, 1] * c) @ mean
        return total * pdf(c)

    cuts = np.unique(np.concatenate([[lo, hi], edges[(edges > lo) & (edges < hi)]]))
    return sum(
        quad(cost, u, v, epsabs=1e-14, epsrel=1e-12, limit=400)[0]
        for u, v in itertools.pairwise(cuts)
    )


@pytest.mark.parametrize("gamma", [1e4, 1e6])
@pytest.mark.parametrize("spec", ["beta:2,2", "uniform:0.1,0.45", "logit-uniform:0.02,0.7"])
@pytest.mark.parametrize("method", ["test-optimal", "train-optimal", "score-driven", "rate-driven"])
def test_exact_at_large_gamma_matches_beta_cdf_quadrature(method, spec, gamma):
    dist = parse_cost_distribution(spec)
    sel = make_selection(method, CostLines.from_scores(Y, S), train=CostLines.from_scores(TY, TS))
    expected = oracle_loss_sharp(method, gamma, spec)
    assert expected_loss(sel, gamma, distribution=dist) == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("spec", ["uniform", "beta:2,2", "uniform:0.1,0.45"])
@pytest.mark.parametrize("method", ["test-optimal", "score-driven", "rate-driven", "rate-driven-z",
                                    "score-driven-aware"])
def test_loss_tends_to_the_certain_value_within_the_proven_bound(method, spec):
    dist = parse_cost_distribution(spec)
    test, train = CostLines.from_scores(Y, S), CostLines.from_scores(TY, TS)
    limit = expected_loss(make_selection(method, test, train=train, gamma=INF, distribution=dist),
                          INF, distribution=dist)
    for gamma in (1e4, 1e10, 1e22):
        sel = make_selection(method, test, train=train, gamma=gamma, distribution=dist)
        gap = abs(expected_loss(sel, gamma, distribution=dist) - limit)
        assert gap <= 8 * dist.sup_density / math.sqrt(2 * gamma)
    beyond = certainty_limit(dist) * 10
    sel = make_selection(method, test, train=train, gamma=beyond, distribution=dist)
    assert expected_loss(sel, beyond, distribution=dist) == limit


@pytest.mark.parametrize("spec", ["uniform", "uniform:0.1,0.45"])
def test_grid_at_large_gamma_is_the_weighted_mean_of_beta_cdf_costs(spec):
    dist = parse_cost_distribution(spec)
    weights = np.full(300, 1 / 300) if spec == "uniform" else cell_masses(spec, 300)
    c = paper_grid(300)
    for method in ("test-optimal", "rate-driven"):
        sel = make_selection(method, CostLines.from_scores(Y, S))
        for gamma in (5e3, 1e7, 1e13):
            expected = weights @ np.array([beta_cdf_cost(sel, gamma, ci) for ci in c])
            got = expected_loss(sel, gamma, estimator="grid", grid_size=300, distribution=dist)
            assert got == pytest.approx(expected, abs=1e-11)


def test_grid_at_huge_gamma_splits_the_kernel_at_a_tie():
    # a score equal to a grid point: as gamma grows, K there tends to the mean of the two
    # lines (P(c_hat <= c | c) -> 1/2), not to the line chosen at c_hat = c exactly
    y, s = np.array([0, 1, 0, 1]), np.array([0.25, 0.25, 0.6, 0.9])
    sel = make_selection("score-driven", CostLines.from_scores(y, s))
    left, right = sel.loss(np.array([0.25 - 1e-9, 0.25 + 1e-9]), np.array([0.25, 0.25]))
    k = expected_cost_curve(sel, 1e300, np.array([0.25]))[0]
    assert left != right
    assert k == pytest.approx((left + right) / 2, abs=1e-12)


@pytest.mark.parametrize("estimator", ["grid", "montecarlo", "exact"])
def test_aware_methods_tend_to_the_plain_ones_under_every_estimator(estimator):
    # As gamma grows, E[c | c_hat] -> c_hat and the aware methods become the plain ones. The
    # scores lie on the grid (two decimals, 100 points): at a cost equal to a score the
    # kernel is split in halves, so any shift of the aware breaks by a fraction of the
    # kernel's width shows. The posterior mean interpolated as a whole was off by 1.5e-12
    # whatever gamma: grid gave aware minus plain of -2.1e-5 at 1e20 and -8.4e-4 at 3e25
    # (score-driven), montecarlo -3.1e-4 and -7.3e-4 at 1e22 and 3e25; exact only -2.4e-13.
    test, train = CostLines.from_scores(Y, S), CostLines.from_scores(TY, TS)
    on_scores = np.unique(S[(S > 0) & (S < 1)])
    for spec, method, gamma in itertools.product(("uniform", "beta:2,2"),
                                                 ("score-driven", "train-optimal"),
                                                 (1e20, 1e22, 3e25)):
        dist = parse_cost_distribution(spec)
        plain = make_selection(method, test, train=train)
        aware = make_selection(f"{method}-aware", test, train=train, gamma=gamma,
                               distribution=dist)
        options = {"estimator": estimator, "grid_size": 100, "distribution": dist}
        if estimator == "montecarlo":
            options["seed"] = 3
        gap = expected_loss(aware, gamma, **options) - expected_loss(plain, gamma, **options)
        assert abs(gap) <= 1e-12, (spec, method, gamma, gap)
        if estimator != "grid":
            continue
        # the breaks within a millionth of the kernel's width of the plain ones, and K at
        # the scores (costs where the kernel is split in halves) the same
        width = np.sqrt(plain.breaks * (1 - plain.breaks) / gamma)
        assert np.all(np.abs(aware.breaks - plain.breaks) <= 1e-6 * width)
        np.testing.assert_allclose(expected_cost_curve(aware, gamma, on_scores),
                                   expected_cost_curve(plain, gamma, on_scores),
                                   rtol=0, atol=1e-12)


def test_huge_gammas_are_named_in_exponent_form():
    assert format_gamma(1e300) == "1e+300"
    assert format_gamma(1e15) == "1000000000000000"
    assert format_gamma(1e6) == "1000000"


# -- bounded time and memory: subprocesses under resource limits -------------------------------

LIMITED = textwrap.dedent(
    """
    import resource, sys
    memory, cpu = int(sys.argv[1]), int(sys.argv[2])
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
    from threshold_choice.cli import main
    sys.exit(main(sys.argv[3:]))
    """
)
GIB = 1024**3


def run_limited(args, memory=3 * GIB, cpu=240):
    return subprocess.run(
        [sys.executable, "-c", LIMITED, str(memory), str(cpu), *args],
        capture_output=True,
        text=True,
        timeout=1800,
    )


@pytest.fixture
def csvs(tmp_path):
    test, train = tmp_path / "test.csv", tmp_path / "train.csv"
    pd.DataFrame({"label": Y, "score": S}).to_csv(test, index=False)
    pd.DataFrame({"label": TY, "score": TS}).to_csv(train, index=False)
    return str(test), str(train)


@pytest.mark.slow
@pytest.mark.parametrize("estimator", ["exact", "grid", "montecarlo"])
def test_huge_gammas_run_within_3_gib_and_4_cpu_minutes(csvs, estimator):
    test, train = csvs
    gammas = ["1e6", "1e15", "1e300"]
    args = ["loss", "--test", test, "--train", train, "--estimator", estimator,
            "--cost-distribution", "uniform:0.1,0.45"]
    args += [x for m in ("test-optimal", "train-optimal", "score-driven", "rate-driven",
                         "rate-driven-z", "score-driven-aware") for x in ("--method", m)]
    args += [x for g in gammas for x in ("--gamma", g)]
    done = run_limited(args)
    assert done.returncode == 0, done.stderr[-2000:]
    losses = pd.read_csv(pd.io.common.StringIO(done.stdout.split("\n\n")[0]), dtype={"gamma": str})
    assert set(losses["gamma"]) == {"1000000", "1000000000000000", "1e+300"}
    assert np.all(np.isfinite(losses["expected_loss"])) and np.all(losses["expected_loss"] > 0)


@pytest.mark.slow
def test_an_unservable_grid_size_is_refused_before_any_allocation(csvs):
    test, _ = csvs
    done = run_limited(["loss", "--test", test, "--estimator", "grid", "--grid-size",
                        "1000000000", "--gamma", "4"], memory=GIB, cpu=60)
    assert done.returncode == 2
    assert "--grid-size 1000000000 is above the maximum" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
