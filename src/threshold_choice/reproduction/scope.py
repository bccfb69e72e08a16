"""The two scopes of a run: the paper's, and the extension.

* **The paper's scope** is what the published numbers speak of: the paper's 26 datasets,
  12 model types and 7 certainty levels (the published Tables 5 and 7 and
  :data:`~threshold_choice.uncertainty.PAPER_GAMMAS`;
  :func:`~threshold_choice.reproduction.tables.paper_part`). Tables 5, 7 and 8, Figs 5 and 6
  and the comparison with the paper are made on it whatever a configuration adds, so that
  adding a model, a dataset or a gamma leaves every one of them byte-identical.
* **The extension** is every run of the configuration: all its model types, datasets and
  gammas. It exists when the configuration adds at least one of them to the paper's
  (:class:`Extension`); then the workflow writes its own Tables 5, 7 and 8 (the added rows
  marked), Figs 5 and 6 and the paper's findings re-judged on it (:func:`rejudge_findings`)
  in ``<results>/extension/``. A configuration that adds nothing has no extension (no folder,
  no report section): an empty one would repeat the paper's tables.

Both scopes are evaluated under the configured conditions (the belief about ``c``, the
deployment prior, the loss): the runs have no other. Under conditions other than the paper's
the published numbers and the paper's findings do not apply to either scope: the comparison
says so cell by cell, and the findings are ``not applicable``, neither reproduced nor
refuted. The cost-curve figures (Figs 1, 3, 4, 7, 8, 9) show fixed model types of the paper
on fixed datasets: an extension does not change them and has none of its own.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from threshold_choice.reproduction.paper import BASELINES, PUBLISHED_DIR
from threshold_choice.uncertainty import PAPER_GAMMAS, gamma_label, parse_gamma

__all__ = [
    "REJUDGED_COLUMNS",
    "Extension",
    "extension_page",
    "mark_added",
    "paper_gammas",
    "rejudge_findings",
]

#: the columns of the re-judged findings (``extension/findings.csv``)
REJUDGED_COLUMNS: tuple[str, ...] = (
    "id", "finding", "paper", "extension", "status", "flipped_by", "evidence",
)


def paper_gammas(gammas: Sequence[float | str]) -> list[str]:
    """The labels of ``gammas`` (as configured, in their order) that are the paper's
    (:data:`~threshold_choice.uncertainty.PAPER_GAMMAS`): the gammas of the paper's tables."""
    return [gamma_label(g) for g in gammas if parse_gamma(g) in PAPER_GAMMAS]


