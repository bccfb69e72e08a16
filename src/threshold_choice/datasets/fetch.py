"""Obtaining a dataset's table: mirror folder first, then OpenML (``openml`` client) or UCI (HTTP).

Every function returns ``(table, source_info)``: the table already mapped onto the paper's
layout (mirror files are the paper's tables; remote ones go through the registry's
transformations) and a JSON-able description of where it came from. Verification against the
registry's content hash happens afterwards, identically for every source
(:mod:`threshold_choice.datasets.prepare`).

A mirror is a :class:`Mirror`: the folder and the setting that named it, so that messages name
the setting to fix (``--mirror`` on the command line, ``data.mirror`` in the workflow's
configuration). A mirror given explicitly (``--mirror DIR``) must exist; the configured
default (``data.mirror``) may not, in which case the public sources are used (the data is
verified against the registry's content hash either way) and a warning names the folder.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import time
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from threshold_choice.atomic import write_bytes_atomic
from threshold_choice.datasets import registry
from threshold_choice.datasets.arff import read_arff
from threshold_choice.datasets.errors import (
    ArffFormatError,
    ChecksumMismatchError,
    DatasetError,
    SourceUnavailableError,
)
from threshold_choice.datasets.registry import DatasetSpec
from threshold_choice.datasets.table import Column, Table, label_codes
from threshold_choice.datasets.transforms import apply_transforms, expand_names

SourceResult = tuple[Table, dict[str, Any]]

_log = logging.getLogger(__name__)
_warned_missing: set[Path] = set()  # warn once per process about a missing configured mirror


@dataclass(frozen=True)
class Mirror:
    """A mirror folder and where it was set, for messages.

    ``setting``: what the user edits to change it (``--mirror`` or ``data.mirror of
    config/config.yaml``); ``optional``: a folder that does not exist is skipped with a
    warning (the configured default) instead of being an error (a folder given explicitly).
    """

    folder: Path
    setting: str = "--mirror"
    optional: bool = False

    @classmethod
    def of(cls, mirror: Path | str | Mirror | None) -> Mirror | None:
        """A plain path is a mirror given with ``--mirror``."""
        if mirror is None or isinstance(mirror, Mirror):
            return mirror
        return cls(Path(mirror))

    @classmethod
    def configured(cls, value: str | Path | None, where: str = "the configuration",
                   base: Path | None = None) -> Mirror | None:
        """The ``data.mirror`` setting of ``where`` (``None``/empty: no mirror), relative to
        ``base`` (default: the working directory); optional (see the class docstring)."""
        if not value:
            return None
        folder = Path(value)
        if not folder.is_absolute() and base is not None:
            folder = base / folder
        return cls(folder.resolve(), f"data.mirror of {where}", optional=True)

    @property
    def exists(self) -> bool:
        return self.folder.is_dir()

    @property
    def state(self) -> str:
        """What is wrong with a folder that is not usable (:attr:`exists` false), for
        messages: it does not exist, or the path is a file (e.g. one of the ARFF files)."""
        if not self.folder.exists():
            return "does not exist"
        return "is a file, not a folder" if self.folder.is_file() else "is not a folder"

    def describe(self) -> str:
        return f"the mirror {self.folder} ({self.setting})"


def configured_mirror_setting(config_path: Path | None = None) -> Mirror | None:
    """``data.mirror`` of the workflow's configuration (default ``config/config.yaml``),
    relative to the repository root, as an optional :class:`Mirror` (``None`` when unset or
    when the configuration cannot be read): the command-line tools' default mirror."""
    import yaml

    from threshold_choice._yaml import safe_load

    path = Path(config_path) if config_path is not None else registry.DEFAULT_CONFIG
    try:
        config = safe_load(path.read_text(encoding="utf-8")) or {}
        value = (config.get("data") or {}).get("mirror")
    except (OSError, yaml.YAMLError, AttributeError):
        return None
    return Mirror.configured(value, str(path), base=path.parent.parent)


def configured_mirror(config_path: Path | None = None) -> Path | None:
    """The workflow's mirror folder (``data.mirror`` of ``config/config.yaml``, relative to
    the repository root) when it exists, else ``None`` (see
    :func:`configured_mirror_setting`, which also reports a configured folder that does not
    exist)."""
    mirror = configured_mirror_setting(config_path)
    return mirror.folder if mirror is not None and mirror.exists else None


