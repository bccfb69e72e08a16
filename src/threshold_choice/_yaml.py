"""Reading the YAML files of the package (the dataset and model registries, the config).

PyYAML's C loader (libyaml, in PyYAML's wheels) is used when PyYAML has it, else its
pure-Python loader: both build the same data, and the C one reads ``config/datasets.yaml``
in a fraction of the third of a second the other takes, in every workflow job that reads it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def safe_load(text: str) -> Any:
    """``yaml.safe_load(text)``, with the C loader when there is one."""
    return yaml.load(text, Loader=_LOADER)


def read_yaml(path: Path, what: str, *, shipped: str, error: type[Exception]) -> Any:
    """The data of the YAML file ``path``; ``error`` (one line naming the file and the fix)
    when it is missing or not YAML. ``what``: the file's role ("model registry");
    ``shipped``: the repository's file of that role, named in the error."""
    if not path.is_file():
        raise error(
            f"{what} {path} not found. Pass an explicit path, or run from a checkout of the "
            f"repository (it ships {shipped} and config/schemas/)."
        )
    try:
        return safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        problem = " ".join(str(exc).replace('in "<unicode string>", ', "").split())
        raise error(f"{what} {path} is not valid YAML: {problem}. Fix the file.") from None


def schema_message(exc: Any, limit: int = 160) -> str:
    """A ``jsonschema.ValidationError``'s message in one short line: its message quotes the
    offending value, which for a file of the wrong shape is the whole file."""
    import reprlib

    message = " ".join(str(exc.message).split())
    if len(message) <= limit:
        return message
    short = reprlib.Repr()
    short.maxstring, short.maxother, short.maxlist, short.maxdict = 40, 40, 3, 3
    shown = short.repr(exc.instance)
    return f"{shown} breaks its {exc.validator!r} rule ({str(exc.validator_value)[:60]})"
