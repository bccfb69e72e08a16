"""The package's public API: every name ``threshold_choice`` exports is the object its module
defines, and importing the package loads none of them until used."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

import threshold_choice


@pytest.mark.parametrize("name", sorted(threshold_choice._EXPORTS))
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


def test_bootstrap_from_the_package_is_callable_as_the_function_whatever_was_imported_first(
) -> None:
    # in a fresh interpreter: once before, once after the module itself is imported
    code = (
        "import math\n"
        "from threshold_choice import bootstrap\n"
        "import threshold_choice.bootstrap as module\n"
        "from threshold_choice.bootstrap import Bootstrap, bootstrap as function\n"
        "y, s = [0, 1, 0, 1, 1, 0], [0.2, 0.7, 0.4, 0.9, 0.3, 0.1]\n"
        "kw = dict(methods='score-driven', gammas=math.inf, metrics=[], n_boot=20)\n"
        "a, b = bootstrap(y, s, **kw), function(y, s, **kw)\n"
        "same = (a.replicates == b.replicates).all()\n"
        "print(bootstrap is module, isinstance(a, Bootstrap), same,\n"
        "      'bootstrap' in dir(__import__('threshold_choice')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.split() == ["True", "True", "True", "True"]


def test_paired_difference_returns_its_two_frames_by_name_and_as_a_pair() -> None:
    import math

    from threshold_choice import bootstrap, paired_difference

    y = [0, 1, 0, 1, 1, 0, 1, 0]
    kw = dict(methods="score-driven", gammas=math.inf, metrics=["AUC"], n_boot=30)
    result = paired_difference(bootstrap(y, [0.2, 0.7, 0.4, 0.9, 0.3, 0.1, 0.8, 0.5], **kw),
                               bootstrap(y, [0.3, 0.6, 0.5, 0.7, 0.2, 0.4, 0.9, 0.1], **kw))
    losses, metrics = result
    assert losses is result.losses and metrics is result.metrics
    assert list(metrics["metric"]) == ["AUC"] and list(losses["method"]) == ["score-driven"]
