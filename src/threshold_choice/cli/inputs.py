"""What the commands read: CSV files ``label,score`` and the check that scores are
probabilities for the methods that read them as such.

Shared by ``loss``, ``decision-curve`` and ``plot``; every problem is a
:class:`~threshold_choice.errors.UserError` naming the file, the line and the fix.
"""

from __future__ import annotations

import argparse
import csv
import io
import os
import re
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from threshold_choice.errors import UserError
from threshold_choice.methods import probability_problem as _probability_problem

if TYPE_CHECKING:
    from threshold_choice.costs import Costs

#: methods that threshold at the score itself (or at a map of it), so they read the scores as
#: probabilities; the others use only the order of the scores (rank-based)
_LINE_BREAKS = re.compile(r"\r\n|\r|\n")
_OTHER_SEPARATORS = {";": "';'", "\t": "a tab", "|": "'|'"}


#: the most replicates ``--bootstrap`` takes (a bound on the command's time: each replicate
#: is evaluated; the library's own bound, ``bootstrap.MAX_REPLICATES``, is on its memory)
MAX_BOOTSTRAP = 10_000


def check_seed_and_bootstrap(args: argparse.Namespace) -> None:
    """``--seed`` (a whole number >= 0, as the library checks it) and ``--bootstrap``
    (0..:data:`MAX_BOOTSTRAP`), shared by the commands that take them, before any work."""
    from threshold_choice.uncertainty import check_seed

    check_seed(args.seed, "--seed", allow_none=False)
    if not 0 <= args.bootstrap <= MAX_BOOTSTRAP:
        raise UserError(f"--bootstrap must be between 0 and {MAX_BOOTSTRAP} (each replicate is "
                        f"evaluated; 1000 give percentile intervals to about 0.1%), got "
                        f"{args.bootstrap}")


def check_train_given(methods: Sequence[str], given: bool) -> None:
    """Refuse, before reading anything, methods that select on training scores without
    ``--train`` (the library's message names its parameters, not the option)."""
    from threshold_choice.methods import NEEDS_TRAIN

    needs = [m for m in methods if m in NEEDS_TRAIN]
    if needs and not given:
        raise UserError(f"{', '.join(needs)} select(s) thresholds on the model's training "
                        "scores: give them with --train FILE (a CSV label,score of the "
                        "training set), or drop the method")


def check_outputs(outputs: Sequence[str | Path], inputs: Sequence[str | Path], *,
                  option: str = "--out") -> None:
    """Refuse, before anything is read or written, an output file that is one of the inputs
    (the same path, or the same file under another name), or whose folder cannot be created
    or written in (:func:`check_output_folder`): every command that writes files calls this
    with all the files it writes (a figure and the CSV beside it); ``option`` names them."""
    for out in map(Path, outputs):
        for given in map(Path, inputs):
            same = out.resolve() == given.resolve() or (
                out.exists() and given.exists() and out.samefile(given))
            if same:
                raise UserError(
                    f"the output {out} would overwrite the input {given}; write the output "
                    "elsewhere (--out names the figure, and its .csv is written beside it)"
                )
    for out in dict.fromkeys(map(Path, outputs)):
        check_output_folder(out.parent, option, out)


#: the fix of an output folder that cannot be created or written in
WRITABLE_FOLDER_FIX = "choose a folder you can write (e.g. one in your home or working folder)"


