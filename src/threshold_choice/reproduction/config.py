"""Checks of the workflow configuration that a JSON schema cannot express.

The Snakefile first validates ``config`` against ``workflow/schemas/config.schema.yaml``
(types, allowed values, bounds, defaults), then calls :func:`check_config` before any job is
planned. It checks:

* ``results``: not empty, not a filesystem root nor the working folder itself (outputs would
  land at ``/runs.parquet`` or among the repository's files), no ``{``/``}``, not a file;
* numbers that YAML read as text (``1e6``: YAML 1.1 needs a dot and a signed exponent,
  ``1.0e+6``; the schema lets such text through so that this check can say how to write it);
* the names against the dataset and model registries (constructing every used model, so a
  bad estimator path or parameter fails here, before any training), ``models.baselines``
  against the model registry, that a configured ``weka_jar`` is one;
* ``data.mirror``: a configured folder that does not exist is reported (warning; the public
  sources are used and verified as usual) and is an error when a configured dataset has no
  other source;
* that the paper's four methods are there, that ``gammas`` includes ``inf``, has no value
  twice under two spellings (``4`` and ``"4.0"``, ``inf`` and ``"Inf"``: they share their
  result files) and that each gamma can name its result files;
* that ``comparison.published`` is a folder holding the published tables.

Relative paths are taken from ``root`` (the workflow's working folder).
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from threshold_choice._yaml import safe_load
from threshold_choice.errors import UserError
from threshold_choice.reproduction.paper import PAPER_METHODS
from threshold_choice.uncertainty import format_gamma, parse_gamma

_log = logging.getLogger(__name__)

#: numbers as YAML 1.1 (PyYAML) leaves them as text: an exponent without a dot or sign
_EXPONENT_TEXT = re.compile(r"^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)[eE][-+]?[0-9]+$")
#: the numeric settings (``*``: every item of a list) and whether they are integers
_NUMERIC_KEYS: tuple[tuple[tuple[str, ...], bool], ...] = (
    (("evaluation", "gammas", "*"), False),
    (("evaluation", "grid_size"), True),
    (("evaluation", "seed"), True),
    (("evaluation", "rate_threshold_offset"), False),
    (("models", "seed"), True),
    (("splits", "iterations"), True),
    (("comparison", "tolerance"), False),
)
#: what a gamma's label in the result file names must look like (``common.smk``'s wildcard)
# as format_gamma writes them: inf, 16, 0.5, 1e-05, 1e+300 (the workflow's gamma wildcard)
_GAMMA_LABEL = re.compile(r"^(inf|[0-9]+(\.[0-9]+)?(e[+-][0-9]+)?)$")
_GAMMA_LABEL_MAX = 64  # characters: file names stay far below the usual 255-byte limit


def _values_at(config: Mapping[str, Any], keys: Sequence[str]) -> list[Any]:
    """The values of ``config`` at the path ``keys`` (``*`` expands a list)."""
    values: list[Any] = [config]
    for key in keys:
        found: list[Any] = []
        for value in values:
            if key == "*" and isinstance(value, list):
                found.extend(value)
            elif isinstance(value, Mapping) and key in value:
                found.append(value[key])
        values = found
    return values


def _how_to_write(text: str, integer: bool) -> str:
    """``1e6`` -> ``1.0e+6 or 1000000`` (a float YAML 1.1 reads as a number, or a decimal)."""
    value = float(text)
    decimal = np.format_float_positional(value, trim="-")
    if integer:
        return decimal
    mantissa, _, exponent = text.lower().partition("e")
    if "." not in mantissa:
        mantissa += ".0"
    if exponent[0] not in "+-":
        exponent = "+" + exponent
    return f"{mantissa}e{exponent} or {decimal}"


def _check_yaml_numbers(config: Mapping[str, Any]) -> None:
    for keys, integer in _NUMERIC_KEYS:
        for value in _values_at(config, keys):
            if not isinstance(value, str):
                continue
            where = ".".join(k for k in keys if k != "*")
            if _EXPONENT_TEXT.match(value.strip()):
                raise UserError(
                    f"config: {where}: YAML reads {value} as the text {value!r}, not a number "
                    "(YAML 1.1 numbers with an exponent need a dot and a sign), so write it "
                    f"as {_how_to_write(value.strip(), integer)}, unquoted"
                )
            if keys[-1] != "*":  # gammas: the schema allows inf and decimals as text
                kind = "an integer" if integer else "a number"
                raise UserError(f"config: {where}: {value!r} is text; write {kind}, unquoted")


def _check_results(value: Any, root: Path) -> None:
    text = str(value)
    fix = "name a folder for the outputs, e.g. results"
    if not text.strip():
        raise UserError(
            f"config: results is empty, which would put every output at the filesystem root "
            f"(/runs.parquet, /tables/...); {fix}"
        )
    if "{" in text or "}" in text:
        raise UserError(
            f"config: results {text!r} contains {{ or }}, which Snakemake would read as "
            f"wildcards; {fix}"
        )
    folder = Path(text) if Path(text).is_absolute() else root / text
    resolved = folder.resolve()
    if resolved == Path(resolved.anchor):
        raise UserError(f"config: results {text!r} is the filesystem root; {fix}")
    if resolved == root.resolve():
        raise UserError(
            f"config: results {text!r} is the working folder itself, so the outputs (data/, "
            "tables/, logs/...) would mix with the repository's files; name a sub-folder, "
            "e.g. results"
        )
    if folder.exists() and not folder.is_dir():
        raise UserError(f"config: results {text!r} is a file, not a folder; {fix}")


def _check_mirror(config: Mapping[str, Any], root: Path, registry: Mapping[str, Any]) -> None:
    from threshold_choice.datasets.fetch import Mirror

    mirror = Mirror.configured(config["data"]["mirror"], "the configuration", base=root)
    if mirror is None or mirror.exists:
        return
    only = [d for d in config["datasets"] if registry[d].source.kind == "mirror_only"]
    if only:
        raise UserError(
            f"config: data.mirror names {mirror.folder}, which does not exist, and "
            f"{', '.join(only)} can only come from the mirror (no public source): correct "
            "data.mirror, or drop those datasets"
        )
    _log.warning(
        "config: data.mirror names %s, which does not exist: the datasets will be fetched "
        "from OpenML/UCI (and verified against the registry as usual). Correct data.mirror, "
        "or set it to null to silence this.", mirror.folder,
    )


def _check_models(config: Mapping[str, Any], root: Path) -> None:
    from threshold_choice.models.registry import load_model_registry

    models = config["models"]
    path = root / models["registry"]
    load_model_registry(path, only=models["use"])
    # the file passed its schema above: every entry has a name
    known = [m["name"] for m in safe_load(path.read_text(encoding="utf-8"))["models"]]
    unknown = [b for b in models["baselines"] if b not in known]
    if unknown:
        raise UserError(
            f"config: models.baselines names unknown model(s) {', '.join(unknown)}; use "
            f"names of {models['registry']}: {', '.join(known)}"
        )
    if models["weka_jar"]:
        from threshold_choice.models.jvm import check_weka_jar

        try:
            check_weka_jar(root / models["weka_jar"])
        except UserError as exc:
            raise UserError(f"config: models.weka_jar: {exc}") from None


def _check_gammas(raw: Sequence[Any]) -> None:
    seen: dict[float, Any] = {}
    for value in raw:
        gamma = parse_gamma(value)
        if gamma in seen:
            raise UserError(
                f"config: evaluation.gammas lists one certainty level twice ({seen[gamma]!r} "
                f"and {value!r}); keep one"
            )
        seen[gamma] = value
        label = format_gamma(gamma)
        if not _GAMMA_LABEL.match(label) or len(label) > _GAMMA_LABEL_MAX:
            shown = label if len(label) <= 20 else f"{label[:20]}..."
            raise UserError(
                f"config: evaluation.gammas: {value!r} would name its result files "
                f"'gamma-{shown}', which the workflow cannot use; give a number >= 0 or inf"
            )
    if not any(math.isinf(g) for g in seen):
        raise UserError(
            "config: evaluation.gammas must include inf (the published tables are at gamma = inf)"
        )


def _check_published(config: Mapping[str, Any], root: Path) -> None:
    from threshold_choice.reproduction.tables import PUBLISHED_FILES

    value = config["comparison"]["published"]
    folder = root / value
    if not folder.is_dir():
        raise UserError(
            f"config: comparison.published {value!r} is not a folder; name the folder of the "
            "published tables (the repository ships config/published)"
        )
    missing = [f for f in PUBLISHED_FILES.values() if not (folder / f).is_file()]
    if missing:
        raise UserError(
            f"config: comparison.published folder {value!r} lacks {', '.join(missing)}; copy "
            "them from the repository's config/published"
        )


def table_methods(config: Mapping[str, Any]) -> tuple[str, ...]:
    """The methods shown in Tables 7 and 8: ``outputs.table_methods``, by default the
    paper's four."""
    return tuple(config.get("outputs", {}).get("table_methods") or PAPER_METHODS)


