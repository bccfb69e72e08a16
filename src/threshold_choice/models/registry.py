"""The model registry (``config/models.yaml``), validated against its JSON schema and by
constructing every estimator it names.

A configuration may read several registry files (``models.registry`` a list): their entries
in file order, a name defined twice being an error. The shipped configurations read their
own file (``models_weka.yaml``: the paper's Weka learners; ``models.yaml``: the project's
analogues) and ``models_added.yaml``, shared by both, where a user's models go.

Format (``format_version: 1``)::

    models:
      - name: IBK10                                   # unique; used in file names and tables
        estimator: threshold_choice.models.neighbours:WekaIBk   # "module.path:ClassName"
        params: {n_neighbors: 10}                     # keyword arguments of the constructor
        preprocessing: {one_hot: false, scale: none, impute: none}   # default: nothing
        crisp: false              # score = predicted class (1.0 / 0.0) instead of P(class 1)
        drop_missing_train: true  # fit on the training rows without any missing value
        seeded: false             # pass random_state (derived from the run seed and split)
        threads: 1                # native threads (BLAS, OpenMP); the score job asks for them
        resources: {mem_mb: 4000, runtime: 10}   # per dataset, for a cluster (optional)
        description: "..."

Any scikit-learn-compatible classifier can be added by configuration only. The Weka-like
models of this package take the project's DataFrame (nominal features as Categorical) as it
is; an estimator that needs a numeric array gets :class:`~.preprocessing.TabularEncoder` in
front of it (a :class:`~sklearn.pipeline.Pipeline`) when ``preprocessing`` asks for one-hot
encoding, scaling or imputation.

Scores (:func:`score_method`): ``predict_proba(X)[:, column of class 1]`` when the estimator
has ``predict_proba``; otherwise the logistic sigmoid of ``decision_function(X)`` (a
monotone map into [0, 1]: rank-based results such as AUC, test-optimal and rate-driven
losses are unaffected, but the values are not calibrated probabilities, so Brier score,
calibration loss and score-driven thresholds depend on that arbitrary scale; wrap such an
estimator in ``sklearn.calibration.CalibratedClassifierCV`` for probabilities). With
``crisp: true`` the score is 1.0 where ``predict`` returns class 1, else 0.0.

Validation happens when the registry is loaded, before any training, and raises
:class:`~threshold_choice.errors.UserError` naming the model, the problem and the fix: a
schema violation, a duplicate name, an estimator path that does not import or does not name
a scikit-learn estimator class (checked before it is called), parameters the
constructor refuses or does not expose through ``get_params`` (or that its own parameter
validation refuses), ``seeded: true`` without a ``random_state`` parameter, and an estimator
with neither ``predict_proba`` nor ``decision_function`` (``predict`` for ``crisp``).
"""

from __future__ import annotations

import importlib
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import jsonschema
import numpy as np
from sklearn.base import BaseEstimator
from sklearn.pipeline import Pipeline

from threshold_choice._repository import CONFIG_DIR
from threshold_choice._yaml import read_yaml, schema_message
from threshold_choice.errors import UserError
from threshold_choice.models.preprocessing import ImputeKind, ScaleKind, TabularEncoder

__all__ = [
    "DEFAULT_MODELS",
    "DEFAULT_MODELS_SCHEMA",
    "ModelSpec",
    "PreprocessingSpec",
    "build_model",
    "check_model_spec",
    "import_estimator",
    "load_model_registry",
    "model_spec_from_entry",
    "registry_entries",
    "score_method",
    "seed_for_split",
]

DEFAULT_MODELS = CONFIG_DIR / "models.yaml"
DEFAULT_MODELS_SCHEMA = CONFIG_DIR / "schemas" / "models.schema.yaml"

ScoreMethod = Literal["predict_proba", "decision_function", "predict"]


@dataclass(frozen=True)
class PreprocessingSpec:
    """What :class:`~.preprocessing.TabularEncoder` does in front of the estimator."""

    one_hot: bool = False
    scale: ScaleKind = "none"
    impute: ImputeKind = "none"

    @property
    def requested(self) -> bool:
        return self.one_hot or self.scale != "none" or self.impute != "none"


@dataclass(frozen=True)
class ModelSpec:
    """One registry entry (see the module docstring for the meaning of each field)."""

    name: str
    estimator: str
    params: Mapping[str, Any] = field(default_factory=dict)
    preprocessing: PreprocessingSpec = field(default_factory=PreprocessingSpec)
    crisp: bool = False
    drop_missing_train: bool = True
    seeded: bool = False
    #: threads of the native libraries (BLAS, OpenMP) while fitting and predicting
    threads: int = 1
    description: str = ""


def _read_yaml(path: Path, what: str) -> Any:
    return read_yaml(path, what, shipped="config/models.yaml", error=UserError)