def check_output_folder(folder: str | Path, option: str, given: str | Path | None = None, *,
                        fix: str = WRITABLE_FOLDER_FIX) -> None:
    """Refuse, before any work, an output folder that cannot be created (``/proc/foo``, a
    read-only file system) or written in, naming it, the reason and ``fix`` (one line):
    without this the command fails on its first write, after its work, with the operating
    system's bare "No such file or directory". Every command that writes calls it for each
    folder it writes in (through :func:`check_outputs` for files). ``option`` and ``given``
    (default ``folder``): the option and the path the user gave (a file in ``folder``).

    A missing folder is created to see whether it can be, then removed again, so that a
    command refused later leaves nothing behind. A path under a file (``afile/out``) is left
    to the command's own check or its writer, which name the file."""
    folder = Path(folder)
    given = folder if given is None else Path(given)
    subject = (f"{option} {given}: the folder" if given == folder
               else f"{option} {given}: its folder {folder}")
    missing: list[Path] = []  # the folders to create, deepest first
    existing = folder
    while not os.path.exists(existing) and existing != existing.parent:
        missing.append(existing)
        existing = existing.parent
    if not os.path.isdir(existing):
        return
    if not missing:
        if not os.access(folder, os.W_OK | os.X_OK):
            raise UserError(f"{subject} is not writable; {fix}")
        return
    try:
        folder.mkdir(parents=True)
    except OSError as exc:
        where = "" if exc.filename in (None, str(folder)) else f"{exc.filename}: "
        raise UserError(f"{subject} cannot be created ({where}{exc.strerror or exc}); "
                        f"{fix}") from None
    finally:
        for path in missing:  # deepest first; only the empty folders made here
            try:
                path.rmdir()
            except OSError:
                pass


#: the largest file read line by line (named labels, or a problem to name on its line): that
#: reading holds every field as text, about 25 bytes of memory a byte of file
MAX_CHECKED_BYTES = 128 << 20
#: the bytes of a file scanned at once for lines with too many fields
_SCAN_CHUNK = 1 << 24


def _too_many_fields(buffer: np.ndarray, width: int) -> bool:
    """Whether a line of ``buffer`` (the file's bytes) has more than ``width`` fields, in
    bounded memory (chunks of :data:`_SCAN_CHUNK` bytes): pandas' typed reading builds a
    column for every field of such a line before it refuses it (gigabytes for a line of
    10^6 commas). Commas in quotes count too: such a file goes to the line-by-line reading,
    which reads quotes."""
    k = width - 1  # a line with k + 1 commas has a field too many
    tail = np.empty(0, dtype=np.intp)  # the line of each of the last k commas so far
    lines_before = 0
    for start in range(0, buffer.size, _SCAN_CHUNK):
        part = buffer[start:start + _SCAN_CHUNK]
        newlines = np.flatnonzero(part == ord("\n"))
        commas = np.flatnonzero(part == ord(","))
        line = np.concatenate([tail, lines_before + np.searchsorted(newlines, commas)])
        if line.size > k and np.any(line[k:] == line[:-k]):  # k + 1 commas on one line
            return True
        tail = line[line.size - k:]
        lines_before += newlines.size
    return False


def _header_fix(found: Sequence[str]) -> str:
    """How to fix a header that lacks ``label,score`` (another separator, spaces...)."""
    if len(found) == 1:
        for sep, name in _OTHER_SEPARATORS.items():
            if sep in found[0]:
                return f"the file looks separated by {name}: separate the columns by commas"
    if {"label", "score"} <= {c.strip().lower() for c in found}:
        return "remove the spaces around the column names (header line label,score)"
    return "expected a comma-separated header line label,score"


def _first_bad_line(bad: np.ndarray, raw: np.ndarray, what: str, path: Path, column: str) -> None:
    """Raise naming the first line (1-based, blank lines counted) where ``bad`` holds."""
    if not bad.any():
        return
    row = int(np.flatnonzero(bad)[0])
    value = raw[row].strip()
    shown = repr(value) if len(value) <= 40 else f"{value[:40]!r}... ({len(value)} characters)"
    problem = "is missing" if value == "" else f"is {shown}"
    need = ("labels must be 0 or 1 (or name the positive class with --pos-label)"
            if column == "label" else "scores must be finite numbers")
    raise UserError(f"{what} file {path}: {column} on line {row + 2} {problem}; {need}")