@dataclass(frozen=True)
class Extension:
    """What a configuration adds to the paper's scope.

    ``models``, ``datasets``: the configured model types and datasets beyond the paper's (in
    the configuration's order); ``gammas``: the labels of the configured gammas beyond the
    paper's; ``conditions``: the configured operating conditions that differ from the
    paper's (:func:`~threshold_choice.reproduction.paper.conditions_note`, ``""`` if none).
    """

    models: tuple[str, ...] = ()
    datasets: tuple[str, ...] = ()
    gammas: tuple[str, ...] = ()
    conditions: str = ""
    #: the configured model types, datasets and gamma labels (all of them)
    configured: Mapping[str, tuple[str, ...]] = field(default_factory=dict, compare=False)

    @classmethod
    def of(cls, datasets: Sequence[str], models: Sequence[str], gammas: Sequence[float | str],
           evaluation: Mapping[str, object] | None = None,
           published_dir: Path | str = PUBLISHED_DIR) -> Extension:
        """The extension of a configuration running ``models`` on ``datasets`` at ``gammas``
        under ``evaluation`` (the config's ``evaluation`` mapping)."""
        from threshold_choice.reproduction.paper import conditions_note
        from threshold_choice.reproduction.tables import paper_datasets, paper_models

        published = Path(published_dir)
        known = {d.lower() for d in paper_datasets(published)}
        paper = set(paper_models(published))
        labels = [gamma_label(g) for g in gammas]
        return cls(
            models=tuple(m for m in models if m not in paper),
            datasets=tuple(d for d in datasets if d.lower() not in known),
            gammas=tuple(g for g in labels if g not in paper_gammas(labels)),
            conditions=conditions_note(evaluation or {}),
            configured={"models": tuple(models), "datasets": tuple(datasets),
                        "gammas": tuple(labels)},
        )

    @property
    def empty(self) -> bool:
        """Whether the configuration adds no model type, dataset or gamma (then it has no
        extension: its every run is in the paper's scope)."""
        return not (self.models or self.datasets or self.gammas)

    def added(self) -> pd.DataFrame:
        """One row per addition: ``kind`` (``model``, ``dataset``, ``gamma``, ``conditions``)
        and ``name``."""
        rows = [("model", m) for m in self.models] + [("dataset", d) for d in self.datasets]
        rows += [("gamma", g) for g in self.gammas]
        if self.conditions:
            rows.append(("conditions", self.conditions))
        return pd.DataFrame(rows, columns=["kind", "name"])

    def only(self, kind: str, name: str, runs: pd.DataFrame,
             published_dir: Path | str = PUBLISHED_DIR) -> pd.DataFrame:
        """The runs of the paper's scope and of one addition: ``runs`` whose model type,
        dataset and gamma are each the paper's or the added ``kind`` (``model``,
        ``dataset``, ``gamma``) ``name``."""
        from threshold_choice.reproduction.tables import paper_datasets, paper_models

        models = set(paper_models(Path(published_dir)))
        datasets = {d.lower() for d in paper_datasets(Path(published_dir))}
        gammas = set(PAPER_GAMMAS)
        if kind == "model":
            models.add(name)
        elif kind == "dataset":
            datasets.add(name.lower())
        else:
            gammas.add(parse_gamma(name))
        keep = (runs["model"].isin(models) & runs["dataset"].str.lower().isin(datasets)
                & runs["gamma"].astype(float).isin(gammas))
        return runs[keep.to_numpy()]


def mark_added(frame: pd.DataFrame, key: str, extension: Extension) -> pd.DataFrame:
    """``frame`` (an extension's Table 5, 7 or 8, rows keyed by ``key``: ``model`` or
    ``dataset``) with a last column ``added``: whether the row's model type or dataset is one
    the configuration adds to the paper's."""
    added = {a.lower() for a in (extension.models if key == "model" else extension.datasets)}
    return frame.assign(added=frame[key].astype(str).str.lower().isin(added))


# -- the paper's findings, re-judged on the extension ---------------------------------------------


def _verdicts(runs: pd.DataFrame, baselines: Sequence[str], tol: float) -> pd.DataFrame:
    from threshold_choice.reproduction.comparison import finding_verdict, qualitative_findings

    found = qualitative_findings(runs, baselines=baselines, tol=tol).set_index("id")
    found["verdict"] = [finding_verdict(r, e)
                        for r, e in zip(found["reproduced"], found["evidence"], strict=True)]
    return found


_WORDS = {"yes": "holds", "no": "fails", "not checkable": "not checkable"}


def _status(paper: str, extension: str) -> str:
    if extension == "not checkable":
        return "not checkable on the extension"
    if paper == "not checkable":
        return f"{_WORDS[extension]} on the extension (not checkable on the paper's scope)"
    if paper == extension:
        return f"still {_WORDS[extension]}"
    return f"flips: {_WORDS[paper]} on the paper's scope, {_WORDS[extension]} on the extension"


