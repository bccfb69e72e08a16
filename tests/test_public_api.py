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


def test_the_readme_example_imports_from_the_package() -> None:
    from threshold_choice import PAPER_GAMMAS, PAPER_METHODS, expected_losses

    losses = expected_losses([0, 1, 1, 0], [0.2, 0.9, 0.6, 0.4], methods=PAPER_METHODS[2:3],
                             gammas=PAPER_GAMMAS[:1])
    # score-driven at gamma = inf on perfectly ranked, Brier-like scores: the expected loss is
    # the mean over c of the loss of threshold c (computed here by hand)
    assert list(losses["method"]) == ["score-driven"]
