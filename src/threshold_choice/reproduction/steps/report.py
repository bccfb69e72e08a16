"""The report steps: Table 5, Tables 7 and 8, the figures, the report's first page and
the comparison with the published numbers."""

from __future__ import annotations

import json
import logging
import math
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from threshold_choice.errors import UserError


def gamma_of_label(label: str) -> float:
    from threshold_choice.uncertainty import parse_gamma

    value = parse_gamma(label)
    return math.inf if math.isinf(value) else value


def step_table5(prepared: Sequence[Path | str], out_stem: Path | str, *,
                formats: Sequence[str] | None = None,
                published_dir: Path | str | None = None,
                extended_stem: Path | str | None = None,
                extension: Any = None) -> None:
    """Table 5 (instances, attributes, majority proportion) of the prepared datasets that are
    the paper's, in ``formats`` (default
    :data:`threshold_choice.reproduction.tables.TABLE_FORMATS`). With ``extended_stem``, the
    extension's Table 5 of all of them goes there, a dataset of one's own numbered after the
    published Table 5 of ``published_dir`` (in the order given) and marked in column
    ``added`` (``extension``: the :class:`~threshold_choice.reproduction.scope.Extension`)."""
    from threshold_choice.datasets import load_prepared
    from threshold_choice.reproduction.scope import mark_added
    from threshold_choice.reproduction.table5 import table5
    from threshold_choice.reproduction.tables import (
        PUBLISHED_DIR,
        TABLE_FORMATS,
        extended_numbers,
        paper_datasets,
        write_table,
    )

    formats = formats or TABLE_FORMATS
    published = Path(published_dir) if published_dir else PUBLISHED_DIR
    datasets = [load_prepared(Path(p)) for p in prepared]
    numbers = extended_numbers([d.name for d in datasets], published)
    paper = {d.lower() for d in paper_datasets(published)}
    frame = table5([d for d in datasets if d.name.lower() in paper], numbers)
    write_table(frame, out_stem, caption="Table 5: datasets", marks=None, formats=formats)
    if extended_stem is not None:
        write_table(mark_added(table5(datasets, numbers), "dataset", extension),
                    extended_stem, caption="Table 5, extension (every configured dataset; "
                    "added: beyond the paper's)", marks=None, formats=formats)


def _no_rows(keys: Sequence[str], methods: Sequence[str]) -> pd.DataFrame:
    """A table with the columns of Table 7 or 8 (``keys``, then the values of ``methods``) and
    no rows."""
    from threshold_choice.reproduction.paper import value_columns

    return pd.DataFrame(columns=[*keys, *value_columns(methods)])


def step_tables(
    runs_path: Path | str,
    gammas: Sequence[str],
    out_table7: Sequence[Path | str],
    out_table8: Sequence[Path | str],
    *,
    baselines: Sequence[str],
    published_dir: Path | str,
    formats: Sequence[str] | None = None,
    conditions: str = "",
    methods: Sequence[str] | None = None,
    datasets: Sequence[str] = (),
    extended_table7: Sequence[Path | str] = (),
    extended_table8: Sequence[Path | str] = (),
    extended_gammas: Sequence[str] = (),
    extension: Any = None,
) -> None:
    """Tables 7 (by model) and 8 (by dataset, without the baselines) at each of ``gammas``
    (labels such as ``inf``, ``16``), written to ``out_table7[i]`` / ``out_table8[i]`` (CSV; the
    other ``formats``, default :data:`~threshold_choice.reproduction.tables.TABLE_FORMATS`,
    beside them), with a loss column per method of ``methods`` (default the paper's four).

    These are the paper's tables: over its datasets, model types and gammas only
    (:func:`~threshold_choice.reproduction.tables.paper_part`; ``gammas`` are the paper's).
    When ``extended_table7`` and ``extended_table8`` are given (one per gamma of
    ``extended_gammas``, default ``gammas``), the extension's tables over every run go there,
    the datasets beyond the paper's numbered after its 26 in the order of ``datasets``, the
    rows of what ``extension`` (:class:`~threshold_choice.reproduction.scope.Extension`) adds
    marked in a last column ``added``.
    ``conditions``: operating conditions other than the paper's
    (:func:`threshold_choice.reproduction.paper.conditions_note`), said in every caption
    together with the fact that the published numbers do not apply."""
    from threshold_choice.reproduction.paper import PAPER_METHODS
    from threshold_choice.reproduction.scope import mark_added
    from threshold_choice.reproduction.tables import (
        TABLE_FORMATS,
        extended_numbers,
        paper_part,
        table7,
        table8,
        write_table,
    )

    n = len(gammas)
    if not n == len(out_table7) == len(out_table8):
        raise UserError("the tables step needs one Table 7 and one Table 8 output per gamma")
    extended_gammas = list(extended_gammas or gammas)
    if (len(extended_table7) not in (0, len(extended_gammas))
            or len(extended_table8) != len(extended_table7)):
        raise UserError("the tables step needs no extended tables or one of each per gamma")
    formats = formats or TABLE_FORMATS
    methods = tuple(methods or PAPER_METHODS)
    runs = pd.read_parquet(runs_path)
    published = Path(published_dir)
    # the paper's conditions go unsaid
    suffix = f" ({conditions}: the published numbers do not apply)" if conditions else ""
    tables: list[tuple[pd.DataFrame, Sequence[str], Sequence[Path | str],
                       Sequence[Path | str], str, dict[str, int] | None]] = [
        (paper_part(runs, published), gammas, out_table7, out_table8, "", None)]
    if extended_table7:
        tables.append((runs, extended_gammas, extended_table7, extended_table8,
                       ", extension (every configured model type, dataset and gamma; added: "
                       "beyond the paper's)", extended_numbers(datasets, published)))
    for frame, labels, paths7, paths8, kind, numbers in tables:
        def marked(table: pd.DataFrame, key: str, extended: bool = bool(kind)) -> pd.DataFrame:
            return mark_added(table, key, extension) if extended else table

        for gamma, path7, path8 in zip(labels, paths7, paths8, strict=True):
            g = gamma_of_label(gamma)
            empty = frame.empty  # a configuration without any of the paper's runs
            write_table(
                marked(_no_rows(["model"], methods) if empty else
                       table7(frame, g, published_dir=published, methods=methods), "model"),
                Path(path7).with_suffix(""),
                caption=f"Table 7{kind}: means by model type, gamma = {gamma}{suffix}",
                formats=formats,
            )
            write_table(
                marked(_no_rows(["number", "dataset"], methods) if empty else
                       table8(frame, g, tuple(baselines), published_dir=published,
                              methods=methods, numbers=numbers), "dataset"),
                Path(path8).with_suffix(""),
                caption=f"Table 8{kind}: means by dataset (non-baseline models), "
                f"gamma = {gamma}{suffix}",
                formats=formats,
            )