def rejudge_findings(runs: pd.DataFrame, extension: Extension, *,
                     baselines: Sequence[str] = BASELINES,
                     published_dir: Path | str = PUBLISHED_DIR,
                     tol: float = 1e-3) -> pd.DataFrame:
    """The paper's findings (:data:`~threshold_choice.reproduction.comparison.FINDINGS`)
    judged on the paper's scope of ``runs`` and again on all of them (the extension).

    Columns :data:`REJUDGED_COLUMNS`: ``paper`` and ``extension``, the verdicts (``yes``,
    ``no``, ``not checkable``, ``not applicable``); ``status`` (``still holds``, ``still
    fails``, ``flips: ...``, ...); ``flipped_by``, for a finding whose verdict changes: each
    added model type, dataset or gamma that flips it on its own (the paper's scope with that
    one addition, :meth:`Extension.only`, gives the extension's verdict; ``"the additions
    together"`` when none does alone); ``evidence``: the numbers behind the extension's
    verdict. Under conditions other than the
    paper's (``extension.conditions``) every finding is ``not applicable``: the claims are
    about the paper's conditions. ``tol`` as in
    :func:`~threshold_choice.reproduction.comparison.qualitative_findings`.
    """
    from threshold_choice.reproduction.comparison import (
        FINDINGS,
        NOT_APPLICABLE,
        findings_not_applicable,
    )
    from threshold_choice.reproduction.tables import paper_part

    if extension.conditions:
        why = f"conditions differ from the paper's ({extension.conditions})"
        out = findings_not_applicable(why)
        return pd.DataFrame({
            "id": out["id"], "finding": out["finding"], "paper": NOT_APPLICABLE,
            "extension": NOT_APPLICABLE, "status": NOT_APPLICABLE, "flipped_by": "",
            "evidence": out["evidence"],
        })[list(REJUDGED_COLUMNS)]
    paper = _verdicts(paper_part(runs, Path(published_dir)), baselines, tol)
    extended = _verdicts(runs, baselines, tol)
    added = [(k, n) for k, n in extension.added().itertuples(index=False) if k != "conditions"]
    one_added: dict[tuple[str, str], pd.DataFrame] = {}
    rows = []
    for fid, claim, _check in FINDINGS:
        before, after = paper.at[fid, "verdict"], extended.at[fid, "verdict"]
        flipped_by = ""
        if "not checkable" not in (before, after) and before != after:
            flips = []
            for item in added:
                if item not in one_added:
                    one_added[item] = _verdicts(
                        extension.only(*item, runs, published_dir), baselines, tol)
                if one_added[item].at[fid, "verdict"] == after:
                    flips.append(f"{item[0]} {item[1]}")
            flipped_by = "; ".join(flips) or "the additions together"
        rows.append((fid, claim, before, after, _status(before, after), flipped_by,
                     extended.at[fid, "evidence"]))
    return pd.DataFrame(rows, columns=list(REJUDGED_COLUMNS))


# -- the report's Extension page ------------------------------------------------------------------

_STYLE = """<style>
body { font-family: sans-serif; font-size: 14px; margin: 1em; }
table.ext { border-collapse: collapse; font-size: 0.9em; margin: 0.5em 0 1.5em 0; }
table.ext th, table.ext td { border: 1px solid #ccc; padding: 2px 6px; text-align: right; }
table.ext th { background: #f2f2f2; }
table.ext td.text { text-align: left; }
table.ext tr.added td { background: #e3f0ff; }
table.ext tr.added td.key::after { content: " (added)"; color: #1a4f8b; font-weight: bold; }
td.flips { background: #ffd9b3; font-weight: bold; }
</style>"""


def _cell(value: object, decimals: int) -> str:
    if value is None or (not isinstance(value, str) and pd.isna(value)):
        return ""
    if isinstance(value, float):
        return f"{value:.{decimals}f}"
    return html.escape(str(value))


