"""Checks of the workflow configuration that a JSON schema cannot express.

The Snakefile first validates ``config`` against ``workflow/schemas/config.schema.yaml``
(types, allowed values, bounds, defaults), then calls :func:`check_config` before any job is
planned. It checks:

* ``results`` and ``cache``: not empty, not a filesystem root, not the working folder, a
  folder above it or inside the repository's own folders (``config``, ``src``...: outputs
  would land at ``/runs.parquet`` or among the repository's files), no ``{``/``}``, not a
  file; a results folder holding runs under other operating conditions is not overwritten;
* numbers that YAML read as text (``1e6``: YAML 1.1 needs a dot and a signed exponent,
  ``1.0e+6``; the schema lets such text through so that this check can say how to write it);
* that ``data.registry`` and ``models.registry`` name files (not a folder, not a missing path);
* the names against the dataset and model registries (constructing every used model, so a
  bad estimator path or parameter fails here, before any training), ``models.baselines``
  against the model registry, that a configured ``weka_jar`` is one, that each Weka model's
  class is in the jar and Weka takes its options (built in a JVM of a process of its own,
  once per class, options and jar: markers in ``<cache>/weka/checked``);
* ``data.mirror``: a configured folder that does not exist (or a file given for it) is
  reported (warning; the public sources are used and verified as usual) and is an error when
  a configured dataset has no other source;
* that the ``authors`` estimator has the authors' 12 models and R splits to replay;
* that the paper's four methods are there, that ``gammas`` includes ``inf``, has no value
  twice under two spellings (``4`` and ``"4.0"``, ``inf`` and ``"Inf"``: they share their
  result files) and that each gamma can name its result files;
* the evaluation settings as the evaluate step combines them (the cost distribution's
  parameters, the loss with the tie-breaking and the prior, the grid size);
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

from threshold_choice.errors import UserError
from threshold_choice.reproduction import layout
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
_GAMMA_LABEL = re.compile(f"^({layout.GAMMA_LABEL})$")


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


#: the repository's folders that hold its own files: never an output folder
_OWN_FOLDERS = (".git", ".ci", "benchmarks", "config", "docs", "profiles", "src", "tests",
                "workflow")


def _check_output_folder(key: str, value: Any, root: Path, example: str) -> None:
    """``results`` and ``cache``: a folder of their own, outside the checkout's own files."""
    text = str(value)
    fix = f"name a folder for the outputs, e.g. {example}"
    if not text.strip():
        raise UserError(
            f"config: {key} is empty, which would put every output at the filesystem root "
            f"(/runs.parquet, /tables/...); {fix}"
        )
    if "{" in text or "}" in text:
        raise UserError(
            f"config: {key} {text!r} contains {{ or }}, which Snakemake would read as "
            f"wildcards; {fix}"
        )
    folder = Path(text) if Path(text).is_absolute() else root / text
    resolved, home = folder.resolve(), root.resolve()
    if resolved == Path(resolved.anchor):
        raise UserError(f"config: {key} {text!r} is the filesystem root; {fix}")
    if resolved == home:
        raise UserError(
            f"config: {key} {text!r} is the working folder itself, so the outputs (data/, "
            f"tables/, logs/...) would mix with the repository's files; name a sub-folder, "
            f"e.g. {example}"
        )
    if resolved in home.parents:
        raise UserError(
            f"config: {key} {text!r} contains the working folder, so the outputs would mix "
            f"with the repository's and its neighbours' files; {fix}"
        )
    own = next((name for name in _OWN_FOLDERS if resolved.is_relative_to(home / name)), None)
    if own is not None:
        raise UserError(
            f"config: {key} {text!r} is inside the repository's own folder {own}/, whose "
            f"files the outputs would mix with or replace; {fix}"
        )
    if folder.exists() and not folder.is_dir():
        raise UserError(f"config: {key} {text!r} is a file, not a folder; {fix}")


def _check_evaluation(evaluation: Mapping[str, Any]) -> None:
    """The evaluation settings as the evaluate step will use them (the estimator's options, the
    cost distribution, the loss with the tie-breaking and the prior, the methods and gammas),
    so that a bad combination stops the run before any model is fitted."""
    from threshold_choice.evaluation import LossBatch, LossSettings

    options = {k: v for k, v in evaluation.items() if k not in ("methods", "gammas", "loss")}
    try:
        LossBatch.make(evaluation["methods"], evaluation["gammas"],
                       LossSettings.from_mapping(options), evaluation.get("loss", "accuracy"))
    except UserError as exc:
        raise UserError(f"config: evaluation: {exc}") from None