def _run_scores(path: Path | str, split: int = 1) -> Any:
    from threshold_choice.plotting._common import RunScores

    return RunScores.from_frame(pd.read_parquet(path), split=split)


#: the files of one figure, as a rule names them: each image format and the plotted data (.csv)
FigureFiles = Sequence[Path | str]


#: the extension's figures say so in their titles
EXTENSION_TITLE = "extension: all runs"


def step_figures_runs(
    runs_path: Path | str, fig5: FigureFiles, fig6: FigureFiles, *, methods: Sequence[str],
    baselines: Sequence[str], conditions: str = "", published_dir: Path | str | None = None,
    extended: bool = False,
) -> None:
    """Figs 5 (expected loss vs gamma per model type, without ``baselines``) and 6 (per-run
    scatter at gamma = inf and the lowest gamma of the runs, 0 in the paper), each written to
    its files ``fig5`` / ``fig6``: on the paper's scope of the runs
    (:func:`~threshold_choice.reproduction.tables.paper_part`, with the published tables of
    ``published_dir``), or on all of them with ``extended`` (the extension's, which their
    titles say); ``conditions``: operating conditions other than the paper's, for the titles
    (:func:`threshold_choice.reproduction.paper.conditions_note`)."""
    from threshold_choice.reproduction.figures import figure5, figure6
    from threshold_choice.reproduction.tables import PUBLISHED_DIR, paper_part

    runs = pd.read_parquet(runs_path)
    if extended:
        conditions = "; ".join(filter(None, (EXTENSION_TITLE, conditions)))
    else:
        runs = paper_part(runs, Path(published_dir) if published_dir else PUBLISHED_DIR)
    figure5(runs, fig5, methods=methods, exclude=tuple(baselines), conditions=conditions)
    lowest = float(runs["gamma"].min())
    figure6(runs, fig6, gammas=(math.inf, lowest) if lowest < math.inf else (math.inf,),
            conditions=conditions)


def figure_settings(settings: Mapping[str, Any] | None) -> Any:
    """The :class:`~threshold_choice.evaluation.LossSettings` of the config's ``evaluation``
    settings (``methods``, ``gammas`` and ``loss`` left out): those the runs are evaluated
    with, so that the areas in the cost-curve figures' legends are the runs' expected
    losses. The figures are of the accuracy loss, the paper's, whatever ``loss``."""
    from threshold_choice.evaluation import LossSettings

    return LossSettings.from_mapping({k: v for k, v in (settings or {}).items()
                                      if k not in ("methods", "gammas", "loss")})


