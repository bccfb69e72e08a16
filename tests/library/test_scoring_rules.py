"""Scoring rules as special cases of the expected loss (issue 14.2), checked against the peers
``hmeasure`` and ``briertools`` (test-only dependencies) and against paper 002's theorems.

In this package's scale ``Q = 2 R`` (``R``: paper 002's regret, ``b = 2``). At ``gamma = inf``:

* score-driven under ``uniform:LO,HI`` = ``BrierScorer().score(y, s, (LO, HI)) / (HI - LO)``;
* score-driven under ``logit-uniform:LO,HI`` = ``2 LogLossScorer().score(y, s, (LO, HI)) / Z``,
  ``Z = logit(HI) - logit(LO)``;
* test-optimal under ``beta:A,B`` = ``2 L_max (1 - H)``, ``H`` Hand's H-measure.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.integrate import quad

from tests.conftest import random_scores
from threshold_choice.cost_distributions import CostDistribution, parse_cost_distribution
from threshold_choice.costlines import CostLines
from threshold_choice.evaluation import LossSettings, expected_losses
from threshold_choice.expected_loss import expected_loss
from threshold_choice.methods import make_selection
from threshold_choice.metrics import (
    bounded_brier_score,
    bounded_log_loss,
    compute_metrics,
    h_measure,
)

hmeasure = pytest.importorskip("hmeasure", reason="test dependency: pip install .[test]")
briertools = pytest.importorskip("briertools", reason="test dependency: pip install .[test]")

INF = float("inf")
DATASETS = [
    random_scores(51, 40, decimals=1),  # many ties
    random_scores(52, 200, decimals=2, pi1=0.3),
    random_scores(53, 500, decimals=None, pi1=0.8),
]
RANGES = [(0.05, 0.2), (0.3, 0.9), (0.01, 0.5)]


def regret(y, s, c):
    """Paper 002's regret R(c) at threshold tau = c: c (1 - pi) (1 - F0(c)) + (1 - c) pi F1(c)
    (pi = P(y = 1), F_k the score CDF of class k; predict 1 iff s > c)."""
    return float(np.mean(c * (y == 0) * (s > c) + (1 - c) * (y == 1) * (s <= c)))


def average_regret(y, s, weight, lo, hi):
    """E[R(c)] under the density ``weight`` on [lo, hi], by quadrature cut at the scores."""
    points = sorted({v for v in s if lo < v < hi})
    return quad(lambda c: regret(y, s, c) * weight(c), lo, hi, points=points or None,
                limit=len(points) * 4 + 50, epsabs=1e-13)[0]


@pytest.mark.parametrize("data", range(len(DATASETS)))
@pytest.mark.parametrize(("lo", "hi"), RANGES)
def test_score_driven_under_a_bounded_uniform_is_the_bounded_brier_score(data, lo, hi):
    y, s = DATASETS[data]
    dist = parse_cost_distribution(f"uniform:{lo},{hi}")
    loss = expected_loss(make_selection("score-driven", CostLines.from_scores(y, s)), INF,
                         distribution=dist)
    peer = briertools.scorers.BrierScorer().score(y, s, threshold_range=(lo, hi))
    assert loss == pytest.approx(peer / (hi - lo), abs=1e-12)
    assert bounded_brier_score(y, s, lo, hi) == pytest.approx(peer, abs=1e-15)
    # paper 002, Thm 4.3 as printed: E_{c ~ U(lo, hi)} R(c) = peer / (hi - lo); the average
    # regret is half of that (Q = 2 R): the theorem misses a factor 1/2, as Thm 4.1 (BS = 2 E R)
    mean_regret = average_regret(y, s, lambda c: 1 / (hi - lo), lo, hi)
    assert mean_regret == pytest.approx(loss / 2, abs=1e-10)
    assert mean_regret == pytest.approx(peer / (hi - lo) / 2, abs=1e-10)


@pytest.mark.parametrize("data", range(len(DATASETS)))
def test_score_driven_under_the_uniform_is_the_brier_score_twice_the_regret(data):
    y, s = DATASETS[data]
    loss = expected_loss(make_selection("score-driven", CostLines.from_scores(y, s)), INF)
    assert loss == pytest.approx(np.mean((y - s) ** 2), abs=1e-12)
    assert average_regret(y, s, lambda c: 1.0, 0.0, 1.0) == pytest.approx(loss / 2, abs=1e-10)


@pytest.mark.parametrize("data", range(len(DATASETS)))
@pytest.mark.parametrize(("lo", "hi"), RANGES)
def test_score_driven_under_a_logit_uniform_is_the_bounded_log_loss(data, lo, hi):
    y, s = DATASETS[data]
    dist = parse_cost_distribution(f"logit-uniform:{lo},{hi}")
    z = math.log(hi / (1 - hi)) - math.log(lo / (1 - lo))
    loss = expected_loss(make_selection("score-driven", CostLines.from_scores(y, s)), INF,
                         distribution=dist)
    peer = briertools.scorers.LogLossScorer().score(y, s, threshold_range=(lo, hi))
    assert peer > 0
    assert loss == pytest.approx(2 * peer / z, abs=1e-12)
    assert bounded_log_loss(y, s, lo, hi) == pytest.approx(peer, abs=1e-14)
    # paper 002, Thm 4.4 as printed: E_l R = (E log|(1-y) - clip(s)| - E log|(1-y) - clip(y)|)
    # / Z, which is negative; the average regret is its opposite (a sign error)
    printed = (np.mean(np.log(np.abs((1 - y) - np.clip(s, lo, hi))))
               - np.mean(np.log(np.abs((1 - y) - np.clip(y, lo, hi))))) / z
    mean_regret = average_regret(y, s, lambda c: 1 / (z * c * (1 - c)), lo, hi)
    assert printed < 0
    assert mean_regret == pytest.approx(-printed, abs=1e-10)
    assert mean_regret == pytest.approx(loss / 2, abs=1e-10)


@pytest.mark.parametrize("data", range(len(DATASETS)))
def test_the_h_measure_is_one_minus_the_test_optimal_loss_over_its_maximum(data):
    y, s = DATASETS[data]
    lines = CostLines.from_scores(y, s)
    a, b = 2.0, 1.0 + lines.n0 / lines.n1  # hmeasure's default severity ratio n1/n0
    peer = hmeasure.h_score(np.asarray(y), np.asarray(s, dtype=float))
    assert h_measure(lines) == pytest.approx(peer, abs=1e-12)
    assert compute_metrics(y, s)["H"] == pytest.approx(peer, abs=1e-12)
    # the engine: test-optimal at gamma = inf under beta:a,b; L_max the better trivial rule
    dist = CostDistribution("beta", a, b)
    loss = expected_loss(make_selection("test-optimal", lines), INF, distribution=dist)
    worst = quad(lambda c: min(c * lines.pi0, (1 - c) * lines.pi1) * dist.pdf(c), 0, 1,
                 points=[lines.pi1], epsabs=1e-14)[0]
    assert 1 - loss / (2 * worst) == pytest.approx(peer, abs=1e-10)


@pytest.mark.parametrize(("a", "b"), [(2.0, 2.0), (3.0, 7.0), (1.0, 1.0)])
def test_the_h_measure_with_other_betas_matches_the_peer(a, b):
    y, s = DATASETS[1]
    lines = CostLines.from_scores(y, s)
    # hmeasure parametrises its Beta by a severity ratio sr: a = 2, b = 1 + 1/sr
    if a == 2.0:
        peer = hmeasure.h_score(np.asarray(y), np.asarray(s, float), severity_ratio=1 / (b - 1))
        assert h_measure(lines, a, b) == pytest.approx(peer, abs=1e-12)
    dist = CostDistribution("beta", a, b)
    loss = expected_losses(y, s, methods=["test-optimal"], gammas=[INF],
                           settings=LossSettings(cost_distribution=dist.spec))
    worst = quad(lambda c: min(c * lines.pi0, (1 - c) * lines.pi1) * dist.pdf(c), 0, 1,
                 points=[lines.pi1], epsabs=1e-14)[0]
    h = 1 - loss["expected_loss"].item() / (2 * worst)
    assert h == pytest.approx(h_measure(lines, a, b), abs=1e-10)


def test_the_loss_command_prints_h_and_the_bounded_scores(tmp_path, capsys):
    import pandas as pd

    from threshold_choice.cli import main

    y, s = DATASETS[1]
    path = tmp_path / "test.csv"
    pd.DataFrame({"label": y, "score": s}).to_csv(path, index=False)
    assert main(["loss", "--test", str(path), "--gamma", "inf", "--method", "score-driven",
                 "--cost-distribution", "uniform:0.05,0.2"]) == 0
    losses, metrics = capsys.readouterr().out.split("\n\n")
    from io import StringIO

    table = pd.read_csv(StringIO(metrics)).set_index("metric")["value"]
    assert list(table.index) == ["AUC", "BS", "MAE", "CL", "RL", "RL_conv", "CL_conv",
                                 "LogLoss", "LogLoss_CL_conv", "LogLoss_RL_conv", "H",
                                 "BS_bounded", "LogLoss_bounded", "AP"]
    peer = briertools.scorers.BrierScorer().score(y, s, threshold_range=(0.05, 0.2))
    assert table["BS_bounded"] == pytest.approx(peer, rel=1e-9)
    loss = pd.read_csv(StringIO(losses))["expected_loss"].item()
    assert loss == pytest.approx(peer / 0.15, rel=1e-9)
