"""The package's public API: every name ``threshold_choice`` exports is the object its module
defines, and importing the package loads none of them until used."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

import threshold_choice


@pytest.mark.parametrize("name", threshold_choice.__all__)
def test_each_exported_name_is_its_modules_object(name: str) -> None:
    module = importlib.import_module(f"threshold_choice.{threshold_choice._EXPORTS[name]}")
    assert getattr(threshold_choice, name) is getattr(module, name)
    assert name in dir(threshold_choice)


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'expected_lossez'"):
        threshold_choice.expected_lossez  # noqa: B018


def test_importing_the_package_loads_no_numerical_library() -> None:
    code = ("import sys, threshold_choice; "
            "print(sorted(m for m in ('numpy', 'pandas', 'scipy', 'sklearn', 'matplotlib') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def test_the_package_level_names_compute_a_loss_checked_by_quadrature() -> None:
    import numpy as np

    from threshold_choice import PAPER_GAMMAS, expected_losses

    y = np.array([0, 1, 1, 0, 1, 1, 0, 1])
    s = np.array([0.2, 0.9, 0.6, 0.4, 0.35, 0.8, 0.7, 0.55])
    losses = expected_losses(y, s, methods=["score-driven"], gammas=PAPER_GAMMAS[:1])
    # score-driven at gamma = inf uses threshold t = c: the mean over c of
    # Q(c; c) = 2 (c pi0 FP0 + (1 - c) pi1 FN1), by the midpoint rule
    c = (np.arange(200_000) + 0.5) / 200_000
    fp = ((s[None, :] > c[:, None]) & (y == 0)).sum(axis=1) / y.size
    fn = ((s[None, :] <= c[:, None]) & (y == 1)).sum(axis=1) / y.size
    expected = np.mean(2 * (c * fp + (1 - c) * fn))
    assert list(losses["method"]) == ["score-driven"]
    assert abs(float(losses["expected_loss"].iloc[0]) - expected) < 1e-4