def choose_mirror(given: Path | None, *, disabled: bool,
                  config_path: Path | None = None) -> Mirror | None:
    """The mirror of a command-line tool: ``--mirror DIR`` when given (it must exist), none
    with ``--no-mirror``, else the configured ``data.mirror`` (see
    :func:`configured_mirror_setting`)."""
    if disabled:
        return None
    if given is not None:
        return Mirror(Path(given))
    return configured_mirror_setting(config_path)


def _usable_mirror(spec: DatasetSpec, mirror: Mirror | None) -> Path | None:
    """The mirror folder to read, ``None`` to skip it; raises for a missing required one."""
    if mirror is None or mirror.exists:
        return None if mirror is None else mirror.folder
    # a path that exists is not a folder (a file, e.g. one of the ARFF files): say so, not
    # "does not exist", and that the folder holding the files is wanted
    missing = not mirror.folder.exists()
    what = "the mirror folder" if missing else "the mirror"
    if not mirror.optional:
        raise SourceUnavailableError(
            f"{spec.name}: {what} {mirror.folder} ({mirror.setting}) {mirror.state}. "
            f"Correct {mirror.setting} to name the folder holding the paper's ARFF files and "
            f"their SHA256SUMS{'' if missing else ' (not a file in it)'}, or drop "
            "it to fetch from OpenML/UCI."
        )
    if mirror.folder not in _warned_missing:
        _warned_missing.add(mirror.folder)
        _log.warning(
            "warning: %s %s (%s) %s: fetching from OpenML/UCI instead (the data is verified "
            "either way). Correct that setting%s, or set it to null to silence this.",
            what, mirror.folder, mirror.setting, mirror.state,
            "" if missing else " to name the folder holding the ARFF files",
        )
    return None


def _offline_fix(spec: DatasetSpec, mirror: Mirror | None) -> str:
    """How to obtain ``spec`` without its public source, naming the mirror setting in use."""
    wanted = f"a folder holding {spec.mirror_file} and its SHA256SUMS line"
    if mirror is None:
        return f"pass --mirror DIR with {wanted} (in the workflow: data.mirror)."
    point = (f"pass {mirror.setting} DIR with" if mirror.setting.startswith("--")
             else f"set {mirror.setting} to")
    state = "lacks it" if mirror.exists else mirror.state
    return f"{point} {wanted} ({mirror.folder} {state})."


def sha256_file(path: Path) -> str:
    """Hex SHA-256 of a file's bytes."""
    digest = hashlib.sha256()
    with Path(path).open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def read_sha256sums(mirror: Path) -> dict[str, str]:
    """Parse ``mirror/SHA256SUMS`` (``<hex>  <file>`` lines, as written by ``sha256sum``)."""
    sums_path = Path(mirror) / "SHA256SUMS"
    if not sums_path.is_file():
        raise DatasetError(
            f"mirror {mirror} has no SHA256SUMS file, so its files cannot be verified. "
            f"Create it there with: sha256sum *.arff > SHA256SUMS"
        )
    sums: dict[str, str] = {}
    for line in sums_path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            digest, _, fname = line.strip().partition(" ")
            sums[fname.strip().lstrip("*")] = digest.lower()
    return sums


def fetch_from_mirror(spec: DatasetSpec, mirror: Path, *,
                      setting: str = "--mirror") -> SourceResult | None:
    """The paper's ARFF from the mirror, checksum-verified; ``None`` if the file is absent.
    ``setting``: what named the mirror (see :class:`Mirror`), for messages."""
    path = Path(mirror) / spec.mirror_file
    if not path.is_file():
        return None
    expected = read_sha256sums(mirror).get(spec.mirror_file)
    actual = sha256_file(path)
    if expected is None:
        raise ChecksumMismatchError(
            f"{spec.name}: {path} is not listed in {Path(mirror) / 'SHA256SUMS'}, so it cannot be "
            f"verified (actual SHA-256 {actual}). Add its line to SHA256SUMS if the file is right."
        )
    if expected != actual:
        raise ChecksumMismatchError(
            f"{spec.name}: checksum mismatch for {path} (source: mirror): expected SHA-256 "
            f"{expected}, actual {actual}. Replace the file with an intact copy of the paper's "
            f"data, or drop {setting} to fetch it from its public source."
        )
    _, table = read_arff(path)
    return table, {"kind": "mirror", "path": str(path.resolve()), "file_sha256": actual}


# ----------------------------------------------------------------------------------------------
# OpenML