def _check_authors_estimator(config: Mapping[str, Any]) -> None:
    """The ``authors`` estimator replays the authors' stream: their 12 models, their splits."""
    if config["evaluation"]["estimator"] != "authors":
        return
    from threshold_choice.reproduction.authors_draws import AUTHORS_MODELS

    used = config["models"]["use"]
    if sorted(used) != sorted(AUTHORS_MODELS):
        raise UserError(
            f"config: evaluation.estimator authors replays the R stream of the authors' 12 "
            f"models; models.use must be exactly {', '.join(AUTHORS_MODELS)} (it has "
            f"{', '.join(used)}), or choose another estimator"
        )
    if config["splits"]["splitter"] != "r":
        raise UserError("config: evaluation.estimator authors replays the draws that followed "
                        "the authors' splits; set splits.splitter: r, or choose another estimator")


def _check_same_conditions(config: Mapping[str, Any], root: Path) -> None:
    """Refuse to write, into a results folder holding runs under other operating conditions
    (cost distribution, prior, loss), runs that would replace them: the score cache makes a
    folder of one's own cost no refitting."""
    from threshold_choice.reproduction.paper import conditions_note
    from threshold_choice.reproduction.runs import read_runs_metadata

    text = str(config["results"])
    runs = Path(layout.runs(Path(text) if Path(text).is_absolute() else root / text))
    if not runs.is_file():
        return
    try:
        stored = read_runs_metadata(runs)
    except Exception:  # an unreadable table is the workflow's to replace
        return
    if not stored:
        return
    before = conditions_note(stored.get("evaluation") or {}) or "the paper's conditions"
    now = conditions_note(config["evaluation"]) or "the paper's conditions"
    if before != now:
        raise UserError(
            f"config: results {text!r} holds runs under {before}, which this configuration "
            f"({now}) would replace; give it a results folder of its own (results: ...), or "
            f"delete {runs} to replace them"
        )


def _check_mirror(config: Mapping[str, Any], root: Path, registry: Mapping[str, Any]) -> None:
    from threshold_choice.datasets.fetch import Mirror

    mirror = Mirror.configured(config["data"]["mirror"], "the configuration", base=root)
    if mirror is None or mirror.exists:
        return
    # a file (e.g. one of the ARFF files) is named as such, not as missing
    fix = ("correct data.mirror" if mirror.state == "does not exist" else
           "set data.mirror to the folder holding the paper's ARFF files and their SHA256SUMS "
           "(not a file in it)")
    only = [d for d in config["datasets"] if registry[d].source.kind == "mirror_only"]
    if only:
        raise UserError(
            f"config: data.mirror names {mirror.folder}, which {mirror.state}, and "
            f"{', '.join(only)} can only come from the mirror (no public source): {fix}, or "
            "drop those datasets"
        )
    _log.warning(
        "config: data.mirror names %s, which %s: the datasets will be fetched from "
        "OpenML/UCI (and verified against the registry as usual). %s, or set it to null to "
        "silence this.", mirror.folder, mirror.state, fix[0].upper() + fix[1:],
    )


def _check_registry_file(key: str, given: str, root: Path, fix: str) -> None:
    """A registry setting names a file: a folder (``config``) or a missing path is named with
    its setting, not as a registry that is "not found" with advice for the command line."""
    path = root / given
    if path.is_dir():
        raise UserError(
            f"config: {key} names {given!r}, which is a folder, not a registry file (YAML); "
            f"{fix}"
        )
    if not path.is_file():
        raise UserError(
            f"config: {key} names {given!r}, which does not exist (relative paths start at the "
            f"working folder); {fix}"
        )


def _check_models(config: Mapping[str, Any], root: Path) -> None:
    from threshold_choice.models.registry import load_model_registry, registry_entries

    models = config["models"]
    for given in _registry_names(config):
        _check_registry_file("models.registry", given, root,
                             "list the registry files themselves, e.g. "
                             "[config/models_weka.yaml, config/models_added.yaml]")
    files = registry_files(config, root)
    load_model_registry(files, only=models["use"])
    known = list(registry_entries(files))
    unknown = [b for b in models["baselines"] if b not in known]
    if unknown:
        raise UserError(
            f"config: models.baselines names unknown model(s) {', '.join(unknown)}; use "
            f"names of the model registry: {', '.join(known)}"
        )
    if models["weka_jar"] not in (None, "authors", "bundled"):
        from threshold_choice.models.jvm import check_weka_jar

        try:
            check_weka_jar(root / models["weka_jar"])
        except UserError as exc:
            raise UserError(f"config: models.weka_jar: {exc}") from None
    _check_weka_classes(config, root, registry_entries(files))


