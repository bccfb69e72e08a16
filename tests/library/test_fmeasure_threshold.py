"""Paper 004, Sect. 4: accuracy and F-measure isometrics in ROC space (Eqs. 13-14, 18-19) and
the F-optimal threshold of a calibrated model (Eq. 27), against the losses counted at every
cut of the scores."""

from __future__ import annotations

import numpy as np
import pytest

from threshold_choice.costlines import CostLines
from threshold_choice.errors import UserError
from threshold_choice.fmeasure import accuracy_isometric, f_isometric, f_optimal_threshold
from threshold_choice.score_transforms import pav_calibrated


def _rates_and_losses(lines: CostLines, c: float) -> tuple[np.ndarray, ...]:
    """Per cut (the j lowest scores predicted 0, class 0 positive): F_0, F_1, the accuracy
    loss Q (Eq. 13, b = 2) and the F-measure loss FQ (Eq. 18), from the counts."""
    tp, fp = lines.n0_le, lines.n1_le
    fn = lines.n0 - tp
    with np.errstate(divide="ignore", invalid="ignore"):
        fq = (c * fn + (1 - c) * fp) / (tp + c * fn + (1 - c) * fp)
    q = 2 * (c * fn + (1 - c) * fp) / lines.n
    return tp / lines.n0, fp / lines.n1, q, fq


def _data(seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(20, 400))
    y = (rng.random(n) < rng.uniform(0.2, 0.8)).astype(int)
    y[:2] = [0, 1]
    return y, np.round(rng.normal(y * rng.uniform(0.2, 2.0), 1.0), 2)


@pytest.mark.parametrize("seed", range(40))
def test_the_eq27_fixed_point_is_the_cut_of_least_f_loss_on_calibrated_scores(seed):
    y, s = _data(seed)
    c = float(np.random.default_rng(seed).uniform(0.05, 0.95))
    t_f = f_optimal_threshold(y, s, c)
    lines = CostLines.from_scores(y, pav_calibrated(y, s))
    _, _, _, fq = _rates_and_losses(lines, c)
    cut = np.searchsorted(lines.scores, t_f, side="right")  # scores <= t_F predicted 0
    assert fq[cut] == np.nanmin(fq)
    # calibrated already: the same threshold without calibrating again
    assert f_optimal_threshold(y, pav_calibrated(y, s), c, calibrate=False) == t_f


@pytest.mark.parametrize("seed", range(40))
def test_the_f_optimal_point_is_never_left_of_the_accuracy_optimal_one(seed):
    """Paper 004 says the F-optimal operating point is always to the left of the accuracy
    one; on calibrated scores it is at or to the right (F_1 at least as large), its threshold
    at least accuracy's ``t_A = c``."""
    y, s = _data(seed)
    c = float(np.random.default_rng(seed + 100).uniform(0.05, 0.95))
    lines = CostLines.from_scores(y, pav_calibrated(y, s))
    _, f1, q, fq = _rates_and_losses(lines, c)
    f_cut = int(np.nanargmin(fq))
    a_cut = int(np.argmin(q))  # the first of the least accuracy losses
    assert f1[f_cut] >= f1[a_cut]
    assert f_optimal_threshold(y, s, c) >= c


def test_on_some_model_the_f_optimal_point_is_strictly_right_of_accuracy():
    y, s = _data(3)
    lines = CostLines.from_scores(y, pav_calibrated(y, s))
    _, f1, q, fq = _rates_and_losses(lines, 0.5)
    assert f1[int(np.nanargmin(fq))] > f1[int(np.argmin(q))]


@pytest.mark.parametrize("c", [0.2, 0.5, 0.8])
@pytest.mark.parametrize("pi", [0.1, 0.5, 0.7])
def test_points_on_an_isometric_have_its_loss(c, pi):
    f1 = np.linspace(0.0, 1.0, 11)
    for q in (0.0, 0.1, 0.4):
        slope, intercept = f_isometric(q, pi, c)
        f0 = slope * f1 + intercept
        fq = (c * pi * (1 - f0) + (1 - c) * (1 - pi) * f1) / (
            pi * f0 + c * pi * (1 - f0) + (1 - c) * (1 - pi) * f1)
        np.testing.assert_allclose(fq, q, atol=1e-12)
        a_slope, a_intercept = accuracy_isometric(q, pi, c)
        f0 = a_slope * f1 + a_intercept
        loss = 2 * (c * pi * (1 - f0) + (1 - c) * (1 - pi) * f1)
        np.testing.assert_allclose(loss, q, atol=1e-12)
        # never steeper than accuracy's, equal in ROC heaven only
        assert slope <= a_slope and (slope == pytest.approx(a_slope)) == (q == 0.0)


@pytest.mark.parametrize("c", [0.3, 0.5])
def test_f_isometrics_pivot_on_one_point(c):
    """At c = 1/2 the paper's point (F_1, F_0) = (-pi/(1 - pi), 0); in general
    (-c pi / ((1 - c)(1 - pi)), 0)."""
    pi = 0.1  # paper 004's Fig. 2: 10 positives, 90 negatives: the point -1/9
    pivot = -c * pi / ((1 - c) * (1 - pi))
    if c == 0.5:
        assert pivot == pytest.approx(-1 / 9)
    for q in (0.0, 0.2, 0.5, 0.8):
        slope, intercept = f_isometric(q, pi, c)
        assert slope * pivot + intercept == pytest.approx(0.0, abs=1e-15)


def test_f_optimal_threshold_refuses_bad_input():
    with pytest.raises(UserError, match="c must be in"):
        f_optimal_threshold([0, 1, 1], [0.1, 0.5, 0.9], 1.0)
    # scores in the wrong order (class 0 scored highest): no cut holds its own Eq. 27 value
    y, s = np.array([0, 1, 1]), np.array([0.9, 0.0, 0.7])
    lines = CostLines.from_scores(y, s)
    pi, f0, f1 = 1 / 3, lines.n0_le / lines.n0, lines.n1_le / lines.n1
    tau = (0.5 * pi + 0.5 * (1 - pi) * f1) / (0.5 * pi + 0.5 * (pi * f0 + (1 - pi) * f1))
    low, high = np.r_[-np.inf, lines.scores], np.r_[lines.scores, np.inf]
    assert not ((low <= tau) & (tau < high)).any()
    with pytest.raises(UserError, match=r"0 fixed points of Eq\. 27"):
        f_optimal_threshold(y, s, 0.5, calibrate=False)
    assert f_optimal_threshold(y, s, 0.5) >= 0.5  # calibrated first: one fixed point


def test_two_cuts_that_tie_for_the_best_f_give_the_lower_threshold():
    y = np.array([1, 1, 1, 1, 0, 0])
    s = np.array([0.6, 0.2, 0.8, 0.5, 1.0, 0.2])
    p = pav_calibrated(y, s)
    # class 0 positive, predicted where the calibrated score is <= t: F1 at each cut
    f1 = {}
    for t in np.unique(p):
        tp, fp = int(((p <= t) & (y == 0)).sum()), int(((p <= t) & (y == 1)).sum())
        f1[float(t)] = 2 * tp / (2 * tp + fp + (int((y == 0).sum()) - tp))
    best = max(f1.values())
    tied = sorted(t for t, v in f1.items() if v == best)
    assert len(tied) == 2  # the case: two cuts tie
    t_f = f_optimal_threshold(y, s, 0.5)
    # the lower of the two: predicts 0 the scores up to the first tied cut, not the second
    assert np.sum(p <= t_f) == np.sum(p <= tied[0])
