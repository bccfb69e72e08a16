"""A curve that a later solid one covers wholly (methods that choose alike, such as the Prior
model's test-optimal, train-optimal and score-driven, Fig. 3) is named in the legend as lying
under it, rather than listed as a curve nobody can find; a curve that shows anywhere is not."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest

from tests.library.displays import _close_figures  # noqa: F401
from threshold_choice.plotting import CostCurveDisplay
from threshold_choice.plotting._base import HIDDEN_TOLERANCE, hidden_under


def _lines(*specs):
    _, ax = plt.subplots()
    return [ax.plot(x, y, ls=ls)[0] for x, y, ls in specs]


def test_a_curve_a_later_solid_one_covers_is_hidden_and_a_dashed_one_hides_nothing():
    x = np.linspace(0, 1, 11)
    y = np.minimum(x, 1 - x)
    near = y + 0.5 * HIDDEN_TOLERANCE  # within a line's width of it
    lines = _lines((x, y, "-"), (x, near, "-"), (x, y, "--"))
    assert hidden_under(lines, 1.0) == {0: 1}  # the last solid one that covers it
    assert hidden_under(_lines((x, y, "-"), (x, y, "--")), 1.0) == {}


def test_steps_at_the_same_places_hide_and_a_curve_apart_anywhere_does_not():
    # a step from 0.2 to 0.6 at x = 0.5, drawn as a vertical segment
    step = (np.array([0, 0.5, 0.5, 1]), np.array([0.2, 0.2, 0.6, 0.6]))
    assert hidden_under(_lines((*step, "-"), (*step, "-")), 1.0) == {0: 1}
    moved = (np.array([0, 0.55, 0.55, 1]), step[1])  # the step elsewhere: both show
    assert hidden_under(_lines((*step, "-"), (*moved, "-")), 1.0) == {}
    bump = (np.linspace(0, 1, 5), np.array([0.2, 0.2, 0.3, 0.6, 0.6]))
    assert hidden_under(_lines((*bump, "-"), (*step, "-")), 1.0) == {}
    shorter = (np.array([0.0, 0.5]), np.array([0.2, 0.2]))  # ends before the first does
    assert hidden_under(_lines((*step, "-"), (*shorter, "-")), 1.0) == {}


def test_the_prior_models_methods_that_coincide_say_so_in_the_legend():
    """A constant model (Sect. 5.3's Prior) on a stratified split: test-optimal and
    train-optimal choose what score-driven chooses at certainty, and their curves lie under
    score-driven's."""
    rng = np.random.default_rng(0)
    y = (rng.random(200) < 0.44).astype(int)
    y_train = rng.permutation(y)  # a stratified split: the same class proportions
    s = np.full(200, float(np.mean(y_train == 1)))
    display = CostCurveDisplay.from_predictions(
        y, s, train_y=y_train, train_score=s, gammas=[float("inf")],
        methods=["test-optimal", "train-optimal", "score-driven", "rate-driven"])
    labels = [t.get_text() for t in display.ax_.get_legend().get_texts()]
    under = [label for label in labels if "(under score-driven)" in label]
    assert [label.split(",")[0] for label in under] == ["test-optimal", "train-optimal"]
    assert not any("(under" in label for label in labels
                   if label.startswith(("score-driven", "rate-driven")))


@pytest.mark.parametrize("seed", [1, 2])
def test_a_model_whose_methods_differ_marks_no_curve(seed):
    rng = np.random.default_rng(seed)
    y = (rng.random(300) < 0.5).astype(int)
    s = np.clip(0.3 * y + 0.7 * rng.random(300), 0, 1)
    display = CostCurveDisplay.from_predictions(y, s, methods=["test-optimal", "score-driven",
                                                               "rate-driven"])
    assert not any("(under" in t.get_text() for t in display.ax_.get_legend().get_texts())