@contextlib.contextmanager
def _openml_settings(cache_dir: Path, retries: int) -> Iterator[Any]:
    """Point openml at ``cache_dir`` and force the ARFF download for the duration of a call.

    The ARFF (not OpenML's parquet copy) is used because its header carries the declared
    category order, which the paper's table and the R-compatible splitter depend on.
    """
    import openml

    old_cache = openml.config.get_config_as_dict()["cachedir"]
    old_retries = openml.config.connection_n_retries
    old_skip = os.environ.get("OPENML_SKIP_PARQUET")
    openml.config.set_root_cache_directory(str(cache_dir))
    openml.config.connection_n_retries = max(1, retries)
    os.environ["OPENML_SKIP_PARQUET"] = "true"
    try:
        yield openml
    finally:
        openml.config.set_root_cache_directory(str(old_cache))
        openml.config.connection_n_retries = old_retries
        if old_skip is None:
            os.environ.pop("OPENML_SKIP_PARQUET", None)
        else:
            os.environ["OPENML_SKIP_PARQUET"] = old_skip


def _as_list(value: Any) -> list[str]:
    if value is None:
        return []
    return [value] if isinstance(value, str) else [str(v) for v in value]


def fetch_from_openml(spec: DatasetSpec, cache_dir: Path, *, retries: int = 3,
                      mirror: Mirror | None = None) -> SourceResult:
    """Download (or reuse from ``cache_dir/openml``) the pinned OpenML dataset and map it.

    OpenML's ignore and row-id attributes are dropped, as ``get_data`` does, except those the
    registry lists in ``keep_ignored`` (e.g. ``selector``, the paper's class of bupa).
    ``mirror``: the mirror that lacked the file, named in the error when offline.
    """
    source = spec.source
    openml_cache = Path(cache_dir) / "openml"
    openml_cache.mkdir(parents=True, exist_ok=True)
    import requests  # here: runs from the mirror (the workflow's) never go online

    with _openml_settings(openml_cache, retries) as openml:
        try:
            dataset = openml.datasets.get_dataset(
                source.openml_id,
                download_data=True,
                download_qualities=False,
                download_features_meta_data=False,
            )
        except (OSError, requests.RequestException, openml.exceptions.PyOpenMLError) as exc:
            raise SourceUnavailableError(
                f"{spec.name}: cannot obtain {source.describe()} ({type(exc).__name__}: {exc}). "
                f"Connect to the internet, or {_offline_fix(spec, mirror)}"
            ) from None
    if dataset.data_file is None:
        raise SourceUnavailableError(
            f"{spec.name}: {source.describe()} delivered no ARFF file. Delete "
            f"{openml_cache} and retry, or use --mirror."
        )
    arff_path = Path(dataset.data_file)
    try:
        _, table = read_arff(arff_path)
    except ArffFormatError as exc:
        # a corrupt (e.g. truncated) download must not be reused: the next call fetches anew
        arff_path.unlink(missing_ok=True)
        raise ArffFormatError(
            f"{spec.name} ({source.describe()}): {exc}. The cached copy {arff_path} was "
            "deleted, so the next run downloads it again."
        ) from None
    dropped = set(_as_list(dataset.ignore_attribute) + _as_list(dataset.row_id_attribute))
    dropped -= set(source.keep_ignored)
    table = Table(tuple(c for c in table.columns if c.name not in dropped))
    table = apply_transforms(table, source.transforms)
    info = {
        "kind": "openml",
        "id": source.openml_id,
        "name": dataset.name,
        "version": dataset.version,
        "path": str(arff_path.resolve()),
        "file_sha256": sha256_file(arff_path),
        "dropped_attributes": sorted(dropped),
    }
    return table, info


# ----------------------------------------------------------------------------------------------
# UCI (plain HTTP)


def download(url: str, dest: Path, *, retries: int = 3, backoff: float = 1.0,
             timeout: float = 30.0) -> Path:
    """Download ``url`` to ``dest`` atomically, retrying connection errors and 5xx responses.

    An existing ``dest`` is reused. Raises ``requests.RequestException`` after the last try.
    """
    import requests  # here: runs from the mirror (the workflow's) never go online

    if dest.is_file():
        return dest
    dest.parent.mkdir(parents=True, exist_ok=True)
    last: Exception | None = None
    for attempt in range(max(1, retries)):
        if attempt:
            time.sleep(backoff * 2 ** (attempt - 1))
        try:
            response = requests.get(url, timeout=timeout)
            response.raise_for_status()
            return write_bytes_atomic(dest, response.content)
        except requests.HTTPError as exc:
            last = exc
            if exc.response is not None and exc.response.status_code < 500:
                break  # 4xx: a wrong URL, retrying will not help
        except requests.RequestException as exc:
            last = exc
    assert last is not None
    raise last


