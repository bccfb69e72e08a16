"""The authors' Weka: the jar the Weka models of a run use."""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path

from threshold_choice.atomic import atomic_output
from threshold_choice.errors import UserError


def step_authors_weka(cache: Path | str, out: Path | str) -> None:
    """Obtain the authors' Weka (Debian's ``weka`` 3.6.14 jar, see
    :mod:`threshold_choice.models.weka_debian`) into ``cache`` and write the choice to
    ``out`` (JSON: ``jar``, the jar's path or null for the bundled Weka, and ``reason`` why
    not). A jar that cannot be had is a warning, not an error: the bundled Weka runs."""
    from threshold_choice.models.weka_debian import AUTHORS_WEKA, authors_weka_jar

    package = f"Debian's {AUTHORS_WEKA.package} {AUTHORS_WEKA.version}"
    log = logging.getLogger(__name__)
    try:
        jar: str | None = str(authors_weka_jar(cache).resolve())
        reason = None
        log.info("the Weka models run the authors' Weka: %s from %s", jar, package)
    except UserError as exc:
        jar, reason = None, str(exc)
        message = (f"warning: the authors' Weka ({package}) cannot be had ({exc}), so the Weka "
                   "models run the bundled Weka 3.9.6, whose Logistic differs from the authors' "
                   "(docs/weka.md); models.weka_jar: bundled chooses it without this warning")
        log.warning(message)
        print(message, file=sys.__stderr__)  # past the log: the run's output shows it
    text = json.dumps({"jar": jar, "package": package, "reason": reason}, indent=1)
    with atomic_output(out) as tmp:
        Path(tmp).write_text(text + "\n", encoding="utf-8")


def weka_jar_of(path: Path | str | None) -> str | None:
    """The ``weka.jar`` a score job runs for its input ``path``: a jar as it is, the choice
    written by :func:`step_authors_weka` (``.json``) as its jar (None: the bundled Weka)."""
    if path is None:
        return None
    if str(path).endswith(".json"):
        return json.loads(Path(path).read_text(encoding="utf-8"))["jar"]
    return str(path)
