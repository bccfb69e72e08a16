"""A ``Costs`` carrying a belief (``Costs.from_ratio_range``) is averaged over by the
Displays, as by the scorers, the bootstrap and the command line's ``--cost-ratio``: the
certainty plot takes it, the cost curves' areas are the belief's expected losses."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tests.library.displays import _close_figures  # noqa: F401
from threshold_choice import Costs, expected_losses
from threshold_choice.errors import UserError
from threshold_choice.plotting import CertaintyDisplay, CostCurveDisplay
from threshold_choice.plotting.cost_weights import implied_name

RNG = np.random.default_rng(3)
Y = np.where(RNG.random(300) < 0.3, "bad", "good")
S = np.clip(0.3 + 0.3 * (Y == "bad") + 0.2 * RNG.standard_normal(300), 0.0, 1.0)  # P(bad)
COSTS = Costs.from_ratio_range(3, 10, pos_label="bad")
METHODS = ["score-driven", "rate-driven"]


def _reference(gammas):
    return expected_losses(Y == "bad", S, methods=METHODS, gammas=gammas,
                           settings={"cost_distribution": COSTS.belief})


def test_the_certainty_display_averages_over_the_belief_of_the_costs():
    display = CertaintyDisplay.from_predictions(Y, S, costs=COSTS, methods=METHODS,
                                                gammas=[math.inf, 4.0, 0.0], plot=False)
    assert display.event == "bad"
    reference = _reference([math.inf, 4.0, 0.0])
    merged = display.losses.merge(reference, on=["method", "gamma"])
    assert len(merged) == 6
    np.testing.assert_allclose(merged["expected_loss_x"], merged["expected_loss_y"],
                               rtol=1e-10)


def test_the_cost_curves_areas_are_the_expected_losses_under_the_belief_of_the_costs():
    display = CostCurveDisplay.from_predictions(Y, S, costs=COSTS, methods=METHODS,
                                                gammas=[math.inf, 0.0], plot=False)
    assert display.distribution == COSTS.belief.spec
    merged = display.areas.merge(_reference([math.inf, 0.0]), on=["method", "gamma"])
    np.testing.assert_allclose(merged["expected_loss_x"], merged["expected_loss_y"],
                               rtol=1e-10)


def test_costs_of_one_c_on_the_certainty_display_name_a_belief_as_the_fix():
    with pytest.raises(UserError, match=r"Costs\.from_ratio_range"):
        CertaintyDisplay.from_predictions(Y, S, costs=Costs(1, 5, pos_label="bad"),
                                          plot=False)


def test_costs_with_a_belief_and_another_cost_distribution_are_refused():
    with pytest.raises(UserError, match="give one belief"):
        CostCurveDisplay.from_predictions(Y, S, costs=COSTS, cost_distribution="beta:2,2",
                                          methods=METHODS, plot=False)


def test_the_belief_of_a_ratio_range_prints_short_in_the_legends():
    curves = CostCurveDisplay.from_predictions(Y, S, costs=COSTS, methods=METHODS,
                                               gammas=[math.inf])
    texts = [t.get_text() for t in curves.ax_.get_legend().get_texts()]
    assert "belief w = logit-uniform:1/11,0.25 (scaled)" in texts
    assert implied_name(COSTS.belief) == "log loss (logit-uniform:1/11,0.25)"
    assert implied_name("beta:9.77618,47.5774") == "H-measure (beta:9.78,47.6)"
