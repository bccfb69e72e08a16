"""Tables 7 and 8 of the paper from the per-run results, and their writers.

Input: ``runs``, the long table of ``results/runs.parquet``: one row per
``(dataset, model, split, gamma, method)`` with the run's expected ``loss`` and its test
metrics (``AUC, BS, CL, RL, ...``) repeated on every row of the run.

Conventions (as in the paper, Sect. 6.2):

* a *run* is one ``(dataset, model, split)``; Table 7 averages the runs of each model type
  over datasets x splits, Table 8 the runs of each dataset over the non-baseline model types
  x splits (plain means, every run weighted equally);
* ``sc_vs_tr`` is the share of runs whose train-optimal loss is ``>=`` the score-driven loss
  ("score-driven better or equal"), ``rd_vs_tr`` the same for rate-driven. Equality is
  tested up to :data:`TIE_TOLERANCE` so that two methods that pick the same cost lines count
  as a tie even if their losses differ by rounding error. A run lacking one of the two losses
  does not count in that share;
* column names follow ``config/published/published_table7_by_model.csv`` (methods with
  ``-`` replaced by ``_``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from threshold_choice.atomic import write_text_atomic
from threshold_choice.errors import UserError
from threshold_choice.reproduction.paper import (  # the published tables' columns, re-exported
    BASELINES,
    LOSS_COLUMNS,
    METHOD_COLUMNS,
    METRIC_COLUMNS,
    PAPER_METHODS,
    PUBLISHED_DIR,
    SHARE_COLUMNS,
    SHARE_METHODS,
    TABLE7_COLUMNS,
    TABLE8_COLUMNS,
    VALUE_COLUMNS,
    method_column,
    value_columns,
)
from threshold_choice.reproduction.runs import RUN_KEYS
from threshold_choice.uncertainty import format_gamma, parse_gamma

#: the paper's published tables, copied from the shared reference folder
PUBLISHED_FILES: dict[str, str] = {
    "table5": "published_table5_datasets.csv",
    "table7": "published_table7_by_model.csv",
    "table8": "published_table8_by_dataset.csv",
}

#: losses closer than this count as equal in ``sc_vs_tr`` / ``rd_vs_tr``
TIE_TOLERANCE = 1e-12

_REQUIRED = (*RUN_KEYS, "gamma", "method", "loss", *METRIC_COLUMNS)


def _check_runs(runs: pd.DataFrame) -> None:
    missing = [c for c in _REQUIRED if c not in runs.columns]
    if missing:
        raise UserError(
            f"runs table lacks column(s) {', '.join(missing)}; expected the columns of "
            f"results/runs.parquet ({', '.join(_REQUIRED)}, ...)"
        )


def runs_at_gamma(
    runs: pd.DataFrame, gamma: float, *, tie_tolerance: float = TIE_TOLERANCE
) -> pd.DataFrame:
    """One row per run at ``gamma``: ``dataset, model, split``, the metrics, one loss column
    per method present (``test_optimal``, ..., plus any other method with ``-`` -> ``_``) and
    ``sc_vs_tr`` / ``rd_vs_tr`` as 1.0 (train-optimal loss >= the other), 0.0, or NaN when a
    loss is missing."""
    _check_runs(runs)
    gamma = parse_gamma(gamma)
    g = runs["gamma"].astype(float).to_numpy()
    at = runs[(g == gamma) | (np.isinf(g) & math.isinf(gamma))]
    if at.empty:
        known = ", ".join(format_gamma(x) for x in sorted(set(g), reverse=True))
        raise UserError(f"no runs at gamma = {format_gamma(gamma)}; the runs have {known}")
    keys = [*RUN_KEYS, "method"]
    dup = at.duplicated(keys)
    if dup.any():
        first = at.loc[dup, keys].iloc[0].to_dict()
        raise UserError(f"runs table has {int(dup.sum())} duplicated run(s), e.g. {first}")
    losses = at.pivot(index=list(RUN_KEYS), columns="method", values="loss")
    losses.columns = [method_column(str(m)) for m in losses.columns]
    # The metrics are repeated on each row of a run: take the first.
    metrics = at.groupby(list(RUN_KEYS), sort=False)[list(METRIC_COLUMNS)].first()
    wide = metrics.join(losses).reset_index()
    for col in LOSS_COLUMNS:
        if col not in wide.columns:
            wide[col] = np.nan
    for share, (reference, other) in SHARE_METHODS.items():
        ref, oth = wide[method_column(reference)], wide[method_column(other)]
        wins = (ref >= oth - tie_tolerance).astype(float)
        wide[share] = wins.where(ref.notna() & oth.notna())
    return wide


def paper_datasets(published_dir: Path = PUBLISHED_DIR) -> list[str]:
    """The paper's datasets: those of the published Table 5, in its order."""
    return _published_order(published_dir, "table5", "dataset")


