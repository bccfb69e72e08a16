"""``expected_losses``'s inputs: scores that are not probabilities refused for the methods that
read them as such (rank-based methods take any real scores), complex scores refused, one
method, one gamma and settings as a mapping taken as meant, and no cache folder written where
the cache variable is empty."""

from __future__ import annotations

import math
import os
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from tests.conftest import random_scores
from threshold_choice.errors import UserError


def test_the_library_refuses_scores_outside_0_1_for_the_probability_methods() -> None:
    from threshold_choice.evaluation import expected_losses

    y = np.array([0, 1, 1, 0, 1])
    margins = np.array([-2.0, 1.5, 0.3, -0.4, 2.2])  # decision-function values
    with pytest.raises(UserError, match=r"from -2 to 2\.2, outside \[0, 1\]; score-driven "):
        expected_losses(y, margins, methods=["score-driven", "rate-driven"], gammas=[0.0])
    # rank-based methods take any real scores: the same losses as any monotone rescaling
    ranked = expected_losses(y, margins, methods=["rate-driven", "test-optimal"],
                             gammas=[math.inf, 0.0])
    squashed = expected_losses(y, 1 / (1 + np.exp(-margins)),
                               methods=["rate-driven", "test-optimal"], gammas=[math.inf, 0.0])
    np.testing.assert_allclose(ranked["expected_loss"], squashed["expected_loss"], atol=1e-12)


def test_complex_scores_are_refused_not_truncated():
    from threshold_choice.evaluation import expected_losses

    y, s = random_scores(4, 50)
    with pytest.raises(UserError, match="scores are complex numbers"):
        expected_losses(y, s + 0.5j)


def test_one_method_one_gamma_and_settings_as_a_mapping_are_taken_as_meant():
    from threshold_choice.evaluation import LossSettings, expected_losses

    y, s = random_scores(7, 80)
    ours = expected_losses(y, s, methods="score-driven", gammas=4,
                           settings={"estimator": "exact"})
    spelled = expected_losses(y, s, methods=["score-driven"], gammas=[4.0],
                              settings=LossSettings(estimator="exact"))
    pd.testing.assert_frame_equal(ours, spelled)
    with pytest.raises(UserError, match="unknown loss setting"):
        expected_losses(y, s, methods="score-driven", settings={"estimater": "exact"})


def test_an_empty_cache_variable_writes_no_cache_into_the_current_folder(tmp_path):
    code = ("from threshold_choice.evaluation import expected_losses; "
            "import numpy as np; "
            "expected_losses([0, 1, 0, 1], [0.1, 0.7, 0.4, 0.9], methods=['score-driven'], "
            "gammas=[3.5])")
    env = {**os.environ, "THRESHOLD_CHOICE_CACHE": ""}
    subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env, check=True)
    assert list(tmp_path.iterdir()) == []