def _table_html(frame: pd.DataFrame, key: str | None = None, *, decimals: int = 3,
                text: Sequence[str] = ()) -> str:
    """``frame`` as an HTML table, rows whose ``added`` column is true of class ``added``
    (the column itself left out), numbers at ``decimals`` decimals."""
    columns = [c for c in frame.columns if c != "added"]
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in columns)
    rows = []
    for _, row in frame.iterrows():
        cells = []
        for c in columns:
            classes = [k for k, on in (("key", c == key), ("text", c in text or c == key),
                                       ("flips", c == "status" and str(row[c]).startswith(
                                           "flips"))) if on]
            attr = f' class="{" ".join(classes)}"' if classes else ""
            cells.append(f"<td{attr}>{_cell(row[c], decimals)}</td>")
        added = ' class="added"' if bool(row.get("added", False)) else ""
        rows.append(f"<tr{added}>{''.join(cells)}</tr>")
    return (f'<table class="ext"><thead><tr>{head}</tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table>")


def _gamma_order(label: str) -> float:
    return -parse_gamma(label)  # inf first, as the paper orders certainty


def extension_page(extension: Extension, tables: Mapping[str, pd.DataFrame],
                   findings: pd.DataFrame, figures: Sequence[str] = ()) -> str:
    """The report's Extension page (HTML): what the configuration adds, the extension's
    tables (``tables``: name -> frame with an ``added`` column, :func:`mark_added`; names
    ``table5`` and ``table<7|8>_gamma-<g>``, shown in this order with gammas from inf down),
    the re-judged findings (:func:`rejudge_findings`) and the names of the extension's
    ``figures`` (shown in the report's Extension category beside this page)."""
    configured = extension.configured
    lines = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             "<title>Extension</title>", _STYLE, "</head><body>",
             "<h1>Extension: the study beyond the paper's scope</h1>",
             "<p>The paper's tables, figures and comparison are made on its scope only (its "
             "26 datasets, 12 model types and 7 gammas). This page is the extension: every "
             "run of the configuration "
             f"({len(configured.get('models', ()))} model types, "
             f"{len(configured.get('datasets', ()))} datasets, gammas "
             f"{html.escape(', '.join(configured.get('gammas', ())))}). Rows of what the "
             "configuration adds are marked <b>(added)</b>.</p>", "<h2>What was added</h2>"]
    items = [("Model types", extension.models), ("Datasets", extension.datasets),
             ("Gammas", extension.gammas)]
    lines.append("<ul>" + "".join(
        f"<li>{what}: {html.escape(', '.join(names)) if names else 'none'}</li>"
        for what, names in items) + "<li>Conditions (belief about c, prior, loss): "
        + (html.escape(extension.conditions) + " &mdash; the published numbers and the "
           "paper's findings do not apply" if extension.conditions else "the paper's")
        + "</li></ul>")
    lines.append("<h2>The paper's findings, re-judged on the extension</h2>")
    lines.append("<p>Each finding of Sect. 6 judged on the paper's scope and on the extension; "
                 "for a verdict that flips, the additions that flip it on their own (the "
                 "paper's scope with that one addition).</p>")
    lines.append(_table_html(findings.drop(columns=["finding"]), "id",
                             text=("paper", "extension", "status", "flipped_by", "evidence")))

    def order(name: str) -> tuple[int, float]:
        if name == "table5":
            return (0, 0.0)
        number, _, gamma = name.partition("_gamma-")
        return (int(number.removeprefix("table")), _gamma_order(gamma))

    for name in sorted(tables, key=order):
        frame = tables[name]
        if name == "table5":
            title, key = "Table 5 (datasets), extension", "dataset"
        else:
            number, _, gamma = name.partition("_gamma-")
            kind = "by model type" if number == "table7" else "by dataset, non-baseline models"
            title = f"Table {number[-1]} ({kind}), extension, gamma = {gamma}"
            key = "model" if number == "table7" else "dataset"
        lines.append(f"<h2>{html.escape(title)}</h2>")
        lines.append(_table_html(frame, key, decimals=2 if name == "table5" else 3))
    if figures:
        lines.append("<h2>Figures</h2><p>The extension's "
                     + html.escape(", ".join(figures))
                     + " are in the report's Extension category beside this page.</p>")
    lines.append("</body></html>")
    return "\n".join(lines) + "\n"