def paper_models(published_dir: Path = PUBLISHED_DIR) -> list[str]:
    """The paper's model types: the rows of the published Table 7, in its order."""
    return _published_order(published_dir, "table7", "model")


def paper_part(runs: pd.DataFrame, published_dir: Path = PUBLISHED_DIR) -> pd.DataFrame:
    """The rows of ``runs`` on the paper's datasets (:func:`paper_datasets`, matched
    case-insensitively), model types (:func:`paper_models`) and certainty levels
    (:data:`~threshold_choice.uncertainty.PAPER_GAMMAS`): what the published numbers speak
    of, whatever else a configuration adds."""
    from threshold_choice.uncertainty import PAPER_GAMMAS

    datasets = {d.lower() for d in paper_datasets(published_dir)}
    models = set(paper_models(published_dir))
    if not datasets or not models:
        raise UserError(
            f"{published_dir} lacks the published Tables 5 and 7 "
            f"({PUBLISHED_FILES['table5']}, {PUBLISHED_FILES['table7']}); set "
            "comparison.published to the folder that holds them"
        )
    keep = runs["dataset"].str.lower().isin(datasets) & runs["model"].isin(models)
    if "gamma" in runs.columns:
        keep &= runs["gamma"].astype(float).isin(PAPER_GAMMAS)
    return runs[keep.to_numpy()]


def extends_paper(
    datasets: Sequence[str], models: Sequence[str], published_dir: Path = PUBLISHED_DIR,
    gammas: Sequence[float | str] = (),
) -> bool:
    """Whether a configuration running ``models`` on ``datasets`` at ``gammas`` has any
    dataset, model type or certainty level beyond the paper's (:func:`paper_part`): then it
    gets an extension (:mod:`threshold_choice.reproduction.scope`)."""
    from threshold_choice.uncertainty import PAPER_GAMMAS

    paper = {d.lower() for d in paper_datasets(published_dir)}
    return bool({d.lower() for d in datasets} - paper
                or set(models) - set(paper_models(published_dir))
                or {parse_gamma(g) for g in gammas} - set(PAPER_GAMMAS))


def _published_order(published_dir: Path, table: str, column: str) -> list[str]:
    path = Path(published_dir) / PUBLISHED_FILES[table]
    if not path.exists():
        return []
    return [str(v) for v in pd.read_csv(path)[column]]


def _means(wide: pd.DataFrame, by: str, columns: Sequence[str]) -> pd.DataFrame:
    return wide.reindex(columns=[by, *columns]).groupby(by)[list(columns)].mean()


def table7(
    runs: pd.DataFrame,
    gamma: float,
    *,
    model_order: Sequence[str] | None = None,
    published_dir: Path = PUBLISHED_DIR,
    tie_tolerance: float = TIE_TOLERANCE,
    methods: Sequence[str] = PAPER_METHODS,
) -> pd.DataFrame:
    """Table 7: per model type, the means over its runs (datasets x splits) at ``gamma``.

    Columns ``model`` and :func:`~threshold_choice.reproduction.paper.value_columns` of
    ``methods`` (:data:`TABLE7_COLUMNS` for the paper's four; a method without runs has an
    empty column). Rows in ``model_order`` (default: the order of the published Table 7 in
    ``published_dir``), then any other model types alphabetically.
    """
    wide = runs_at_gamma(runs, gamma, tie_tolerance=tie_tolerance)
    columns = value_columns(methods)
    means = _means(wide, "model", columns)
    order = list(model_order) if model_order is not None else None
    if order is None:
        order = _published_order(published_dir, "table7", "model")
    present = [m for m in order if m in means.index]
    extra = sorted(m for m in means.index if m not in set(order))
    out = means.loc[present + extra].reset_index()
    return out[["model", *columns]]