def read_scores_csv(
    path: str | Path, what: str, pos_label: str | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Read a comma-separated file with a header line naming the columns ``label`` and
    ``score`` in any case (``Label,Score`` too; other columns are ignored): labels 0/1,
    scores finite reals. With ``pos_label`` the labels are any two values, the rows labelled
    ``pos_label`` (compared as text) being class 1 (the class the score estimates) and the
    others class 0.

    Blank lines are skipped; errors name the file and the 1-based line (blank lines counted).
    A well-formed file is read as two typed columns (about 16 bytes a row: 10^7 rows in a few
    seconds); any problem sends it through the line-by-line reading that names the line.
    A pipe (``/dev/stdin``, ``<(command)``) is read once; a device or a file larger than
    :data:`~threshold_choice._files.MAX_INPUT_BYTES` is refused (:mod:`threshold_choice._files`).
    """
    from threshold_choice._files import read_special

    data = read_special(path, f"{what} file")
    fast = _read_typed(Path(path), data)
    if fast is not None and pos_label in (None, "1", "0"):
        labels, scores = fast
        return (labels if pos_label != "0" else (1 - labels).astype(np.int8)), scores
    return _read_checked(Path(path), what, pos_label, data)


def _read_typed(path: Path, data: bytes | None = None) -> tuple[np.ndarray, np.ndarray] | None:
    """The labels and scores of a well-formed file (``data``: its bytes, read once from a
    pipe), or None (then :func:`_read_checked` finds and names the problem)."""
    import pandas as pd  # here: --help imports this module

    try:
        with (open(path, encoding="utf-8-sig", newline="") if data is None else
              io.TextIOWrapper(io.BytesIO(data), encoding="utf-8-sig", newline="")) as handle:
            header = next(csv.reader(handle), None)
        names = [c.lower() for c in header or ()]
        if names.count("label") != 1 or names.count("score") != 1:
            return None
        buffer = (np.frombuffer(data, dtype=np.uint8) if data is not None else
                  np.memmap(path, dtype=np.uint8, mode="r"))
        if _too_many_fields(buffer, len(header)):
            return None
        label, score = header[names.index("label")], header[names.index("score")]
        # all the columns (usecols would let a row with a field too many through), the two
        # read as float64 (other columns, rare, as text); pandas' warning that it dropped
        # fields is a problem too
        with warnings.catch_warnings():
            warnings.simplefilter("error", pd.errors.ParserWarning)
            frame = pd.read_csv(path if data is None else io.BytesIO(data),
                                encoding="utf-8-sig", index_col=False, engine="c",
                                dtype={label: np.float64, score: np.float64},
                                skip_blank_lines=True, na_filter=False)
    except (OSError, UnicodeDecodeError, ValueError, csv.Error, pd.errors.ParserError,
            pd.errors.EmptyDataError, pd.errors.ParserWarning):
        return None
    labels = frame[label].to_numpy()
    scores = frame[score].to_numpy()
    if not (np.all((labels == 0.0) | (labels == 1.0)) and np.all(np.isfinite(scores))):
        return None
    return labels.astype(np.int8), scores


def _read_checked(
    path: Path, what: str, pos_label: str | None = None, data: bytes | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`read_scores_csv` line by line, each problem named with its line."""
    import pandas as pd

    if path.is_dir():
        raise UserError(f"{what} file {path} is a folder; give a CSV file with columns label,score")
    size = len(data) if data is not None else path.stat().st_size if path.exists() else 0
    if size > MAX_CHECKED_BYTES:
        problem = ("has named labels, read line by line" if pos_label not in (None, "0", "1")
                   else "is not well formed on some line, which is found line by line")
        raise UserError(
            f"{what} file {path} ({size / 2**20:.0f} MiB) {problem}: that reading holds every "
            f"field and is limited to {MAX_CHECKED_BYTES >> 20} MiB; give labels 0/1 with "
            "one label,score pair a line (read as numbers up to 2 GiB), or a smaller file")
    try:
        # -sig: a leading byte-order mark is dropped
        text = path.read_text(encoding="utf-8-sig") if data is None else data.decode("utf-8-sig")
    except FileNotFoundError:
        raise UserError(f"{what} file {path} does not exist") from None
    except OSError as exc:
        raise UserError(f"cannot read {what} file {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise UserError(f"{what} file {path} is not a text (UTF-8) CSV file") from None
    try:
        # header=None: a row with more fields than the header is an error naming its line
        # (with a header, pandas would silently take the first field as an index)
        grid = pd.read_csv(
            io.StringIO(text), header=None, dtype=str, keep_default_na=False,
            skip_blank_lines=False,
        ).to_numpy(dtype=object)
    except pd.errors.EmptyDataError:
        raise UserError(
            f"{what} file {path} is empty; expected a header line label,score"
        ) from None
    except pd.errors.ParserError as exc:
        raise UserError(_ragged_line(text, what, path) or
                        f"{what} file {path} is not a readable CSV: {exc}".splitlines()[0]
                        ) from None
    found = [str(c) for c in grid[0]]
    lower = [c.lower() for c in found]  # Label,Score is label,score
    twice = [c for c in ("label", "score") if lower.count(c) > 1]
    if twice:
        raise UserError(
            f"{what} file {path} has {len(found)} columns of which {lower.count(twice[0])} are "
            f"named {twice[0]} (in any case); keep one (which one is meant cannot be told)"
        )
    missing = [c for c in ("label", "score") if c not in lower]
    if missing:
        shown = ", ".join(repr(c) for c in found)
        raise UserError(
            f"{what} file {path} lacks column(s) {', '.join(missing)} (found {shown}); "
            f"{_header_fix(found)}"
        )
    lines = _LINE_BREAKS.split(text)
    blank = np.array([not line.strip() for line in lines[1 : len(grid)]], dtype=bool)
    keep = np.flatnonzero(~blank)
    raw_labels = grid[1:, lower.index("label")].astype(str)
    raw_scores = grid[1:, lower.index("score")].astype(str)
    scores = pd.to_numeric(pd.Series(raw_scores), errors="coerce").to_numpy(dtype=float)
    if pos_label is None:
        labels = pd.to_numeric(pd.Series(raw_labels), errors="coerce").to_numpy(dtype=float)
        _first_bad_line(~blank & ~np.isin(labels, (0.0, 1.0)), raw_labels, what, path, "label")
    else:
        labels = _labels_of(np.char.strip(raw_labels), ~blank, pos_label, what, path)
    _first_bad_line(~blank & ~np.isfinite(scores), raw_scores, what, path, "score")
    return labels[keep].astype(np.int8), scores[keep]


def _ragged_line(text: str, what: str, path: Path) -> str | None:
    """The message naming the first line with more fields than the header (what pandas'
    tokenizer refuses), or None if there is none."""
    reader = csv.reader(io.StringIO(text))
    width = None
    for row in reader:
        if not row:  # a blank line
            continue
        if width is None:
            width = len(row)
        elif len(row) > width:
            return (f"{what} file {path}: line {reader.line_num} has {len(row)} fields but the "
                    f"header {width}; give each line one value per column (quote a value that "
                    "holds a comma)")
    return None


def _labels_of(raw: np.ndarray, rows: np.ndarray, pos_label: str, what: str,
               path: Path) -> np.ndarray:
    """Labels as 1 (``pos_label``) / 0 (the one other label), checked."""
    _first_bad_line(rows & (raw == ""), raw, what, path, "label")
    found = np.unique(raw[rows])
    if pos_label.strip() not in found:
        raise UserError(
            f"{what} file {path}: no row has the label {pos_label!r} given as --pos-label; "
            f"its labels are {', '.join(repr(str(v)) for v in found[:5])}"
        )
    if found.size > 2:
        raise UserError(
            f"{what} file {path} has {found.size} labels ({', '.join(map(str, found[:5]))}"
            f"{', ...' if found.size > 5 else ''}); two are needed, one of them --pos-label"
        )
    return (raw == pos_label.strip()).astype(float)


def probability_problem(scores: np.ndarray, methods: Sequence[str], what: str) -> str | None:
    """The library's :func:`~threshold_choice.methods.probability_problem`, pointing at
    ``--method``."""
    return _probability_problem(scores, methods, what, how=" with --method")


#: the CSV numbers' format: readable (10 significant digits) or, with ``--exact``, 17 (every
#: float64 reads back exactly)
READABLE_FORMAT, EXACT_FORMAT = "%.10g", "%.17g"


def add_exact_argument(parser: argparse.ArgumentParser) -> None:
    """``--exact``, shared by the commands that print numbers as CSV."""
    parser.add_argument(
        "--exact", action="store_true",
        help="print the CSV's numbers to 17 significant digits, which read back as the exact "
        "values (default: 10, readable; --format json is always exact)",
    )


def add_pos_label_argument(parser: argparse.ArgumentParser) -> None:
    """``--pos-label``, shared by the commands that read label,score files."""
    parser.add_argument(
        "--pos-label", default=None, metavar="LABEL",
        help="the label of the positive class (class 1, whose probability the score "
        "estimates; c is the cost proportion of errors on the other class) when the label "
        "column holds names, e.g. --pos-label malignant; default: labels are 0/1",
    )


def add_cost_arguments(parser: argparse.ArgumentParser, *, several_beliefs: bool = False
                       ) -> None:
    """``--costs FP,FN``, ``--cost-ratio LOW,HIGH`` and ``--cost-distribution SPEC``: the
    costs in the user's terms, as the library's :class:`~threshold_choice.costs.Costs` and
    beliefs take them (shared by ``loss`` and ``plot``; read with :func:`costs_from_args`).
    ``several_beliefs``: ``--cost-distribution`` repeatable (``plot cost-weights``)."""
    parser.add_argument(
        "--costs", default=None, metavar="FP,FN",
        help="the cost of a false positive (class 0 predicted 1) and of a false negative, in "
        "your units: c = FP / (FP + FN); losses also in your units (x (FP + FN) / 2)",
    )
    parser.add_argument(
        "--cost-ratio", default=None, metavar="LOW,HIGH",
        help="a false negative costs LOW to HIGH times a false positive (e.g. 3,10): the "
        "belief logit-uniform on c = 1/(1 + ratio), every ratio in the range equally likely "
        "on a log scale; c is its mean and a false positive costs 1 unit (instead of --costs "
        "and --cost-distribution)",
    )
    parser.add_argument(
        "--cost-distribution", default=None, metavar="SPEC",
        action="append" if several_beliefs else "store",
        help="belief about the true cost proportion c: uniform (the paper's, default), "
        "beta:A,B, uniform:LO,HI or logit-uniform:LO,HI"
        + (" (repeatable: one line each)" if several_beliefs else ""),
    )


def _two_numbers(option: str, text: str, example: str) -> tuple[str, str]:
    parts = text.split(",")
    if len(parts) != 2:
        raise UserError(f"{option} takes two numbers separated by a comma (e.g. {example}), "
                        f"got {text!r}")
    return parts[0].strip(), parts[1].strip()


def costs_from_args(args: argparse.Namespace) -> tuple[Costs | None, str | None]:
    """The costs of ``--costs`` or ``--cost-ratio`` (their positive class ``--pos-label``)
    and the belief's spec (``--cost-distribution``, or ``--cost-ratio``'s; ``None``: none
    given). One belief only: ``--cost-ratio`` with ``--cost-distribution`` is refused."""
    from threshold_choice.costs import Costs

    given = args.cost_distribution
    if isinstance(given, list) and len(given) == 1:
        given = given[0]
    if args.costs is not None and args.cost_ratio is not None:
        raise UserError("give --costs FP,FN or --cost-ratio LOW,HIGH, not both")
    if args.cost_ratio is not None:
        if given is not None:
            raise UserError("--cost-ratio is a belief about c already: drop "
                            "--cost-distribution, or give --costs FP,FN with it")
        low, high = _two_numbers("--cost-ratio", args.cost_ratio, "3,10")
        try:
            low_f, high_f = float(low), float(high)
        except ValueError:
            raise UserError(f"--cost-ratio takes two numbers LOW,HIGH (e.g. 3,10), got "
                            f"{args.cost_ratio!r}") from None
        costs = Costs.from_ratio_range(low_f, high_f, pos_label=args.pos_label)
        return costs, costs.belief.spec if costs.belief is not None else None
    costs = None
    if args.costs is not None:
        fp, fn = _two_numbers("--costs", args.costs, "1,4")
        costs = Costs(fp, fn, args.pos_label)
    return costs, given
