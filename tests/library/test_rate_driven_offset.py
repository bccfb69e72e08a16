"""Rate-driven with the authors' threshold offset (``rate_threshold_offset``, paper mode).

The oracle is a direct transcription of the procedure (protocol.md, rate-driven, with the
lines realised by the thresholds ``u_k - delta``): per true cost, count errors with the rule
"predict 1 iff score > t" and interpolate; nothing from the library's cost-line algebra.
"""

from __future__ import annotations

import itertools
from io import StringIO

import numpy as np
import pandas as pd
import pytest
from scipy.stats import beta

from threshold_choice.cli import main
from threshold_choice.errors import UserError
from threshold_choice.evaluation import LossSettings, expected_losses

DELTA = 1e-7


def loss_at_threshold(y: np.ndarray, s: np.ndarray, t: float, c: float) -> float:
    """Q(t; c) = 2 (c pi0 FP0 + (1 - c) pi1 FN1) by counting (test proportions)."""
    pred1 = s > t
    return 2.0 * (c * np.sum(pred1 & (y == 0)) + (1 - c) * np.sum(~pred1 & (y == 1))) / y.size


def authors_rate_driven_loss(y: np.ndarray, s: np.ndarray, c_hat: float, c: float) -> float:
    u = np.unique(s)
    r = np.array([np.mean(s <= v) for v in u])  # r_1..r_m; r_0 = 0
    j = min(int(np.argmax(r > c_hat)) + 1 if np.any(r > c_hat) else u.size, u.size)  # 1-based
    r_prev = 0.0 if j == 1 else r[j - 2]
    p = 1.0 - (c_hat - r_prev) / (r[j - 1] - r_prev)
    t_fewer0 = u[j - 1] - DELTA  # "predict 0 below u_j", as the authors realised it
    t_more0 = u[j] - DELTA if j < u.size else 1.001
    return p * loss_at_threshold(y, s, t_fewer0, c) + (1 - p) * loss_at_threshold(
        y, s, t_more0, c
    )


def near_tie_scores(seed: int, n: int = 40) -> tuple[np.ndarray, np.ndarray]:
    """Scores with clusters of distinct values closer than DELTA (as a logistic model's
    near-0/1 probabilities), exact ties, and ordinary values."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.6).astype(np.int8)
    y[:2] = [0, 1]
    s = np.clip(0.3 * y + 0.7 * rng.random(n), 0.0, 1.0)
    s[2:8] = 1.0 - rng.random(6) * 5e-8  # within 5e-8 of 1
    s[8:12] = rng.random(4) * 3e-8  # within 3e-8 of 0
    s[12:14] = s[-1]  # exact ties
    return y, s


def _loss(y, s, method, gamma, estimator="grid", offset=DELTA, grid_size=1000) -> float:
    out = expected_losses(
        y,
        s,
        methods=[method],
        gammas=[gamma],
        settings=LossSettings(estimator, grid_size, 0, offset),
    )
    return float(out["expected_loss"].iloc[0])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_grid_at_certainty_equals_the_transcribed_authors_procedure(seed: int) -> None:
    y, s = near_tie_scores(seed)
    grid = np.arange(1, 1001) / 1000
    oracle = np.mean([authors_rate_driven_loss(y, s, c, c) for c in grid])
    assert _loss(y, s, "rate-driven", np.inf) == pytest.approx(oracle, abs=1e-12)
    # the offset matters on these scores: without it the result is another number
    assert abs(_loss(y, s, "rate-driven", np.inf, offset=None) - oracle) > 1e-4


def test_exact_under_uncertainty_equals_the_double_integral_of_the_procedure() -> None:
    y, s = near_tie_scores(3, n=16)
    gamma = 4.0
    u = np.unique(s)
    r = np.concatenate(([0.0], [np.mean(s <= v) for v in u]))
    nodes, weights = np.polynomial.legendre.leggauss(60)

    def k(c: float) -> float:  # E over c_hat, Gauss-Legendre on each rate segment
        total = 0.0
        for lo, hi in itertools.pairwise(r):
            x = (lo + hi) / 2 + (hi - lo) / 2 * nodes
            f = [authors_rate_driven_loss(y, s, xi, c) for xi in x]
            dens = beta.pdf(x, gamma * c + 1, gamma * (1 - c) + 1)
            total += (hi - lo) / 2 * np.sum(weights * f * dens)
        return total

    c_nodes, c_weights = np.polynomial.legendre.leggauss(40)
    c_nodes = (c_nodes + 1) / 2
    oracle = float(np.sum(c_weights / 2 * [k(c) for c in c_nodes]))
    assert _loss(y, s, "rate-driven", gamma, estimator="exact") == pytest.approx(oracle, abs=2e-6)


@pytest.mark.parametrize("method", ["rate-driven", "rate-uniform", "rate-driven-z"])
@pytest.mark.parametrize("gamma", [np.inf, 4.0, 0.0])
def test_offset_changes_nothing_when_distinct_scores_are_further_apart(method, gamma) -> None:
    rng = np.random.default_rng(5)
    y = (rng.random(60) < 0.5).astype(np.int8)
    y[:2] = [0, 1]
    s = np.round(rng.random(60), 2)  # distinct values >= 0.01 apart
    exact = _loss(y, s, method, gamma, estimator="exact", offset=None)
    assert _loss(y, s, method, gamma, estimator="exact") == pytest.approx(exact, abs=1e-13)


def test_offset_applies_to_every_rate_based_method_only() -> None:
    y, s = near_tie_scores(0)
    for method in ("rate-driven", "rate-uniform", "rate-driven-z"):
        assert _loss(y, s, method, 2.0, "exact") != pytest.approx(
            _loss(y, s, method, 2.0, "exact", offset=None), abs=1e-6
        )
    for method in ("test-optimal", "score-driven", "score-uniform"):
        assert _loss(y, s, method, 2.0, "exact") == _loss(y, s, method, 2.0, "exact", offset=None)


@pytest.mark.parametrize("offset", [0.0, -1e-7, float("nan")])
def test_non_positive_offset_is_refused(offset: float) -> None:
    with pytest.raises(UserError, match=r"rate_threshold_offset must be in \(0, 1\)"):
        LossSettings("exact", 1000, 0, offset)


def test_cli_takes_the_offset(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    y, s = near_tie_scores(1)
    csv = tmp_path / "test.csv"
    rows = "".join(f"{a},{float(b)!r}\n" for a, b in zip(y, s, strict=True))
    csv.write_text("label,score\n" + rows)
    args = ["loss", "--test", str(csv), "--method", "rate-driven", "--gamma", "inf"]
    assert main([*args, "--estimator", "grid", "--rate-threshold-offset", "1e-7"]) == 0
    rows = pd.read_csv(StringIO(capsys.readouterr().out))
    value = rows.loc[rows["method"] == "rate-driven", "expected_loss"].astype(float).iloc[0]
    grid = np.arange(1, 1001) / 1000
    oracle = np.mean([authors_rate_driven_loss(y, s, c, c) for c in grid])
    assert value == pytest.approx(oracle, abs=1e-9)
    assert main([*args, "--rate-threshold-offset", "0"]) == 2
    assert "rate_threshold_offset must be in (0, 1)" in capsys.readouterr().err
