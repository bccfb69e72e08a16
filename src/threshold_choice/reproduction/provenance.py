"""What produced a result: the versions of the software a score job ran with.

Recorded by the workflow's score step in its log and in the ``software`` column of the
timings file, so that results made with another Weka, scikit-learn or Java can be told apart.
"""

from __future__ import annotations

import functools
import hashlib
import platform
from importlib import metadata
from pathlib import Path

__all__ = ["estimator_distribution", "format_software", "jar_identity", "software_versions"]

#: the packages every score job records: their distributions by top-level module
_MODULES = {"threshold_choice": "threshold-choice", "numpy": "numpy", "scipy": "scipy",
            "pandas": "pandas", "sklearn": "scikit-learn"}
_PACKAGES = tuple(_MODULES.values())


def software_versions(*, weka: bool = False,
                      packages: tuple[str, ...] = _PACKAGES) -> dict[str, str]:
    """``{name: version}`` of Python and the ``packages`` (default: the numeric packages and
    this package); with ``weka=True`` also the Weka release, the ``weka.jar`` (its file name
    and SHA-256: the same jar reads the same on every machine, wherever its cache is) and the
    Java runtime of the running JVM (starting it if needed); a jar that
    ``THRESHOLD_CHOICE_WEKA_JAR`` chose is marked so."""
    versions = {"python": platform.python_version(), **_package_versions(packages)}
    if weka:
        import os

        from threshold_choice.models.jvm import (
            WEKA_JAR_ENV,
            java_version,
            weka_jar_in_use,
            weka_version,
        )

        versions["weka"] = weka_version()
        jar = weka_jar_in_use()
        versions["weka.jar"] = jar_identity(jar)
        override = os.environ.get(WEKA_JAR_ENV)
        if override and Path(override).expanduser().resolve() == Path(jar).resolve():
            # an override of what runs is part of the provenance (the report shows it)
            versions["weka.jar"] += f" from {WEKA_JAR_ENV}"
        versions["java"] = java_version()
    return versions


@functools.cache
def jar_identity(path: str) -> str:
    """``name (sha256 <first 16 hex digits>)`` of the jar at ``path``."""
    digest = hashlib.sha256(Path(path).read_bytes()).hexdigest()
    return f"{Path(path).name} (sha256 {digest[:16]})"


@functools.cache
def _package_versions(packages: tuple[str, ...]) -> dict[str, str]:
    """The installed versions of ``packages``, looked up once per process (a score job asks
    for every model of every dataset; each lookup scans the installed distributions)."""
    versions = {}
    for name in packages:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions


def format_software(versions: dict[str, str]) -> str:
    """One line, ``name version; name version; ...``."""
    return "; ".join(f"{name} {version}" for name, version in versions.items())


@functools.cache
def _distributions() -> dict[str, list[str]]:
    return metadata.packages_distributions()


def estimator_distribution(estimator: str) -> tuple[str, str] | None:
    """``(distribution, version)`` of the installed package an estimator path
    (``module.path:Class``) comes from (``sklearn...`` -> ``scikit-learn``, ``xgboost...`` ->
    ``xgboost``), or ``None`` for a module no installed distribution provides (a file of
    one's own on the path)."""
    top = estimator.split(":", 1)[0].split(".", 1)[0]
    if top in _MODULES:  # known: no scan of every installed distribution (0.3 s a process)
        name = _MODULES[top]
        try:
            return name, metadata.version(name)
        except metadata.PackageNotFoundError:
            return None
    names = _distributions().get(top)
    if not names:
        return None
    name = names[0]
    try:
        return name, metadata.version(name)
    except metadata.PackageNotFoundError:
        return None