def check_config(config: Mapping[str, Any], root: Path | str = ".") -> None:
    """Raise :class:`UserError` naming the first problem of ``config`` and its fix (see the
    module docstring); log a warning for a configured mirror folder that does not exist.
    ``config`` is validated against the workflow's schema already, its defaults filled in
    (the Snakefile validates it first), so no default is repeated here."""
    from threshold_choice.datasets import load_registry

    root = Path(root)
    _check_results(config["results"], root)
    _check_yaml_numbers(config)
    registry = load_registry(root / config["data"]["registry"])
    unknown = [d for d in config["datasets"] if d not in registry]
    if unknown:
        raise UserError(
            f"config: unknown dataset(s) {', '.join(unknown)}; add them to "
            f"{config['data']['registry']} or use one of: {', '.join(registry)}"
        )
    _check_mirror(config, root, registry)
    _check_models(config, root)
    missing = [m for m in PAPER_METHODS if m not in config["evaluation"]["methods"]]
    if missing:
        raise UserError(
            f"config: evaluation.methods lacks {', '.join(missing)}; the paper's tables need "
            "test-optimal, train-optimal, score-driven and rate-driven"
        )
    not_run = [m for m in table_methods(config) if m not in config["evaluation"]["methods"]]
    if not_run:
        raise UserError(
            f"config: outputs.table_methods names {', '.join(not_run)}, which "
            "evaluation.methods does not evaluate; add them there or remove them from the tables"
        )
    _check_gammas(config["evaluation"]["gammas"])
    _check_published(config, root)