def _check_weka_classes(config: Mapping[str, Any], root: Path,
                        entries: Mapping[str, Mapping[str, Any]]) -> None:
    """Each used Weka model's class is in the jar that will run it (read from the jar's
    listing, without starting Java; its options are Weka's to check when it is built)."""
    import zipfile

    from threshold_choice.models.registry import import_estimator
    from threshold_choice.models.weka import is_weka_estimator

    weka = {name: entries[name]["params"]["classname"] for name in config["models"]["use"]
            if is_weka_estimator(import_estimator(entries[name]["estimator"], model=name))
            and isinstance(entries[name].get("params", {}).get("classname"), str)}
    if not weka:
        return
    from threshold_choice.models.jvm import resolved_weka_jar

    # the authors' Weka may not be fetched yet: then its learners' names are the bundled
    # Weka's (the same for every classifier of the paper)
    from threshold_choice.models.weka_debian import AUTHORS_WEKA

    given = config["models"]["weka_jar"]
    authors = Path(config["cache"]) / "weka" / AUTHORS_WEKA.jar_name
    if given == "authors" and (root / authors).is_file():
        jar = str((root / authors).resolve())
    else:
        jar = resolved_weka_jar(None if given in (None, "authors", "bundled") else root / given)
    with zipfile.ZipFile(jar) as archive:
        listed = set(archive.namelist())
    for name, classname in weka.items():
        if classname.replace(".", "/") + ".class" not in listed:
            raise UserError(
                f"config: model {name!r}: Weka class {classname!r} is not in {jar}; give the "
                "fully qualified name of a classifier of that jar (e.g. "
                "weka.classifiers.trees.J48)"
            )
    options = {name: (weka[name], [str(o) for o in entries[name]["params"].get("options", [])])
               for name in weka}
    _check_weka_options(options, jar, root / config["cache"] / "weka" / "checked")


#: what a start-up check of the Weka options may take (starting a JVM: a few seconds)
_OPTIONS_CHECK_TIMEOUT = 120


def _check_weka_options(models: Mapping[str, tuple[str, list[str]]], jar: str,
                        checked: Path) -> None:
    """Build each Weka classifier with its options, in a process of its own (a JVM), unless
    the same class, options and jar passed before (a marker per combination in ``checked``)
    or they are one of the paper's learners with its options (:data:`PAPER_WEKA_MODELS`,
    which the test suite builds in both Wekas), so that options Weka refuses stop the run
    before any job. Where Java or the wrapper is missing, nothing is checked here (the score
    job says what to install)."""
    import hashlib
    import json
    import subprocess
    import sys

    from threshold_choice.models.weka import PAPER_WEKA_MODELS

    paper = {(classname, tuple(opts)) for classname, opts, _ in PAPER_WEKA_MODELS.values()}
    models = {name: model for name, model in models.items()
              if (model[0], tuple(model[1])) not in paper}
    if not models:  # the paper's models: no JVM started before the run (2 s)
        return
    stat = Path(jar).stat()
    keys = {name: hashlib.sha256(json.dumps([jar, stat.st_size, stat.st_mtime_ns, classname,
                                             opts]).encode()).hexdigest()[:32]
            for name, (classname, opts) in models.items()}
    todo = {name: models[name] for name in models if not (checked / keys[name]).exists()}
    if not todo:
        return
    code = ("import json, sys; from threshold_choice.models.weka import weka_option_problems; "
            "print(json.dumps(weka_option_problems(json.loads(sys.argv[1]), sys.argv[2])))")
    try:
        proc = subprocess.run([sys.executable, "-c", code, json.dumps(todo), jar],
                              capture_output=True, text=True, timeout=_OPTIONS_CHECK_TIMEOUT)
        problems = json.loads(proc.stdout.strip().splitlines()[-1])
    except (subprocess.TimeoutExpired, json.JSONDecodeError, IndexError, OSError):
        _log.warning("config: the Weka options could not be checked at start-up (no Java or "
                     "python-weka-wrapper3?); the score jobs will check them")
        return
    for name in todo:
        if name in problems:
            raise UserError(f"config: model {name!r}: {problems[name]}")
    checked.mkdir(parents=True, exist_ok=True)
    for name in todo:
        (checked / keys[name]).touch()