def import_estimator(path: str, *, model: str = "?") -> type:
    """The scikit-learn estimator class named by ``"module.path:ClassName"``.

    Importing the module runs its top-level code (so a registry is code: see docs/workflow.md);
    the named object itself is checked to be a subclass of
    :class:`sklearn.base.BaseEstimator` with a ``fit`` method before anything calls or
    instantiates it, so that e.g. ``subprocess:Popen`` or ``os:system`` is refused unrun.
    """
    module_name, sep, attr = path.partition(":")
    if not sep or not module_name or not attr:
        raise UserError(
            f"model {model!r}: estimator {path!r} is not of the form 'module.path:ClassName'. "
            "Fix the estimator entry."
        )
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise UserError(
            f"model {model!r}: estimator module {module_name!r} cannot be imported ({exc}). "
            "Fix the module path, or install the package that provides it."
        ) from None
    try:
        obj = getattr(module, attr)
    except AttributeError:
        raise UserError(
            f"model {model!r}: module {module_name!r} has no attribute {attr!r}. Fix the class "
            "name after the colon."
        ) from None
    if not isinstance(obj, type):
        raise UserError(
            f"model {model!r}: {path!r} is not a class ({type(obj).__name__}). Name an "
            "estimator class."
        )
    if not issubclass(obj, BaseEstimator) or not callable(getattr(obj, "fit", None)):
        raise UserError(
            f"model {model!r}: {path!r} is not a scikit-learn estimator class (a subclass of "
            "sklearn.base.BaseEstimator with a fit method). Name a scikit-learn-compatible "
            "classifier."
        )
    return obj


def _construct(spec: ModelSpec) -> Any:
    cls = import_estimator(spec.estimator, model=spec.name)
    try:
        est = cls(**dict(spec.params))
    except TypeError as exc:
        raise UserError(
            f"model {spec.name!r}: {spec.estimator} refuses the parameters "
            f"{sorted(spec.params)} ({exc}). Fix the params: use constructor argument names."
        ) from None
    known = est.get_params(deep=False)
    unknown = sorted(set(spec.params) - set(known))
    if unknown:
        raise UserError(
            f"model {spec.name!r}: {spec.estimator} has no parameter(s) {unknown} (its "
            f"parameters: {sorted(known)}). Fix the params."
        )
    return est


def _run_own_validation(est: Any, spec: ModelSpec) -> None:
    """Run the estimator's own parameter validation, which scikit-learn defers to ``fit``."""
    validate = getattr(est, "_validate_params", None)
    if validate is None:
        return
    own = getattr(type(est), "_validate_params", None) is not BaseEstimator._validate_params
    if not (own or hasattr(est, "_parameter_constraints")):
        return
    try:
        validate()
    except (ValueError, TypeError) as exc:
        raise UserError(
            f"model {spec.name!r}: invalid parameter value for {spec.estimator}: "
            f"{str(exc).rstrip('.')}. Fix the params."
        ) from None


def score_method(estimator: Any, *, crisp: bool = False) -> ScoreMethod:
    """How a score in [0, 1] is obtained from ``estimator`` (see the module docstring)."""
    if crisp:
        return "predict"
    if hasattr(estimator, "predict_proba"):
        return "predict_proba"
    return "decision_function"


def build_model(spec: ModelSpec, seed: int | None = None) -> Any:
    """A fresh, unfitted estimator for ``spec``; ``seed`` becomes ``random_state`` when the
    entry is ``seeded``. A :class:`~sklearn.pipeline.Pipeline` ``[("encode",
    TabularEncoder), ("model", estimator)]`` when preprocessing is requested."""
    est = _construct(spec)
    if spec.seeded:
        est.set_params(random_state=None if seed is None else int(seed))
    if spec.preprocessing.requested:
        p = spec.preprocessing
        return Pipeline([
            ("encode", TabularEncoder(one_hot=p.one_hot, scale=p.scale, impute=p.impute)),
            ("model", est),
        ])
    return est


def check_model_spec(spec: ModelSpec) -> None:
    """Everything that can be checked without data (see the module docstring)."""
    est = _construct(spec)
    _run_own_validation(est, spec)
    if spec.seeded and "random_state" not in est.get_params(deep=False):
        raise UserError(
            f"model {spec.name!r}: seeded is true but {spec.estimator} has no random_state "
            "parameter. Set seeded: false."
        )
    built = build_model(spec, seed=0 if spec.seeded else None)
    if spec.crisp:
        if not hasattr(built, "predict"):
            raise UserError(
                f"model {spec.name!r}: crisp is true but {spec.estimator} has no predict. "
                "Name a classifier."
            )
    elif not (hasattr(built, "predict_proba") or hasattr(built, "decision_function")):
        raise UserError(
            f"model {spec.name!r}: {spec.estimator} (with these params) has neither "
            "predict_proba nor decision_function, so it gives no score. Use an estimator "
            "that has one (e.g. SVC with probability: true, or wrap it in "
            "sklearn.calibration.CalibratedClassifierCV), or set crisp: true to score the "
            "predicted class."
        )


