"""The first page of the workflow's report: the headline of the comparison with the paper.

:func:`headline_rst` writes reStructuredText for Snakemake's global report description
(``workflow/report/workflow.rst`` includes it): how many cells of Tables 5, 7 and 8 are within
the tolerance of the published values, how many findings of Sect. 6 are reproduced, the
software the scores were made with, then Tables 7 and 8 at gamma = inf as HTML tables whose
differing cells are marked (the published value and the known cause on hover and below), every
differing cell with its cause, and the findings. Everything comes from the comparison's
outputs (:mod:`threshold_choice.reproduction.comparison`) and the score jobs' timings files.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping

import pandas as pd

from threshold_choice.reproduction.comparison import (
    differing_cells,
    finding_verdict,
    reproduced_count,
)
from threshold_choice.uncertainty import gamma_label, parse_gamma

__all__ = ["headline_rst", "software_table", "tables_page"]

#: the row key of Tables 7 and 8
KEYS = {"table7": "model", "table8": "dataset"}
TITLES = {"table5": "Table 5 (datasets)", "table7": "Table 7 (by model type, gamma = inf)",
          "table8": "Table 8 (by dataset, gamma = inf)"}
_STYLE = """<style>
table.tc { border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0 1.5em 0; }
table.tc th, table.tc td { border: 1px solid #ccc; padding: 2px 6px; text-align: right; }
table.tc th { background: #f2f2f2; }
table.tc td.key, table.tc th.key { text-align: left; }
table.tc td.differs { background: #ffd9b3; font-weight: bold; }
table.tc td.cause { text-align: left; min-width: 28em; }
p.headline { font-size: 1.15em; }
div.tcwrap { max-width: 100%; overflow-x: auto; }
/* Snakemake's landing page centres a narrow description (max-w-lg) beside the rule graph:
   give the tables the width, the graph goes below, and the top is not cut off */
div.prose.max-w-lg { max-width: 70rem; }
div.grow.flex.gap-3 { flex-wrap: wrap; }
div.grow.flex.items-center.h-screen { align-items: flex-start; }
</style>"""


def _raw(markup: str) -> str:
    """An rst ``raw:: html`` block holding ``markup``."""
    body = "\n".join(f"   {line}" if line else "" for line in markup.splitlines())
    return f".. raw:: html\n\n{body}\n"


def _e(value: object) -> str:
    return html.escape(str(value))


def _number(value: object, decimals: int = 3) -> str:
    if value is None or pd.isna(value):
        return ""
    return f"{value:.{decimals}f}" if isinstance(value, float) else str(value)


def software_table(software: Iterable[str]) -> pd.DataFrame:
    """The versions in the score jobs' ``software`` strings (``name version; ...``, one per
    timings file): one row per name with its versions, ``; ``-joined when they differ."""
    seen: dict[str, dict[str, None]] = {}
    for line in software:
        for part in str(line).split(";"):
            name, _, version = part.strip().partition(" ")
            if name:
                seen.setdefault(name, {})[version.strip()] = None
    return pd.DataFrame({"software": list(seen),
                         "version": ["; ".join(v) for v in seen.values()]})


def _table_html(frame: pd.DataFrame, key: str, diff: pd.DataFrame | None = None) -> str:
    """``frame`` as an HTML table; the cells that differ from the published value marked, with
    the published value and the cause in their tooltip (none without ``diff``)."""
    bad = diff[diff["status"] == "differs"] if diff is not None else pd.DataFrame(
        columns=["key", "column", "published", "cause"])
    marks = {(str(k).lower(), c): (p, cause) for k, c, p, cause in
             zip(bad["key"], bad["column"], bad["published"], bad["cause"], strict=True)}
    head = "".join(f'<th class="key">{_e(c)}</th>' if c in (key, "dataset", "model")
                   else f"<th>{_e(c)}</th>" for c in frame.columns)
    rows = []
    for record in frame.itertuples(index=False):
        cells = []
        row_key = str(getattr(record, key)).lower()
        for column, value in zip(frame.columns, record, strict=True):
            mark = marks.get((row_key, column))
            text = _e(_number(value))
            if column in (key, "dataset", "model"):
                cells.append(f'<td class="key">{text}</td>')
            elif mark:
                published, cause = mark
                tip = _e(f"published {_number(published)}; {cause or 'cause unknown'}")
                cells.append(f'<td class="differs" title="{tip}">{text}</td>')
            else:
                cells.append(f"<td>{text}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return _scroll(_rows_html(head, rows))


def _rows_html(head: str, rows: list[str]) -> str:
    """A table of one line per row: the page's raw blocks stay far below docutils'
    line-length limit (10 000 characters) whatever the number of rows."""
    return "\n".join(['<table class="tc">', f"<tr>{head}</tr>", *rows, "</table>"])


def _frame_html(frame: pd.DataFrame, left: Iterable[str] = (),
                decimals: Mapping[str, int] | None = None) -> str:
    """``frame`` as an HTML table: numbers to the right (``decimals[column]`` decimals, else
    the published tables' 3), text to the left (the ``left`` columns wide)."""
    left = set(left)
    decimals = dict(decimals or {})
    head = "".join(f'<th class="key">{_e(c)}</th>' if c in left
                   or not pd.api.types.is_numeric_dtype(frame[c]) else f"<th>{_e(c)}</th>"
                   for c in frame.columns)
    rows = []
    for record in frame.itertuples(index=False):
        cells = []
        for column, value in zip(frame.columns, record, strict=True):
            numeric = isinstance(value, (int, float)) and not isinstance(value, bool)
            css = ' class="cause"' if column in left else ("" if numeric else ' class="key"')
            text = (_number(value, decimals.get(column, 3)) if isinstance(value, float)
                    else str(value))
            cells.append(f"<td{css}>{_e(text)}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return _scroll(_rows_html(head, rows))


def _grouped(cells: pd.DataFrame, most: int = 8) -> pd.DataFrame:
    """``cells`` (:func:`differing_cells`) with each cause shared by more than ``most`` cells
    of a table (a partial run's coverage, the analogues of the scikit-learn configuration)
    folded into one row counting them."""
    parts = []
    for (table, cause), group in cells.groupby(["table", "cause"], sort=False):
        if len(group) <= most:
            parts.append(group)
            continue
        parts.append(pd.DataFrame({
            "table": [table], "key": [f"{len(group)} cells"], "column": [""],
            "ours": [float("nan")], "published": [float("nan")],
            "difference": [group["difference"].abs().max()],
            "cause": [f"{cause} (largest |difference| shown)"],
        }))
    return pd.concat(parts, ignore_index=True)


def _scroll(table: str) -> str:
    # the report draws its rule graph beside the description: wide tables scroll in their
    # column instead of running under it
    return f'<div class="tcwrap">{table}</div>'


def _heading(text: str, underline: str = "-") -> str:
    return f"{text}\n{underline * len(text)}\n"


def headline_rst(
    summary: pd.DataFrame,
    findings: pd.DataFrame,
    diffs: Mapping[str, pd.DataFrame],
    tables: Mapping[str, pd.DataFrame],
    software: Iterable[str],
    *,
    tolerance: float,
) -> str:
    """The report's first page (reStructuredText with raw HTML tables).

    ``summary``, ``findings`` and ``diffs`` (``table5``, ``table7``, ``table8``) are the
    comparison's outputs; ``tables`` our ``table7`` and ``table8`` at gamma = inf; ``software``
    the ``software`` strings of the score jobs' timings; ``tolerance`` the comparison's.
    """
    rows = summary.set_index("table")
    applies = bool(rows["published_applies"].all())
    note = next((str(n) for n in summary["note"] if isinstance(n, str) and n), "")
    counts = []
    for table, title in TITLES.items():
        if table not in rows.index:
            continue
        row = rows.loc[table]
        if not bool(row["published_applies"]):
            counts.append(f"{title}: not compared")
            continue
        compared = int(row["cells"]) - int(row["missing"])
        missing = f" ({int(row['missing'])} not in this run)" if int(row["missing"]) else ""
        counts.append(f"{title}: <b>{int(row['within_tolerance'])} of {compared}</b> cells"
                      f"{missing}")
    verdicts = [finding_verdict(r, e) for r, e in zip(findings["reproduced"],
                                                      findings["evidence"], strict=True)]
    checkable = sum(v in ("yes", "no") for v in verdicts)  # not "not checkable", nor n/a
    reproduced = reproduced_count(findings)
    versions = software_table(software)
    lines = [_heading("Reproduction of Ferri, Hernandez-Orallo and Flach (DMKD 2019)", "=")]
    verdict = (f"Cells equal to the published values (within {tolerance:g}, i.e. at the "
               "published precision): " + "; ".join(counts) + ". "
               + (f"Findings of Sect. 6 reproduced: <b>{reproduced} of {len(findings)}</b>"
                  f" ({checkable} checkable)." if checkable or reproduced else
                  f"Findings of Sect. 6: none of the {len(findings)} is checkable here "
                  "(not applicable under these conditions, or lacking the runs they need)."))
    if not applies:
        verdict = ("<b>The published numbers do not apply to this run</b>: " + _e(note)
                   + ". " + verdict)
    ran = ", ".join(f"{name} {version}" for name, version in
                    zip(versions["software"], versions["version"], strict=True)
                    if name != "weka.jar")
    markup = [_STYLE, f'<p class="headline">{verdict}</p>']
    if ran:
        markup.append(f"<p>Scores made with: {_e(ran)}.</p>")
    if note and applies:
        markup.append(f"<p>Note: {_e(note)}.</p>")
    lines.append(_raw("\n".join(markup)))
    cells = differing_cells(diffs)
    lines.append(_heading(f"Cells that differ from the published values: {len(cells)}"))
    if cells.empty:
        lines.append("None.\n" if applies else "Not compared (see above).\n")
    else:
        # ours and published at the published 3 decimals; the difference with one more, to
        # show it beyond the tolerance (half a unit of the third)
        lines.append(_raw(_frame_html(_grouped(cells), left=("cause",),
                                      decimals={"difference": 4})))
    for table, key in (("table7", "model"), ("table8", "dataset")):
        if table in tables:
            lines.append(_heading(TITLES[table]))
            lines.append("Cells that differ from the published value are marked; hover for "
                         "the published value and the cause.\n")
            lines.append(_raw(_table_html(tables[table], key, diffs[table])))
    lines.append(_heading("Findings of Sect. 6"))
    shown = findings.assign(reproduced=[finding_verdict(r) for r in findings["reproduced"]])
    columns = [c for c in ("id", "reproduced", "evidence", "cause") if c in shown.columns]
    lines.append(_raw(_frame_html(shown[columns].fillna(""), left=("evidence", "cause"))))
    if not versions.empty:
        lines.append(_heading("Software of the score jobs"))
        lines.append(_raw(_frame_html(versions, left=("version",))))
    return "\n".join(lines)


def tables_page(name: str, tables: Mapping[str, pd.DataFrame],
                diff: pd.DataFrame | None = None, *, note: str = "") -> str:
    """Table 7 or 8 (``name``: ``table7``, ``table8``) at every gamma as one HTML page, the
    gammas in numeric order (0, 1, 2, ..., inf), the numbers at the published 3 decimals.

    ``tables`` maps each gamma's label (``inf``, ``4``, ...) to its table (the CSV the
    workflow writes, at full precision); ``diff`` is the comparison's diff of ``name`` (at
    gamma = inf, the published tables' certainty): its differing cells are marked there;
    ``note`` (e.g. the conditions of a run under another belief) goes under the title.
    """
    title = {"table7": "Table 7 (by model type)", "table8": "Table 8 (by dataset)"}[name]
    order = sorted(tables, key=parse_gamma)
    parts = [f"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{_e(title)}</title>",
             _STYLE, "<style>body { font-family: sans-serif; margin: 1em; }</style>",
             "</head><body>", f"<h1>{_e(title)} at every certainty level</h1>",
             "<p>gamma = " + ", ".join(f'<a href="#gamma-{_e(g)}">{_e(g)}</a>' for g in order)
             + ". Numbers at the published precision (3 decimals); the CSV files keep full "
             "precision.</p>"]
    if note:
        parts.append(f"<p>{_e(note)}</p>")
    for label in order:
        inf = parse_gamma(label) == float("inf")
        parts.append(f'<h2 id="gamma-{_e(gamma_label(label))}">gamma = {_e(label)}</h2>')
        if inf and diff is not None:
            parts.append("<p>Cells that differ from the published value are marked; hover "
                         "for the published value and the cause.</p>")
        parts.append(_table_html(tables[label], KEYS[name], diff if inf else None))
    parts.append("</body></html>\n")
    return "\n".join(parts)
