"""Tie-breaking between exactly tied cost lines at grid points (``tie_breaking``, paper mode).

The oracle transcribes the authors' selection with plain Python floats: per line, the heights
``(F1 / n1) * pi1 * 2`` at ``c = 0`` and ``((1 - F0 / n0) * pi0) * 2`` at ``c = 1``; per grid
point, the first line of strictly lowest height; the midpoint threshold applied to the test
scores and the loss counted.
"""

from __future__ import annotations

from io import StringIO

import numpy as np
import pandas as pd
import pytest

from threshold_choice.cli import main
from threshold_choice.errors import UserError
from threshold_choice.evaluation import LossSettings, expected_losses

GRID = np.arange(1, 1001) / 1000


def authors_train_optimal_grid_loss(ty, ts, y, s) -> float:
    u = np.unique(ts)
    n, n1 = ts.size, int(ty.sum())
    n0 = n - n1
    pi0, pi1 = n0 / n, n1 / n
    lines = []
    for j in range(u.size + 1):  # line j predicts 0 for the j lowest distinct scores
        below = ts <= u[j - 1] if j else np.zeros(n, bool)
        f1, f0 = float(np.sum(ty[below])), float(np.sum(1 - ty[below]))
        lines.append(((f1 / n1) * pi1 * 2, ((1 - f0 / n0) * pi0) * 2))
    thresholds = [-np.inf, *((u[:-1] + u[1:]) / 2), np.inf]
    total = 0.0
    for c in GRID:
        best, chosen = np.inf, -1
        for j, (left, right) in enumerate(lines):
            h = left + (right - left) * c
            if h < best:  # strict: the first (lowest threshold) of tied lines stays
                best, chosen = h, j
        pred1 = s > thresholds[chosen]
        errors = c * np.sum(pred1 & (y == 0)) + (1 - c) * np.sum(~pred1 & (y == 1))
        total += 2 * errors / y.size
    return total / GRID.size


def tied_case(seed: int):
    """Training scores rounded to 0.1 (many exact ties between lines at grid points)."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(6, 30))
    ty = (rng.random(n) < 0.55).astype(int)
    ty[:2] = [0, 1]
    ts = np.round(np.clip(0.3 * ty + 0.7 * rng.random(n), 0, 1), 1)
    y = (rng.random(40) < 0.55).astype(int)
    y[:2] = [0, 1]
    s = np.round(np.clip(0.3 * y + 0.7 * rng.random(40), 0, 1), 2)
    return ty, ts, y, s


def _train_optimal(ty, ts, y, s, tie_breaking, estimator="grid", gamma=np.inf) -> float:
    settings = LossSettings(estimator, 1000, 0, None, tie_breaking)
    out = expected_losses(
        y, s, train_y=ty, train_s=ts, methods=["train-optimal"], gammas=[gamma], settings=settings
    )
    return float(out["expected_loss"].iloc[0])


# seeds where the two arithmetics pick different lines at some grid point (checked below)
@pytest.mark.parametrize("seed", [4, 15, 26, 36, 38])
def test_authors_tie_breaking_equals_the_transcribed_selection(seed: int) -> None:
    ty, ts, y, s = tied_case(seed)
    oracle = authors_train_optimal_grid_loss(ty, ts, y, s)
    assert _train_optimal(ty, ts, y, s, "authors") == pytest.approx(oracle, abs=1e-12)
    assert abs(_train_optimal(ty, ts, y, s, "project") - oracle) > 1e-6


@pytest.mark.parametrize("gamma", [8.0, 0.0])
def test_tie_breaking_does_not_change_exact_integrals(gamma: float) -> None:
    ty, ts, y, s = tied_case(4)
    a = _train_optimal(ty, ts, y, s, "authors", estimator="exact", gamma=gamma)
    assert a == _train_optimal(ty, ts, y, s, "project", estimator="exact", gamma=gamma)


def test_unknown_tie_breaking_is_refused() -> None:
    with pytest.raises(UserError, match="tie_breaking must be one of project, authors"):
        LossSettings("grid", 1000, 0, None, "r")  # type: ignore[arg-type]


def test_cli_takes_the_tie_breaking(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    ty, ts, y, s = tied_case(15)
    for name, (labels, scores) in {"train": (ty, ts), "test": (y, s)}.items():
        rows = "".join(f"{a},{float(b)!r}\n" for a, b in zip(labels, scores, strict=True))
        (tmp_path / f"{name}.csv").write_text("label,score\n" + rows)
    args = ["loss", "--test", str(tmp_path / "test.csv"), "--train", str(tmp_path / "train.csv")]
    args += ["--method", "train-optimal", "--gamma", "inf", "--estimator", "grid"]
    assert main([*args, "--tie-breaking", "authors"]) == 0
    out = pd.read_csv(StringIO(capsys.readouterr().out))
    value = out.loc[out["method"] == "train-optimal", "expected_loss"].astype(float).iloc[0]
    assert value == pytest.approx(authors_train_optimal_grid_loss(ty, ts, y, s), abs=1e-12)


def adjacent_doubles_case():
    """Probabilities near 1 (NaiveBayes's): the training midpoint of the two highest distinct
    scores, adjacent doubles, rounds onto 1.0, which it then predicts 0 too."""
    top = np.nextafter(1.0, 0.0)
    ts = np.array([0.1, 0.3, 0.6, top, 1.0, 1.0])
    ty = np.array([0, 0, 1, 0, 1, 1])
    return ty, ts, ty.copy(), ts.copy()  # the test set is the training set


def test_train_optimal_thresholds_realise_their_lines_where_scores_are_adjacent_doubles():
    ty, ts, y, s = adjacent_doubles_case()
    assert (ts[3] + ts[4]) / 2 == 1.0  # the case: the authors' midpoint is the upper score
    for estimator, gamma in [("exact", np.inf), ("exact", 4.0), ("grid", np.inf)]:
        settings = LossSettings(estimator, 1000, 0, None, "project")
        out = expected_losses(y, s, train_y=ty, train_s=ts, methods=["test-optimal",
                              "train-optimal"], gammas=[gamma], settings=settings)
        # on its own training set, train-optimal is test-optimal when its thresholds
        # realise the lines it chose
        test, train = out["expected_loss"].to_numpy()
        assert train == pytest.approx(test, abs=1e-12)
    # the authors' arithmetic keeps their midpoints (the workflow's tie_breaking)
    oracle = authors_train_optimal_grid_loss(ty, ts, y, s)
    assert _train_optimal(ty, ts, y, s, "authors") == pytest.approx(oracle, abs=1e-12)
    assert _train_optimal(ty, ts, y, s, "project") < oracle - 0.01