def _spec(raw: Mapping[str, Any]) -> ModelSpec:
    pre = raw.get("preprocessing", {}) or {}
    return ModelSpec(
        name=raw["name"],
        estimator=raw["estimator"],
        params=dict(raw.get("params", {}) or {}),
        preprocessing=PreprocessingSpec(
            one_hot=bool(pre.get("one_hot", False)),
            scale=pre.get("scale", "none"),
            impute=pre.get("impute", "none"),
        ),
        crisp=bool(raw.get("crisp", False)),
        drop_missing_train=bool(raw.get("drop_missing_train", True)),
        seeded=bool(raw.get("seeded", False)),
        threads=int(raw.get("threads", 1)),
        description=str(raw.get("description", "")),
    )


RegistryPaths = Path | str | Sequence[Path | str]


def _paths(path: RegistryPaths | None) -> list[Path]:
    if path is None:
        return [DEFAULT_MODELS]
    if isinstance(path, str | Path):
        return [Path(path)]
    return [Path(p) for p in path]


def registry_entries(
    path: RegistryPaths | None = None, *, schema_path: Path | str | None = None,
) -> dict[str, dict[str, Any]]:
    """The raw entries ``{name: entry}`` of one registry file or several (in file order),
    each file checked against the schema; a name defined twice is an error naming both
    files. Nothing is imported or constructed (see :func:`load_model_registry`)."""
    schema = _read_yaml(
        Path(schema_path) if schema_path is not None else DEFAULT_MODELS_SCHEMA,
        "model registry schema",
    )
    entries: dict[str, dict[str, Any]] = {}
    where: dict[str, Path] = {}
    for file in _paths(path):
        for raw in _validated(file, schema)["models"]:
            name = raw["name"]
            if name in entries:
                same = "" if where[name] == file else f" (also in {where[name]})"
                raise UserError(
                    f"model registry {file}: the name {name!r} is used twice{same}. Rename one."
                )
            entries[name], where[name] = dict(raw), file
    return entries


def load_model_registry(
    path: RegistryPaths | None = None,
    *,
    schema_path: Path | str | None = None,
    only: Collection[str] | None = None,
) -> dict[str, ModelSpec]:
    """Read, validate and return the registry as ``{name: ModelSpec}`` in file order.

    ``path``: a registry file or a sequence of them, read in order (default: the
    repository's ``config/models.yaml``). ``only``: the names to return and to check by
    constructing them (default: all). Every file is always checked against the schema; an
    unknown name in ``only`` is an error.
    """
    files = _paths(path)
    specs = {
        name: _spec(raw)
        for name, raw in registry_entries(files, schema_path=schema_path).items()
    }
    if only is not None:
        wanted = list(dict.fromkeys(only))
        missing = [n for n in wanted if n not in specs]
        if missing:
            shown = ", ".join(str(f) for f in files)
            raise UserError(
                f"unknown model(s) {missing} in model registry {shown}; known: "
                f"{list(specs)}. Fix the name or add an entry."
            )
        specs = {n: specs[n] for n in wanted}
    for spec in specs.values():
        check_model_spec(spec)
    return specs


def _validated(path: Path, schema: Any) -> Any:
    """The registry file ``path``, read and checked against ``schema``."""
    doc = _read_yaml(path, "model registry")
    try:
        jsonschema.validate(doc, schema)
    except jsonschema.ValidationError as exc:
        where = "/".join(str(p) for p in exc.absolute_path) or "<top level>"
        name = ""
        if len(exc.absolute_path) >= 2 and isinstance(doc, dict):
            try:
                name = f" (model {doc['models'][exc.absolute_path[1]].get('name')!r})"
            except (KeyError, IndexError, TypeError, AttributeError):
                name = ""
        raise UserError(
            f"model registry {path} breaks its schema at {where}{name}: {schema_message(exc)}. "
            "Fix the entry."
        ) from None
    return doc


def model_spec_from_entry(
    raw: Mapping[str, Any], *, schema_path: Path | str | None = None
) -> ModelSpec:
    """One registry entry (a mapping as in the YAML file), validated against the schema and
    checked like :func:`load_model_registry` does. The workflow passes each score job its own
    entry, so editing one model re-trains that model only."""
    schema = _read_yaml(
        Path(schema_path) if schema_path is not None else DEFAULT_MODELS_SCHEMA,
        "model registry schema",
    )
    doc = {"format_version": 1, "models": [dict(raw)]}
    try:
        jsonschema.validate(doc, schema)
    except jsonschema.ValidationError as exc:
        raise UserError(
            f"model entry {raw.get('name')!r} breaks the registry schema: {schema_message(exc)}. "
            "Fix the entry."
        ) from None
    spec = _spec(raw)
    check_model_spec(spec)
    return spec


def seed_for_split(seed: int, split: int) -> int:
    """The ``random_state`` of split ``split`` in a run with seed ``seed``: a 32-bit value
    derived with :class:`numpy.random.SeedSequence` from ``(seed, split)``, so it depends on
    nothing else (not on the order or number of workers)."""
    return int(np.random.SeedSequence([int(seed), int(split)]).generate_state(1)[0])
