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

#: the most aliases (``*name``) of a mapping or a list a file may use: the shipped dataset
#: registry uses 5, and 72 nested aliases in 1.5 KB (an "alias bomb") expand to 10^8 nodes in
#: whatever walks the data (the schema check, JSON); 20 multiply a text by a few hundred at most
MAX_ALIASES = 20
#: the most nodes (mappings, lists, scalars) a text may expand to
MAX_NODES = 1_000_000


class YAMLLimitError(yaml.YAMLError):
    """A YAML text beyond :data:`MAX_ALIASES` or :data:`MAX_NODES`."""


def safe_load(text: str) -> Any:
    """``yaml.safe_load(text)``, with the C loader when there is one; a text with more than
    :data:`MAX_ALIASES` aliases of mappings or lists, or that expands to more than
    :data:`MAX_NODES` nodes, is refused (:class:`YAMLLimitError`) before anything walks it
    (PyYAML builds an alias as a reference to the same object: loading is cheap, walking is
    not)."""
    data = yaml.load(text, Loader=_LOADER)
    try:
        check_expanded_size(data, "the text", max_aliases=MAX_ALIASES)
    except ValueError as exc:
        raise YAMLLimitError(str(exc)) from None
    return data


def check_expanded_size(data: Any, what: str, limit: int = MAX_NODES,
                        max_aliases: int | None = None) -> None:
    """Raise :class:`ValueError` when ``data`` (e.g. Snakemake's configuration, read by its own
    YAML reader) expands to more than ``limit`` nodes, its shared parts (aliases) counted each
    time they appear, or (``max_aliases``) shares a mapping or list more than ``max_aliases``
    times; linear in the number of distinct nodes, so a 1.5 KB alias bomb is refused at once
    rather than walked."""
    sizes: dict[int, int] = {}
    shared = 0

    def size(node: Any) -> int:
        nonlocal shared
        key = id(node)
        if key in sizes:
            shared += 1
            return sizes[key]
        if isinstance(node, dict):
            total = 1 + sum(size(k) + size(v) for k, v in node.items())
        elif isinstance(node, list):
            total = 1 + sum(size(v) for v in node)
        else:
            return 1
        sizes[key] = min(total, limit + 1)
        return sizes[key]

    total = size(data)
    if max_aliases is not None and shared > max_aliases:
        raise ValueError(f"{what} uses {shared} aliases (*name) of mappings or lists, more than "
                         f"the {max_aliases} allowed (a text that expands to a huge tree is "
                         "refused)")
    if total > limit:
        raise ValueError(f"{what} expands to more than {limit} values (aliases of aliases: "
                         "an alias bomb?); write the values out, without nested aliases")


def read_yaml(path: Path, what: str, *, shipped: str, error: type[Exception]) -> Any:
    """The data of the YAML file ``path``; ``error`` (one line naming the file and the fix)
    when it is missing, a folder or not YAML. ``what``: the file's role ("model registry");
    ``shipped``: the repository's file of that role, named in the error."""
    if path.is_dir():  # it exists: "not found" would send the user looking for it
        raise error(
            f"{what} {path} is a folder, not a {what} file (YAML). Give the path of the file "
            f"itself (e.g. {shipped})."
        )
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