def table5_numbers(published_dir: Path = PUBLISHED_DIR) -> dict[str, int]:
    """Dataset name (lower case) -> its number in Table 5, from the published Table 5."""
    path = Path(published_dir) / PUBLISHED_FILES["table5"]
    if not path.exists():
        raise UserError(f"{path} is missing: give the Table 5 numbers of the datasets")
    frame = pd.read_csv(path)
    return {str(d).lower(): int(n) for d, n in zip(frame["dataset"], frame["number"], strict=True)}


def extended_numbers(
    datasets: Sequence[str], published_dir: Path = PUBLISHED_DIR
) -> dict[str, int]:
    """Numbers for the extended Table 8: the published Table 5's for the paper's datasets,
    then the next numbers for the others of ``datasets``, in their order."""
    numbers = table5_numbers(published_dir)
    following = max(numbers.values(), default=0)
    for name in datasets:
        if name.lower() not in numbers:
            following += 1
            numbers[name.lower()] = following
    return numbers


def table8(
    runs: pd.DataFrame,
    gamma: float,
    baselines: Sequence[str] = BASELINES,
    *,
    numbers: Mapping[str, int] | None = None,
    published_dir: Path = PUBLISHED_DIR,
    tie_tolerance: float = TIE_TOLERANCE,
    methods: Sequence[str] = PAPER_METHODS,
) -> pd.DataFrame:
    """Table 8: per dataset, the means over its runs of the non-baseline model types at
    ``gamma``.

    Columns ``number, dataset`` and :func:`~threshold_choice.reproduction.paper.value_columns`
    of ``methods`` (:data:`TABLE8_COLUMNS` for the paper's four); ``number`` is the dataset's
    number in Table 5 (``numbers``, matched case-insensitively; default: the published Table 5;
    missing for an unknown dataset; :func:`extended_numbers` numbers the others). Rows sorted
    by ``test_optimal`` ascending (shown or not), ties by ``number``, as the paper says (its
    printed table has one inversion at 3 decimals: Lung-cancer 0.146 before Heart-statlog
    0.145).
    """
    wide = runs_at_gamma(runs, gamma, tie_tolerance=tie_tolerance)
    wide = wide[~wide["model"].isin(list(baselines))]
    if wide.empty:
        raise UserError(f"no runs of non-baseline models at gamma = {format_gamma(gamma)}")
    columns = value_columns(methods)
    order = "test_optimal"
    means = _means(wide, "dataset", list(dict.fromkeys([*columns, order]))).reset_index()
    lookup = {k.lower(): v for k, v in (numbers or table5_numbers(published_dir)).items()}
    means["number"] = pd.array(
        [lookup.get(str(d).lower()) for d in means["dataset"]], dtype="Int64"
    )
    means = means.sort_values([order, "number", "dataset"], kind="stable", na_position="last")
    return means[["number", "dataset", *columns]].reset_index(drop=True)


# -- writers -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class TableMarks:
    """The typographic marks of Tables 7 and 8 of the paper (their captions):

    * **bold**: in each row, the best (lowest) loss among the realistic methods
      ``best_of`` (train-optimal, score-driven, rate-driven; test-optimal needs the test
      labels and is never marked). All methods tied at the minimum are bold.
    * *italic*: a pairwise share (``shares``: ``sc_vs_tr``, ``rd_vs_tr``) ``> pivot`` (0.5),
      i.e. the method is no worse than train-optimal in most runs;
      ***bold italic***: a share ``< pivot`` (train-optimal wins in most runs); exactly
      ``pivot``: unmarked.

    Marks are decided on the printed values (rounded to the table's decimals), so that what
    the reader sees is consistent: two losses printed equal are both bold.
    """

    best_of: tuple[str, ...] = ("train_optimal", "score_driven", "rate_driven")
    shares: tuple[str, ...] = SHARE_COLUMNS
    pivot: float = 0.5


