"""Every Display of the library, for the tests that check them all alike."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pytest

from threshold_choice.plotting import (
    BrierCurveDisplay,
    CertaintyDisplay,
    CostCurveDisplay,
    DecisionCurveDisplay,
    FCostDisplay,
    FROCDisplay,
    LogOddsRegretDisplay,
    ROCDisplay,
)

DISPLAYS = [CostCurveDisplay, BrierCurveDisplay, CertaintyDisplay, DecisionCurveDisplay,
            FROCDisplay, FCostDisplay, ROCDisplay, LogOddsRegretDisplay]


@pytest.fixture(autouse=True)
def _close_figures():
    """Close the test's figures (a module that imports this fixture uses it in each test)."""
    yield
    plt.close("all")