def parse_delimited(text: str, fmt: dict[str, Any], *, source: str) -> Table:
    """Parse a headerless UCI data file: ``fmt`` gives delimiter, missing marker, column names
    and which columns are nominal (labels in order of first appearance; others numeric)."""
    names = expand_names(fmt["columns"])
    nominal = set(expand_names(fmt.get("nominal", [])))
    missing_marker = fmt.get("missing", "?")
    delimiter = None if fmt["delimiter"] == "whitespace" else fmt["delimiter"]
    rows = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        parts = [p.strip() for p in line.strip().split(delimiter)]
        if len(parts) != len(names):
            raise ArffFormatError(
                f"{source}, line {number}: {len(parts)} values where the registry declares "
                f"{len(names)} columns. Check the file or the registry's format.columns."
            )
        rows.append(parts)
    grid = np.array(rows, dtype=object).reshape(len(rows), len(names))
    columns = []
    for j, name in enumerate(names):
        raw = grid[:, j]
        is_missing = raw == missing_marker
        if name in nominal:
            labels = np.where(is_missing, None, raw)
            cats = [str(c) for c in pd.unique(pd.Series(labels[~is_missing], dtype=object))]
            codes = label_codes(labels, cats)
            columns.append(Column(name, "nominal", codes, tuple(cats)))
        else:
            try:
                values = np.where(is_missing, "nan", raw).astype(str).astype(np.float64)
            except ValueError as exc:
                raise ArffFormatError(
                    f"{source}: column {name!r} should be numeric: {exc}. "
                    "Check the file or declare the column nominal in the registry."
                ) from None
            columns.append(Column(name, "numeric", values))
    return Table(tuple(columns))


# Unix ``compress`` (LZW) files start with these two bytes; UCI still ships some data so.
_Z_MAGIC = b"\x1f\x9d"


def uncompress_z(raw: bytes) -> bytes:
    """``raw`` decompressed when it is a Unix ``compress`` (``.Z``) stream, else unchanged.

    Raises ``ValueError`` on a corrupt stream."""
    if not raw.startswith(_Z_MAGIC):
        return raw
    import unlzw3

    try:
        return bytes(unlzw3.unlzw(raw))
    except Exception as exc:  # unlzw3 raises several types on bad input
        raise ValueError(f"corrupt .Z stream: {exc}") from None


def read_archive_member(path: Path, member: str) -> bytes:
    """One member of a zip archive; ``KeyError`` (with a readable message) when absent."""
    with zipfile.ZipFile(path) as archive:
        names = archive.namelist()
        if member not in names:
            raise KeyError(f"lacks {member!r} (it has {names[:10]})")
        return archive.read(member)


def fetch_from_uci(spec: DatasetSpec, cache_dir: Path, *, retries: int = 3,
                   backoff: float = 1.0, mirror: Mirror | None = None) -> SourceResult:
    """Download (or reuse from ``cache_dir/uci``) the UCI file over HTTP and map it;
    ``mirror`` as in :func:`fetch_from_openml`."""
    source = spec.source
    assert source.url is not None
    dest = Path(cache_dir) / "uci" / spec.name / source.url.rstrip("/").rsplit("/", 1)[-1]
    import requests

    try:
        download(source.url, dest, retries=retries, backoff=backoff)
    except requests.RequestException as exc:
        raise SourceUnavailableError(
            f"{spec.name}: cannot download {source.describe()} after {retries} tries "
            f"({type(exc).__name__}: {exc}). Connect to the internet, or "
            f"{_offline_fix(spec, mirror)}"
        ) from None
    member = source.uci_format.get("member")
    try:
        raw = read_archive_member(dest, member) if member else dest.read_bytes()
        raw = uncompress_z(raw)
    except (zipfile.BadZipFile, ValueError) as exc:
        # a truncated or non-archive download (e.g. an HTML error page) must not be reused
        dest.unlink(missing_ok=True)
        raise SourceUnavailableError(
            f"{spec.name}: the download of {source.url} is not a valid "
            f"{'zip archive' if member else 'data file'} ({exc}); the cached copy {dest} was "
            "deleted. Try again, or pass --mirror DIR."
        ) from None
    except KeyError as exc:
        raise SourceUnavailableError(
            f"{spec.name}: archive {source.url} {exc.args[0]}. Correct format.member in "
            "config/datasets.yaml."
        ) from None
    text = raw.decode("latin-1")
    table = parse_delimited(text, dict(source.uci_format), source=f"{spec.name} ({source.url})")
    table = apply_transforms(table, source.transforms)
    return table, {"kind": "uci", "url": source.url, "member": member,
                   "path": str(dest.resolve()), "file_sha256": sha256_file(dest)}