def _check_gammas(raw: Sequence[Any]) -> None:
    seen: dict[float, Any] = {}
    for value in raw:
        try:
            gamma = parse_gamma(value)
        except UserError as exc:
            raise UserError(f"config: evaluation.gammas: {exc}") from None
        if gamma in seen:
            raise UserError(
                f"config: evaluation.gammas lists one certainty level twice ({seen[gamma]!r} "
                f"and {value!r}); keep one"
            )
        seen[gamma] = value
        label = format_gamma(gamma)
        if not _GAMMA_LABEL.match(label) or len(label) > layout.GAMMA_LABEL_MAX:
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


def registry_files(config: Mapping[str, Any], root: Path | str = ".") -> list[Path]:
    """The model registry files of ``models.registry`` (one path or a list), from ``root``."""
    return [Path(root) / p for p in _registry_names(config)]


def _registry_names(config: Mapping[str, Any]) -> list[str]:
    """``models.registry`` as given: one path or a list of them."""
    value = config["models"]["registry"]
    return [value] if isinstance(value, str) else list(value)


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
    _check_output_folder("results", config["results"], root, "results")
    _check_output_folder("cache", config["cache"], root, ".cache")
    _check_output_folder("data.cache", config["data"]["cache"], root, "results/cache/downloads")
    _check_yaml_numbers(config)
    _check_registry_file("data.registry", config["data"]["registry"], root,
                         "name the registry file itself, e.g. config/datasets.yaml")
    registry = load_registry(root / config["data"]["registry"])
    unknown = [d for d in config["datasets"] if d not in registry]
    if unknown:
        raise UserError(
            f"config: unknown dataset(s) {', '.join(unknown)}; add them to "
            f"{config['data']['registry']} or use one of: {', '.join(registry)}"
        )
    _check_mirror(config, root, registry)
    absent = [f"{d} ({registry[d].source.path})" for d in config["datasets"]
              if registry[d].source.kind == "local"
              and not (root / Path(registry[d].source.path or "").expanduser()).is_file()]
    if absent:
        raise UserError(
            f"config: the local file of {', '.join(absent)} does not exist; correct its "
            f"source.path in {config['data']['registry']} (relative paths start at the working "
            "folder)"
        )
    _check_models(config, root)
    models = config["models"]
    if set(models["use"]) <= set(models["baselines"]):
        raise UserError(
            f"config: models.use names baselines only ({', '.join(models['use'])}); the "
            "tables and figures compare the other model types: add one (or name fewer "
            "models.baselines)"
        )
    _check_authors_estimator(config)
    missing = [m for m in PAPER_METHODS if m not in config["evaluation"]["methods"]]
    if missing:
        raise UserError(
            f"config: evaluation.methods lacks {', '.join(missing)}; the paper's tables need "
            f"{', '.join(PAPER_METHODS)}"
        )
    not_run = [m for m in table_methods(config) if m not in config["evaluation"]["methods"]]
    if not_run:
        raise UserError(
            f"config: outputs.table_methods names {', '.join(not_run)}, which "
            "evaluation.methods does not evaluate; add them there or remove them from the tables"
        )
    _check_gammas(config["evaluation"]["gammas"])
    _check_evaluation(config["evaluation"])
    _check_published(config, root)
    _check_same_conditions(config, root)


def validate_config(config: Mapping[str, Any], validate: Any, basedir: Path | str) -> None:
    """Run Snakemake's ``validate(config)`` (the schema, its defaults filled in) with its
    problems in one line: a configuration that expands to a huge tree (an alias bomb) is
    refused before anything walks it; a schema error names the key, not the whole schema, and
    points at the working folder when it is not the repository's (``basedir``), whose
    ``config/config.yaml`` then went unread."""
    import os

    import jsonschema

    from threshold_choice._yaml import check_expanded_size, schema_message

    try:
        check_expanded_size(config, "the configuration")
    except ValueError as exc:
        raise UserError(str(exc)) from None
    try:
        validate(config)
    except Exception as exc:
        # Snakemake raises its WorkflowError while handling jsonschema's error
        found = [e for e in (exc, exc.__context__, exc.__cause__)
                 if isinstance(e, jsonschema.ValidationError)]
        if not found:
            raise
        error = found[0]
        where = "".join(f"[{part!r}]" for part in error.absolute_path)
        hint = "fix it (docs/config-reference.md lists the keys)"
        if Path(os.getcwd()).resolve() != Path(basedir).resolve():
            hint = (f"run Snakemake from the repository's folder ({basedir}), whose "
                    "config/config.yaml gives the defaults")
        raise UserError(f"config{where}: {schema_message(error)}; {hint}") from None