def step_figures_toy(fig2: FigureFiles, fig8: FigureFiles, fig9: FigureFiles, *,
                     settings: Mapping[str, Any] | None = None) -> None:
    """Figs 2 (c_hat histograms), 8 and 9 (the Appendix B toy example), each written to its
    files; ``settings``: the config's ``evaluation`` (:func:`figure_settings`)."""
    from threshold_choice.reproduction.figures import figure2, figure8, figure9

    loss_settings = figure_settings(settings)
    figure2(fig2)
    figure8(fig8, settings=loss_settings)
    figure9(fig9, settings=loss_settings)


def step_figure1(source: Path | str, fig1: FigureFiles, *,
                 settings: Mapping[str, Any] | None = None,
                 entry: Mapping[str, Any] | None = None, seed: int = 0,
                 weka_jar: Path | str | None = None) -> None:
    """Fig. 1: cost curves of J48Unp on spambase, written to its files. With ``entry`` (the
    model's registry entry), ``source`` is the prepared spambase and the model is fitted on
    the authors' split of Fig. 1 (:data:`~threshold_choice.reproduction.paper.FIG1_PROTOCOL`:
    trained on 1%, tested on the other 99%); without, ``source`` is the model's scores and
    the first 50/50 split is drawn. ``settings``: the config's ``evaluation``
    (:func:`figure_settings`)."""
    from threshold_choice.plotting._common import RunScores
    from threshold_choice.reproduction.figures import figure1

    if entry is None:
        run = _run_scores(source)
        title = "Fig. 1: J48Unp on spambase, first 50/50 split (\u03b3 = \u221e)"
    else:
        from threshold_choice.datasets import load_prepared
        from threshold_choice.reproduction.paper import FIG1_PROTOCOL
        from threshold_choice.reproduction.steps.score import _fit_and_score, _spec_of_entry
        from threshold_choice.splits.core import RSplitter

        data = load_prepared(Path(source))
        split = RSplitter(train_fraction=FIG1_PROTOCOL["train_fraction"]).split(
            *data.class_column(), FIG1_PROTOCOL["seed"])
        spec = _spec_of_entry(json.dumps(entry, sort_keys=True))
        scores, timings = _fit_and_score([split], data, spec, seed=seed, weka_jar=weka_jar,
                                         frames={})
        logging.getLogger(__name__).info(
            "Fig. 1: %s trained on %d rows, tested on %d; %s", spec.name, len(split.train),
            len(split.test), timings["software"].iloc[0])
        run = RunScores.from_frame(scores, split=int(scores["split"].iloc[0]))
        title = "Fig. 1: J48Unp on 1% of spambase, tested on 99% (\u03b3 = \u221e)"
    figure1(run.test_y, run.test_s, run.train_y, run.train_s, fig1, title=title,
            settings=figure_settings(settings))


def step_credit_a_figures(
    scores_paths: Sequence[Path | str],
    figures: Mapping[str, FigureFiles],
    *,
    gammas: Sequence[float | str],
    settings: Mapping[str, Any] | None = None,
) -> None:
    """Figs 3, 4 and 7: credit-a cost curves (first split) of the models they show;
    ``figures`` maps each figure drawn (``fig3``, ``fig4``, ``fig7``) to its files. The scores
    files are named after their model types. ``settings``: the config's ``evaluation``
    (:func:`figure_settings`)."""
    from threshold_choice.reproduction.figures import credit_a_figure
    from threshold_choice.reproduction.paper import CREDIT_A_FIGURES, FIGURES

    scores = {Path(p).stem: _run_scores(p) for p in scores_paths}
    g = [gamma_of_label(str(x)) for x in gammas]
    loss_settings = figure_settings(settings)
    for name in figures:  # every figure checked before any is drawn
        if name not in CREDIT_A_FIGURES:
            raise UserError(f"the credit-a figures are {', '.join(CREDIT_A_FIGURES)}, "
                            f"not {name}")
        missing = [m for m in FIGURES[name].models if m not in scores]
        if missing:
            raise UserError(f"{name} needs the credit-a scores of {', '.join(missing)}; "
                            "add them to the inputs")
    for name, files in figures.items():
        credit_a_figure(name, scores, files, gammas=g, settings=loss_settings)


