"""The authors' Weka: the jar the Weka models of a run use."""

from __future__ import annotations

import hashlib
import json
import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING

from threshold_choice.atomic import atomic_output
from threshold_choice.errors import UserError
from threshold_choice.reproduction.steps._io import warn

if TYPE_CHECKING:
    from threshold_choice.models.weka_debian import DebianJar


def step_authors_weka(cache: Path | str, out: Path | str, spec: DebianJar | None = None) -> None:
    """Obtain the authors' Weka (Debian's ``weka`` 3.6.14 jar, see
    :mod:`threshold_choice.models.weka_debian`) into ``cache`` and write the choice to
    ``out`` (JSON: ``jar``, the jar's path or null for the bundled Weka, and ``reason`` why
    not). A jar that cannot be had is a warning, not an error: the bundled Weka runs. An
    ``out`` that already says the same is left as it is (its jobs are not redone). ``spec``:
    the pinned package (default :data:`~threshold_choice.models.weka_debian.AUTHORS_WEKA`)."""
    from threshold_choice.models.weka_debian import AUTHORS_WEKA, authors_weka_jar

    spec = spec or AUTHORS_WEKA
    package = f"Debian's {spec.package} {spec.version}"
    try:
        jar: str | None = str(authors_weka_jar(cache, spec).resolve())
        reason = None
        logging.getLogger(__name__).info("the Weka models run the authors' Weka: %s from %s",
                                         jar, package)
    except UserError as exc:
        jar, reason = None, str(exc)
        warn(f"warning: the authors' Weka ({package}) cannot be had ({exc}), so the Weka "
             "models run the bundled Weka 3.9.6, whose Logistic differs from the authors' "
             "(docs/weka.md); models.weka_jar: bundled chooses it without this warning")
    text = json.dumps({"jar": jar, "package": package, "reason": reason}, indent=1) + "\n"
    try:
        if Path(out).read_text(encoding="utf-8") == text:
            return
    except (OSError, UnicodeDecodeError):
        pass
    with atomic_output(out) as tmp:
        Path(tmp).write_text(text, encoding="utf-8")


def retry_authors_weka(cache: Path | str, choice: Path | str,
                       spec: DebianJar | None = None) -> None:
    """At the start of a run: a ``choice`` of :func:`step_authors_weka` that recorded a failed
    fetch is tried again, warning again when it fails (the file is then left as it is, so
    nothing is redone); when it succeeds, the new choice redoes the Weka models' jobs. An
    unreadable ``choice`` is removed (its rule makes it again)."""
    path = Path(choice)
    if not path.is_file():
        return
    try:
        jar = json.loads(path.read_text(encoding="utf-8"))["jar"]
    except (OSError, ValueError, KeyError, TypeError):
        path.unlink(missing_ok=True)
        return
    if jar is None:
        step_authors_weka(cache, choice, spec)


def _file_sha256(path: Path) -> str | None:
    digest = hashlib.sha256()
    try:
        with open(path, "rb") as handle:
            while chunk := handle.read(1 << 20):
                digest.update(chunk)
    except OSError:
        return None
    return digest.hexdigest()


def weka_jar_of(path: Path | str | None, spec: DebianJar | None = None) -> str | None:
    """The ``weka.jar`` a score job runs for its input ``path``: a jar as it is, the choice
    written by :func:`step_authors_weka` (``.json``) as its jar (None: the bundled Weka).

    The authors' jar is checked against its pinned SHA-256 (``spec``, default
    :data:`~threshold_choice.models.weka_debian.AUTHORS_WEKA`) each time a job uses it (about
    20 ms): a jar replaced or damaged since it was fetched is fetched again, with a warning,
    and a :class:`UserError` says what to do when that fails."""
    if path is None:
        return None
    if not str(path).endswith(".json"):
        return str(path)
    jar = json.loads(Path(path).read_text(encoding="utf-8"))["jar"]
    if jar is None:
        return None
    from threshold_choice.models.weka_debian import AUTHORS_WEKA, authors_weka_jar

    spec = spec or AUTHORS_WEKA
    actual = _file_sha256(Path(jar))
    if actual != spec.jar_sha256:
        found = "is missing" if actual is None else f"has SHA-256 {actual}"
        warn(f"warning: the authors' Weka jar {jar} {found}, not the pinned "
             f"{spec.jar_sha256} (replaced since it was fetched?); fetching it again")
        try:
            authors_weka_jar(Path(jar).parent, spec)
        except UserError as exc:
            raise UserError(
                f"the authors' Weka jar {jar} {found}, not the pinned {spec.jar_sha256}, "
                f"and cannot be fetched again ({exc}); remove {path} and run again (the "
                "bundled Weka then runs, with a warning)"
            ) from None
    return jar


def weka_jar_override() -> str | None:
    """The jar ``THRESHOLD_CHOICE_WEKA_JAR`` names (it replaces the bundled Weka where no jar
    is given, ``models.weka_jar: bundled`` included), announced on the console and in the log
    each time it is read; None when it is not set."""
    from threshold_choice.models.jvm import WEKA_JAR_ENV

    value = os.environ.get(WEKA_JAR_ENV) or None
    if value is not None:
        warn(f"warning: {WEKA_JAR_ENV}={value} is set: the Weka models given no jar run it "
             "instead of the bundled Weka 3.9.6 (unset it to run the bundled Weka)")
    return value