#: the marks of the paper's Tables 7 and 8
PAPER_MARKS = TableMarks()


def cell_marks(df: pd.DataFrame, marks: TableMarks | None, decimals: int = 3) -> pd.DataFrame:
    """Per cell of ``df``: ``'bold'``, ``'italic'``, ``'bolditalic'`` or ``''`` (see
    :class:`TableMarks`); columns of ``marks`` absent from ``df`` are ignored."""
    out = pd.DataFrame("", index=df.index, columns=df.columns)
    if marks is None:
        return out
    best = [c for c in marks.best_of if c in df.columns]
    if best:
        shown = df[best].astype(float).round(decimals)
        low = shown.min(axis=1)
        for col in best:
            out.loc[shown[col].eq(low) & shown[col].notna(), col] = "bold"
    for col in marks.shares:
        if col not in df.columns:
            continue
        shown = df[col].astype(float).round(decimals)
        out.loc[shown > marks.pivot, col] = "italic"
        out.loc[shown < marks.pivot, col] = "bolditalic"
    return out


def _format_value(value: object, decimals: int) -> str:
    if value is None or value is pd.NA or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        text = f"{value:.{decimals}f}"
        return text[1:] if text.startswith("-") and float(text) == 0 else text  # no "-0.000"
    return str(value)


_TEX_ESCAPES = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
}


def tex_escape(text: str) -> str:
    """Escape LaTeX's special characters in plain text."""
    return "".join(_TEX_ESCAPES.get(ch, ch) for ch in text)


def _md_cell(text: str, mark: str) -> str:
    if not text:
        return text
    return {"bold": f"**{text}**", "italic": f"*{text}*", "bolditalic": f"***{text}***"}.get(
        mark, text
    )


def _tex_cell(text: str, mark: str) -> str:
    text = tex_escape(text)
    if not text:
        return text
    return {
        "bold": rf"\textbf{{{text}}}",
        "italic": rf"\textit{{{text}}}",
        "bolditalic": rf"\textbf{{\textit{{{text}}}}}",
    }.get(mark, text)


def _marks_note(marks: TableMarks | None, columns: Sequence[str]) -> str:
    if marks is None:
        return ""
    parts = []
    best = [c for c in marks.best_of if c in columns]
    if best:
        parts.append(f"bold: lowest loss in the row among {', '.join(best)}")
    shares = [c for c in marks.shares if c in columns]
    if shares:
        parts.append(
            f"{', '.join(shares)}: italic when > {marks.pivot:g}, "
            f"bold italic when < {marks.pivot:g}"
        )
    return "; ".join(parts)


def to_markdown(
    df: pd.DataFrame, *, caption: str, marks: TableMarks | None = PAPER_MARKS, decimals: int = 3
) -> str:
    """A GitHub-flavoured Markdown table with the caption above and the marks explained below."""
    style = cell_marks(df, marks, decimals)
    numeric = [pd.api.types.is_numeric_dtype(df[c]) for c in df.columns]
    lines = [caption, "", "| " + " | ".join(map(str, df.columns)) + " |"]
    lines.append("|" + "|".join("---:" if n else ":---" for n in numeric) + "|")
    for i in range(len(df)):
        cells = [
            _md_cell(_format_value(df.iat[i, j], decimals), style.iat[i, j])
            for j in range(df.shape[1])
        ]
        lines.append("| " + " | ".join(cells) + " |")
    note = _marks_note(marks, list(df.columns))
    if note:
        lines += ["", f"Marks ({note})."]
    return "\n".join(lines) + "\n"


