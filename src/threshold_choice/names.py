"""The names of datasets and models: one check, shared by the schemas (the same pattern, a
test keeps them equal), the registries and the command line.

A name becomes a file name (``scores/<dataset>/<model>.parquet``, ``runs/<dataset>.parquet``)
and a column value, so it is a letter or digit followed by letters, digits, ``_``, ``.`` and
``-`` only (never ``.``, ``..``, ``a/b``, a leading ``-`` read as an option, nor a trailing
newline: the pattern ends with ``\\Z``, not ``$``), and never ``runs`` (the per-dataset runs
file), in any case.
"""

from __future__ import annotations

import re

from threshold_choice.errors import UserError

__all__ = ["NAME_PATTERN", "RESERVED_NAMES", "check_name"]

#: names a dataset or model may not take (compared without case)
RESERVED_NAMES = ("runs",)
#: the pattern of a name (Python's ``re``, which JSON Schema's ``pattern`` uses here)
NAME_PATTERN = r"^(?![Rr][Uu][Nn][Ss]\Z)[A-Za-z0-9][A-Za-z0-9_.-]*\Z"
_NAME = re.compile(NAME_PATTERN)


def check_name(name: object, what: str) -> str:
    """``name`` when it is a valid name of a ``what`` ("dataset", "model"), else a
    :class:`UserError` saying what a name may be."""
    if isinstance(name, str) and _NAME.match(name):
        return name
    reserved = isinstance(name, str) and name.lower() in RESERVED_NAMES
    why = ("is reserved (the per-dataset runs file)" if reserved else
           "is not a name: a letter or digit, then letters, digits, '_', '.' or '-'")
    raise UserError(f"{what} name {name!r} {why}; choose another name")
