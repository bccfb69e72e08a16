"""Checks of the workflow configuration that a JSON schema cannot express.

The Snakefile first validates ``config`` against ``workflow/schemas/config.schema.yaml``
(types, allowed values, defaults), then calls :func:`check_config`, which checks the names
against the dataset and model registries (constructing every model, so a bad estimator path
or parameter fails here, before any training), that a configured ``weka.jar`` is one, and
that the paper's four methods are there.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from threshold_choice.errors import UserError
from threshold_choice.evaluation import PAPER_METHODS
from threshold_choice.uncertainty import parse_gamma


def check_config(config: Mapping[str, Any], root: Path | str = ".") -> None:
    """Raise :class:`UserError` naming the first problem of ``config`` and its fix."""
    from threshold_choice.datasets import load_registry
    from threshold_choice.models.registry import load_model_registry

    root = Path(root)
    registry = load_registry(root / config["data"]["registry"])
    unknown = [d for d in config["datasets"] if d not in registry]
    if unknown:
        raise UserError(
            f"config: unknown dataset(s) {', '.join(unknown)}; add them to "
            f"{config['data']['registry']} or use one of: {', '.join(registry)}"
        )
    models = config["models"]
    load_model_registry(root / models["registry"], only=models["use"])
    if models.get("weka_jar"):
        from threshold_choice.models.weka import check_weka_jar

        try:
            check_weka_jar(root / models["weka_jar"])
        except UserError as exc:
            raise UserError(f"config: models.weka_jar: {exc}") from None
    missing = [m for m in PAPER_METHODS if m not in config["evaluation"]["methods"]]
    if missing:
        raise UserError(
            f"config: evaluation.methods lacks {', '.join(missing)}; the paper's tables need "
            "test-optimal, train-optimal, score-driven and rate-driven"
        )
    if not any(math.isinf(parse_gamma(g)) for g in config["evaluation"]["gammas"]):
        raise UserError(
            "config: evaluation.gammas must include inf (the published tables are at gamma = inf)"
        )