def to_latex(
    df: pd.DataFrame,
    *,
    caption: str,
    label: str | None = None,
    marks: TableMarks | None = PAPER_MARKS,
    decimals: int = 3,
) -> str:
    """A booktabs ``table`` environment; ``caption`` is plain text (escaped here)."""
    style = cell_marks(df, marks, decimals)
    numeric = [pd.api.types.is_numeric_dtype(df[c]) for c in df.columns]
    spec = "".join("r" if n else "l" for n in numeric)
    lines = [
        r"\begin{table}[htbp]",
        r"\centering",
        rf"\caption{{{tex_escape(caption)}}}",
    ]
    if label:
        lines.append(rf"\label{{{label}}}")
    lines += [
        rf"\begin{{tabular}}{{{spec}}}",
        r"\toprule",
        " & ".join(tex_escape(str(c)) for c in df.columns) + r" \\",
        r"\midrule",
    ]
    for i in range(len(df)):
        cells = [
            _tex_cell(_format_value(df.iat[i, j], decimals), style.iat[i, j])
            for j in range(df.shape[1])
        ]
        lines.append(" & ".join(cells) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}", r"\end{table}"]
    return "\n".join(lines) + "\n"


#: Table formats written by default (all there are); ``csv`` is always among them.
TABLE_FORMATS: tuple[str, ...] = ("csv", "md", "tex")


def check_table_formats(formats: Sequence[str]) -> tuple[str, ...]:
    """``formats`` as a tuple after checking they are distinct, among
    :data:`TABLE_FORMATS`, and include ``csv``."""
    formats = tuple(formats)
    if ("csv" not in formats or any(f not in TABLE_FORMATS for f in formats)
            or len(set(formats)) != len(formats)):
        raise UserError(
            f"table formats must be distinct values among {', '.join(TABLE_FORMATS)} and "
            f"include csv, got {list(formats)}"
        )
    return formats


def write_table(
    df: pd.DataFrame,
    path_stem: str | Path,
    *,
    caption: str,
    marks: TableMarks | None = PAPER_MARKS,
    decimals: int = 3,
    formats: Sequence[str] = TABLE_FORMATS,
) -> dict[str, Path]:
    """Write ``<stem>.csv`` (full precision, no marks) and, if in ``formats``, ``<stem>.md``
    and ``<stem>.tex`` (``decimals`` decimals, with the paper's marks), each atomically.
    ``formats`` must include ``csv`` (the comparison and the figures read it).

    The marks are those of the captions of the paper's Tables 7 and 8 (see
    :class:`TableMarks`): **bold** = the lowest loss of the row among the three realistic
    methods (train-optimal, score-driven, rate-driven; ties all bold); in the pairwise
    columns ``sc_vs_tr`` and ``rd_vs_tr``, *italic* = share > 0.5 (the method is better or
    equal to train-optimal in most runs) and ***bold italic*** = share < 0.5; decided on the
    printed (rounded) values. ``marks=None`` writes no marks. ``caption`` is plain text; the
    LaTeX label is ``tab:<stem name>``. Returns the paths by extension.
    """
    formats = check_table_formats(formats)
    stem = Path(path_stem)
    paths = {ext: stem.with_name(f"{stem.name}.{ext}") for ext in formats}
    write_text_atomic(paths["csv"], df.to_csv(index=False))
    if "md" in paths:
        text = to_markdown(df, caption=caption, marks=marks, decimals=decimals)
        write_text_atomic(paths["md"], text)
    if "tex" in paths:
        label = "tab:" + stem.name
        text = to_latex(df, caption=caption, label=label, marks=marks, decimals=decimals)
        write_text_atomic(paths["tex"], text)
    return paths


__all__ = [
    "BASELINES",
    "LOSS_COLUMNS",
    "METHOD_COLUMNS",
    "METRIC_COLUMNS",
    "PAPER_MARKS",
    "PUBLISHED_DIR",
    "PUBLISHED_FILES",
    "SHARE_COLUMNS",
    "TABLE7_COLUMNS",
    "TABLE8_COLUMNS",
    "TABLE_FORMATS",
    "TIE_TOLERANCE",
    "VALUE_COLUMNS",
    "TableMarks",
    "cell_marks",
    "check_table_formats",
    "extended_numbers",
    "extends_paper",
    "paper_datasets",
    "paper_models",
    "paper_part",
    "runs_at_gamma",
    "table5_numbers",
    "table7",
    "table8",
    "tex_escape",
    "to_latex",
    "to_markdown",
    "write_table",
]