#: what a local CSV file writes for a missing value (besides an empty field)
LOCAL_MISSING = ("", "?", "NA")


def read_local_csv(path: Path, target: str) -> Table:
    """A CSV file of one's own (a header row; ``,`` between fields) as a :class:`Table`.

    A column whose every present value is a number is numeric, any other nominal, and so is
    the ``target`` whatever its values (labels as written, e.g. ``0``/``1``). A nominal
    column's categories are its distinct labels in sorted order (as R's ``read.csv`` makes
    factor levels), which fixes the class order the R splitter and Weka see. Missing: an empty
    field, ``?`` or ``NA``."""
    import csv

    with open(path, newline="", encoding="utf-8") as handle:
        header = [h.strip() for h in next(csv.reader(handle), [])]
    twice = sorted({h for h in header if header.count(h) > 1})
    if twice:  # pandas would rename the second one silently
        raise ArffFormatError(f"{path}: the header names {', '.join(twice)} twice; rename one.")
    frame = pd.read_csv(path, dtype=str, keep_default_na=False, skipinitialspace=True)
    frame.columns = header
    if target not in frame.columns:
        raise ArffFormatError(
            f"{path}: no column {target!r} (the registry's target); its columns: "
            f"{', '.join(map(str, frame.columns))}."
        )
    columns = []
    for name in frame.columns:
        raw = frame[name].str.strip().to_numpy(dtype=object)
        missing = np.isin(raw, LOCAL_MISSING)
        numbers = pd.to_numeric(pd.Series(raw[~missing]), errors="coerce")
        if name != target and not numbers.isna().any():
            values = np.full(len(raw), np.nan)
            values[~missing] = numbers.to_numpy(dtype=np.float64)
            columns.append(Column(str(name), "numeric", values))
        else:
            labels = np.where(missing, None, raw)
            categories = sorted({str(v) for v in raw[~missing]})
            columns.append(Column(str(name), "nominal", label_codes(labels, categories),
                                  tuple(categories)))
    return Table(tuple(columns))


def fetch_from_local(spec: DatasetSpec) -> SourceResult:
    """The CSV or ARFF file of a dataset of one's own (``source: {kind: local, path}``; a
    relative path is taken from the working folder)."""
    source = spec.source
    assert source.path is not None
    path = Path(source.path).expanduser()
    if not path.is_file():
        raise SourceUnavailableError(
            f"{spec.name}: the local file {path} (source.path) does not exist; correct the "
            "path in the dataset registry (relative paths start at the working folder)."
        )
    fmt = source.file_format or path.suffix.lower().lstrip(".")
    if fmt == "arff":
        _, table = read_arff(path)
    elif fmt == "csv":
        table = read_local_csv(path, spec.target)
    else:
        raise SourceUnavailableError(
            f"{spec.name}: cannot tell the format of {path} from its name; add format: csv "
            "or format: arff to its source."
        )
    table = apply_transforms(table, source.transforms)
    return table, {"kind": "local", "path": str(path.resolve()), "file_sha256": sha256_file(path)}


def fetch_source(spec: DatasetSpec, *, cache_dir: Path, mirror: Path | Mirror | None,
                 retries: int = 3, backoff: float = 1.0) -> SourceResult:
    """Mirror first (when given, existing and holding the file), else the registry's public
    source; a dataset of one's own (``local``) from its file. A plain path is a mirror given
    with ``--mirror`` (see :class:`Mirror`)."""
    if spec.source.kind == "local":
        return fetch_from_local(spec)
    setting = Mirror.of(mirror)
    folder = _usable_mirror(spec, setting)
    if folder is not None:
        assert setting is not None
        result = fetch_from_mirror(spec, folder, setting=setting.setting)
        if result is not None:
            return result
    kind = spec.source.kind
    if kind == "openml":
        return fetch_from_openml(spec, cache_dir, retries=retries, mirror=setting)
    if kind == "uci":
        return fetch_from_uci(spec, cache_dir, retries=retries, backoff=backoff, mirror=setting)
    where = setting.describe() if setting is not None else "no mirror (none was given)"
    raise SourceUnavailableError(
        f"{spec.name}: the source is {spec.source.describe()}, and {spec.mirror_file} is "
        f"missing from {where}. To use it, {_offline_fix(spec, setting)}"
    )
