"""A small, strict ARFF reader (dense and sparse data, quoted names and labels, ``?`` missing).

Written because ``scipy.io.arff`` rejects string attributes and ``liac-arff`` rejects Weka's
``integer [1,10]`` range syntax (breast-w). Conventions:

* ``numeric``/``real``/``integer`` attributes (an optional range after the type is ignored)
  become float64 columns; nominal attributes keep the label order of their ``{...}`` header;
  ``string`` attributes become nominal with labels in order of first appearance.
* An unquoted ``?`` is missing; a quoted ``'?'`` is the label ``?``.
* Quoted tokens use ``'`` or ``"`` with backslash escapes, as Weka writes them.
* Sparse rows ``{i v, ...}`` give 0 (numeric) or the first declared label (nominal) to the
  omitted attributes, as Weka does.
* Any malformed line raises :class:`ArffFormatError` naming the file and the line number.

:func:`read_arff` reads a whole table (the mirror's and OpenML's files); :func:`read_arff_class`
only the class column of a file (``threshold-choice splits --arff``).
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from threshold_choice.datasets.errors import ArffFormatError
from threshold_choice.datasets.table import Column, Table, label_codes
from threshold_choice.errors import UserError

# Quoted values as runs of ordinary characters between escapes, possessively: constant
# memory per character (an alternation repeated per character kept ~130 bytes of backtracking
# state per character: a 100 MB quoted value took 13 GB).
_TOKEN = re.compile(
    r"""\s*(?:'([^'\\]*+(?:\\.[^'\\]*+)*+)'|"([^"\\]*+(?:\\.[^"\\]*+)*+)"|([^,'"{}]*?))"""
    r"""\s*(,|$)""", re.DOTALL
)
_ESCAPES = re.compile(r"\\(.)")
_NUMERIC_TYPES = {"numeric", "real", "integer"}
_MISSING = object()  # sentinel: an unquoted '?'


@dataclass(frozen=True)
class ArffAttribute:
    """A header attribute: kind is ``numeric``, ``nominal`` or ``string``."""

    name: str
    kind: str
    categories: tuple[str, ...] = ()


def _unescape(text: str) -> str:
    return _ESCAPES.sub(lambda m: {"n": "\n", "t": "\t", "r": "\r"}.get(m[1], m[1]), text)


def split_values(line: str) -> list[object]:
    """Split one comma-separated ARFF line into labels; unquoted ``?`` becomes ``_MISSING``.

    Raises ValueError on unbalanced quotes or stray characters.
    """
    if "'" not in line and '"' not in line:  # fast path: most data lines carry no quotes
        return [_MISSING if t == "?" else t for t in (p.strip() for p in line.split(","))]
    values: list[object] = []
    pos = 0
    while True:
        m = _TOKEN.match(line, pos)
        if m is None:
            raise ValueError(f"cannot parse values from position {pos}: {line[pos:pos + 30]!r}")
        single, double, bare, sep = m.groups()
        if single is not None or double is not None:
            values.append(_unescape(single if single is not None else double))
        else:
            values.append(_MISSING if bare == "?" else bare)
        if sep == "":
            if m.end() != len(line):
                raise ValueError(f"unexpected text at position {m.end()}: {line[m.end():]!r}")
            return values
        pos = m.end()


def _parse_name(rest: str) -> tuple[str, str]:
    """Split ``<name> <remainder>`` where name may be quoted."""
    rest = rest.strip()
    if rest[:1] in "'\"":
        quote = rest[0]
        m = re.match(rf"{quote}([^{quote}\\]*+(?:\\.[^{quote}\\]*+)*+){quote}(.*)$", rest,
                     re.DOTALL)
        if m is None:
            raise ValueError("unterminated quoted name")
        return _unescape(m[1]), m[2].strip()
    parts = rest.split(None, 1)
    return parts[0], (parts[1].strip() if len(parts) > 1 else "")


def _parse_attribute(rest: str) -> ArffAttribute:
    name, type_text = _parse_name(rest)
    if type_text.startswith("{"):
        if not type_text.endswith("}"):
            raise ValueError("nominal specification lacks its closing '}'")
        labels = split_values(type_text[1:-1])
        if any(v is _MISSING or v == "" for v in labels):
            raise ValueError("empty or '?' label in nominal specification")
        return ArffAttribute(name, "nominal", tuple(str(v) for v in labels))
    base = type_text.split(None, 1)[0].lower() if type_text else ""
    if base in _NUMERIC_TYPES:
        return ArffAttribute(name, "numeric")
    if base == "string":
        return ArffAttribute(name, "string")
    raise ValueError(f"unsupported attribute type {type_text!r}")


def _parse_sparse(line: str, n_attributes: int, defaults: list[object]) -> list[object]:
    row = list(defaults)
    body = line.strip()[1:-1].strip()
    if not body:
        return row
    for item in split_values(body):
        if item is _MISSING:
            raise ValueError("sparse entry without an index")
        index_text, _, value = str(item).partition(" ")
        index = int(index_text)
        if not 0 <= index < n_attributes:
            raise ValueError(f"sparse index {index} out of range")
        value = value.strip()
        if value[:1] in "'\"":
            value = _unescape(value[1:-1])
            row[index] = value
        else:
            row[index] = _MISSING if value == "?" else value
    return row


def parse_arff(text: str, *, source: str = "<string>") -> tuple[str, Table]:
    """Parse ARFF text into ``(relation name, Table)``; errors name ``source`` and the line."""
    relation, attributes, rows = _parse(text, source)
    return relation, _build_table(attributes, rows, source)


def _parse(
    text: str | Iterable[str], source: str, fix: str | None = None
) -> tuple[str, list[ArffAttribute], list[list[object]]]:
    """The relation name, the attributes and the raw data rows (``_MISSING`` for ``?``).

    ``text``: the whole text, or its lines as a file gives them (a stream: the whole text is
    never held); ``fix``: the advice that ends each error message (default: fix or replace
    the file)."""
    relation = ""
    attributes: list[ArffAttribute] = []
    rows: list[list[object]] = []
    in_data = False
    # a file's lines split again as str.splitlines splits the whole text (form feeds...)
    lines = (text.splitlines() if isinstance(text, str) else
             (piece for line in text for piece in line.splitlines()))
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line or line.startswith("%"):
            continue
        try:
            if not in_data:
                keyword = line.split(None, 1)[0].lower()
                rest = line[len(keyword):]
                if keyword == "@relation":
                    relation = _parse_name(rest)[0]
                elif keyword == "@attribute":
                    attributes.append(_parse_attribute(rest))
                elif keyword == "@data":
                    if not attributes:
                        raise ValueError("@data before any @attribute")
                    in_data = True
                    defaults = [
                        a.categories[0] if a.kind == "nominal" else "0" for a in attributes
                    ]
                else:
                    raise ValueError(f"unexpected header line {line[:40]!r}")
                continue
            if line.startswith("{") and line.endswith("}"):
                row = _parse_sparse(line, len(attributes), defaults)
            else:
                row = split_values(line)
            if len(row) != len(attributes):
                raise ValueError(f"{len(row)} values where the header declares {len(attributes)}")
            rows.append(row)
        except ValueError as exc:
            raise ArffFormatError(
                f"{source}, line {number}: {exc}. "
                + (fix or "Fix or replace the file (the mirror's copy must match SHA256SUMS).")
            ) from None
    if not in_data:
        raise ArffFormatError(
            f"{source}: no @data section. {fix or 'The file is truncated or not ARFF.'}"
        )
    return relation, attributes, rows


def _build_table(
    attributes: list[ArffAttribute], rows: list[list[object]], source: str,
    fix: str | None = None,
) -> Table:
    grid = np.array(rows, dtype=object).reshape(len(rows), len(attributes))
    columns = []
    for j, attr in enumerate(attributes):
        raw = grid[:, j]
        missing = np.fromiter((v is _MISSING for v in raw), dtype=bool, count=len(raw))
        if attr.kind == "numeric":
            text = np.where(missing, "nan", raw).astype(str)
            try:
                values = text.astype(np.float64)
            except ValueError:
                bad = str(next(v for v in text if not _is_float(v)))
                raise ArffFormatError(
                    f"{source}: attribute {attr.name!r} is numeric but holds {bad!r}. "
                    f"{fix or 'Fix or replace the file.'}"
                ) from None
            columns.append(Column(attr.name, "numeric", values))
            continue
        labels = np.where(missing, None, raw)
        if attr.kind == "string":
            categories = tuple(pd.unique(pd.Series(labels[~missing], dtype=object)).astype(str))
        else:
            categories = attr.categories
        codes = label_codes(labels, categories)
        undeclared = (codes == -1) & ~missing
        if undeclared.any():
            row = int(np.flatnonzero(undeclared)[0]) + 1
            raise ArffFormatError(
                f"{source}: data row {row} gives attribute {attr.name!r} the value "
                f"{labels[row - 1]!r}, which its header does not declare. "
                f"{fix or 'Fix or replace the file.'}"
            )
        columns.append(Column(attr.name, "nominal", codes, tuple(categories)))
    return Table(tuple(columns))


def _is_float(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _lines(path: Path | str, encoding: str, data: bytes | None) -> Iterator[str]:
    """The lines of ``path`` (``data``: its bytes, read once from a pipe), streamed."""
    if data is not None:
        yield from io.StringIO(data.decode(encoding), newline="")
        return
    with open(path, encoding=encoding, newline="") as handle:
        yield from handle


def _parse_file(path: Path | str, fix: str | None = None, *, latin1: bool = True,
                ) -> tuple[str, list[ArffAttribute], list[list[object]]]:
    """:func:`_parse` of the file ``path``, streamed (UTF-8; with ``latin1``, Latin-1 when it
    is not UTF-8); a device or a file larger than
    :data:`~threshold_choice._files.MAX_INPUT_BYTES` is refused, a pipe read once."""
    from threshold_choice._files import read_special

    data = read_special(path, "ARFF file")
    try:
        return _parse(_lines(path, "utf-8", data), str(path), fix)
    except UnicodeDecodeError:
        if not latin1:
            raise
    return _parse(_lines(path, "latin-1", data), str(path), fix)


def read_arff(path: Path) -> tuple[str, Table]:
    """Read an ARFF file (UTF-8, falling back to Latin-1 as Weka files sometimes are),
    streamed: the memory it takes is that of the rows it holds, never the whole text."""
    relation, attributes, rows = _parse_file(path)
    return relation, _build_table(attributes, rows, str(path))


@dataclass(frozen=True)
class ClassColumn:
    """Class labels of every data row (``None`` if missing) and the declared level order."""

    name: str
    labels: list[str | None]
    levels: list[str]


_CLASS_FIX = ("Give an ARFF file (@relation, @attribute lines, then @data) or a prepared "
              "dataset with --prepared")


def read_arff_class(path: Path, class_attribute: str | None = None) -> ClassColumn:
    """The class column of an ARFF file (UTF-8), the whole file checked as :func:`read_arff`
    checks it.

    ``class_attribute`` names the class attribute; by default the **last** attribute (the
    authors' convention; for ``spect_train``/``spect_test`` pass ``OVERALL_DIAGNOSIS``, their
    first attribute). The attribute must be nominal; ``levels`` is its header order.
    Problems are :class:`~threshold_choice.errors.UserError` naming the file and the fix.
    """
    try:
        _, attributes, rows = _parse_file(path, _CLASS_FIX, latin1=False)
    except OSError as exc:
        raise UserError(f"cannot read ARFF file {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise UserError(f"{path} is not an ARFF file (not UTF-8 text). {_CLASS_FIX}") from None
    table = _build_table(attributes, rows, str(path), _CLASS_FIX)
    names = [a.name for a in attributes]
    if class_attribute is None:
        column = len(names) - 1
    elif class_attribute in names:
        column = names.index(class_attribute)
    else:
        raise UserError(f"{path} has no attribute {class_attribute!r}; attributes: {names}")
    attr = attributes[column]
    if attr.kind != "nominal":
        raise UserError(
            f"class attribute {attr.name!r} of {path} is {attr.kind.upper()}, not nominal; "
            "choose a nominal one with --class-attribute")
    labels = table.columns[column].labels().tolist()
    return ClassColumn(name=attr.name, labels=labels, levels=list(attr.categories))