def step_report_page(
    comparison: Mapping[str, Path | str],
    tables: Mapping[str, Path | str],
    timings: Sequence[Path | str],
    out: Path | str,
    *,
    tolerance: float,
    gamma_tables: Mapping[str, Mapping[str, Path | str]] | None = None,
    pages: Mapping[str, Path | str] | None = None,
) -> None:
    """The report's first page (:func:`threshold_choice.reproduction.report.headline_rst`)
    from the comparison's outputs ``comparison`` (``summary``, ``findings``, ``table5``,
    ``table7``, ``table8`` diffs), our ``tables`` at gamma = inf (``table7``, ``table8``) and
    the score jobs' ``timings`` files (their ``software`` column), written to ``out``; and
    for each ``table7``/``table8`` of ``pages``, that table at every gamma of
    ``gamma_tables[name]`` (gamma label -> CSV) as an HTML page
    (:func:`~threshold_choice.reproduction.report.tables_page`)."""
    from threshold_choice.atomic import write_text_atomic
    from threshold_choice.reproduction.report import headline_rst, tables_page

    def read(path: Path | str) -> pd.DataFrame:
        return pd.read_csv(path, keep_default_na=False, na_values=[""])

    diffs = {name: read(comparison[name]).fillna({"cause": ""})
             for name in ("table5", "table7", "table8")}
    findings = read(comparison["findings"]).fillna({"cause": ""})
    software = {line for path in timings
                for line in pd.read_csv(path, usecols=["software"])["software"]}
    summary = read(comparison["summary"])
    text = headline_rst(summary, findings, diffs,
                        {name: read(path) for name, path in tables.items()},
                        sorted(software), tolerance=tolerance)
    write_text_atomic(out, text)
    note = next((str(n) for n in summary["note"] if isinstance(n, str) and n), "")
    for name, page in (pages or {}).items():
        frames = {label: read(path) for label, path in (gamma_tables or {})[name].items()}
        write_text_atomic(page, tables_page(name, frames, diffs[name], note=note))


def step_compare(
    tables: Mapping[str, Path | str],
    runs_path: Path | str,
    outputs: Mapping[str, Path | str],
    *,
    published_dir: Path | str,
    tolerance: float,
    baselines: Sequence[str],
) -> None:
    """Cell-by-cell comparison of ``tables`` (``table5``, ``table7``, ``table8`` at gamma = inf)
    with the published tables, and the Sect. 6 findings on ``runs_path`` (``baselines``: the
    configured baseline model types, left out where the findings speak of the non-baseline
    ones), written to ``outputs`` (``table5``, ``table7``, ``table8`` diffs, ``summary``,
    ``findings``); :func:`threshold_choice.reproduction.comparison.compare_files`."""
    from threshold_choice.reproduction.comparison import compare_files

    compare_files(tables, runs_path, outputs, published_dir, tolerance, baselines=baselines)


def step_extension(
    runs_path: Path | str,
    tables: Mapping[str, Path | str],
    outputs: Mapping[str, Path | str],
    *,
    extension: Any,
    baselines: Sequence[str],
    published_dir: Path | str,
    figures: Sequence[str] = (),
) -> None:
    """The extension's account (:mod:`threshold_choice.reproduction.scope`): what
    ``extension`` (an :class:`~threshold_choice.reproduction.scope.Extension`) adds, to
    ``outputs["added"]``; the paper's findings re-judged on the runs ``runs_path``
    (:func:`~threshold_choice.reproduction.scope.rejudge_findings`; ``baselines`` as
    configured), to ``outputs["findings"]``; and the report's Extension page, to
    ``outputs["page"]``, with the extension's ``tables`` (name, e.g. ``table7_gamma-inf``
    -> its CSV) and the names of its ``figures``."""
    from threshold_choice.atomic import write_text_atomic
    from threshold_choice.reproduction.scope import extension_page, rejudge_findings

    runs = pd.read_parquet(runs_path)
    findings = rejudge_findings(runs, extension, baselines=baselines,
                                published_dir=published_dir)
    frames = {name: pd.read_csv(path) for name, path in tables.items()}
    write_text_atomic(outputs["added"], extension.added().to_csv(index=False))
    write_text_atomic(outputs["findings"], findings.to_csv(index=False))
    write_text_atomic(outputs["page"], extension_page(extension, frames, findings, figures))


def step_stale_outputs(results: Path | str, current: Sequence[str], out: Path | str) -> None:
    """Remove the outputs of an earlier configuration from ``results``
    (:func:`~threshold_choice.reproduction.stale.remove_stale`: files named as the workflow's
    tables and figures that are not among ``current``, the current configuration's outputs)
    and the temporary files of writes that were killed, log each, and write ``current`` to
    ``out``, one path a line, relative to ``results`` (the same list wherever the folder
    is)."""
    from threshold_choice.atomic import write_text_atomic
    from threshold_choice.reproduction.stale import remove_leftover_temporaries, remove_stale

    log = logging.getLogger(__name__)
    removed = remove_stale(results, current)
    for path in removed:
        log.info("removed %s: an output of an earlier configuration", path)
    log.info("%d output(s) of an earlier configuration removed", len(removed))
    for path in remove_leftover_temporaries(results):
        log.info("removed %s: the temporary file of a write that was killed", path)
    write_text_atomic(out, "".join(f"{p}\n" for p in sorted(os.path.relpath(p, results)
                                                              for p in current)))
