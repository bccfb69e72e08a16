"""The significance step: the statistical comparisons of one scope's runs
(:mod:`threshold_choice.reproduction.significance`), their tables and critical-difference
figures."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from threshold_choice.errors import UserError

#: what each table holds, for its caption
_CAPTIONS = {
    "verdict": "the paper's conclusions (its win counts sc_vs_tr and rd_vs_tr per model type, "
               "Table 8's counts of datasets) tested over the datasets",
    "friedman": "Friedman's test (Iman-Davenport) and the Nemenyi critical difference of each "
                "comparison",
    "ranks": "mean ranks (1 = lowest loss) and mean losses over the datasets",
    "pairs": "pairwise tests over the datasets: sign, Wilcoxon, Nemenyi and Bayesian "
             "signed-rank (P(left), P(rope), P(right))",
}
_P_COLUMNS = ("p_value", "p_value_f", "sign_p", "wilcoxon_p", "nemenyi_p")


def _shown(frame: pd.DataFrame) -> pd.DataFrame:
    """``frame`` as the Markdown and LaTeX tables print it: gammas as labels, p-values with
    two significant digits (a p-value of 1e-8 printed as 0.000 would say nothing)."""
    from threshold_choice.uncertainty import format_gamma

    out = frame.copy()
    if "gamma" in out.columns:
        out["gamma"] = [format_gamma(float(g)) for g in out["gamma"]]
    for col in _P_COLUMNS:
        if col in out.columns:
            out[col] = ["" if pd.isna(p) else (f"{p:.2g}" if p >= 1e-3 else f"{p:.1e}")
                        for p in out[col]]
    return out


def write_study_table(frame: pd.DataFrame, csv: Path | str, *, caption: str,
                      formats: Sequence[str]) -> None:
    """Write a table of the study: ``csv`` at full precision and, beside it, the other
    ``formats`` (``md``, ``tex``) as printed (:func:`_shown`, 3 decimals)."""
    from threshold_choice.atomic import write_text_atomic
    from threshold_choice.reproduction.steps._io import write_csv
    from threshold_choice.reproduction.tables import check_table_formats, to_latex, to_markdown

    formats = check_table_formats(formats)
    csv = Path(csv)
    write_csv(frame, csv)
    shown = _shown(frame)
    if "md" in formats:
        write_text_atomic(csv.with_suffix(".md"), to_markdown(shown, caption=caption,
                                                              marks=None))
    if "tex" in formats:
        write_text_atomic(csv.with_suffix(".tex"),
                          to_latex(shown, caption=caption, label=f"tab:{csv.stem}",
                                   marks=None))


def verdict_html(verdict: pd.DataFrame, summary: Sequence[str], *, title: str) -> str:
    """The verdict as a page of its own, for the report: the summary, one paragraph per
    gamma, then the table as printed (:func:`_shown`, 3 decimals)."""
    import html

    shown = _shown(verdict)
    for col in shown.columns:
        if pd.api.types.is_float_dtype(shown[col]):
            shown[col] = [f"{v:.3f}" for v in shown[col]]
    table = shown.to_html(index=False, border=0, classes="verdict", escape=True)
    paragraphs = "\n".join(f"<p>{html.escape(line)}</p>" for line in summary)
    return (
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>"
        f"{html.escape(title)}</title>\n<style>body {{font-family: sans-serif; "
        "font-size: 14px; margin: 1em;} table.verdict {border-collapse: collapse;} "
        "table.verdict td, table.verdict th {border: 1px solid #ccc; padding: 2px 6px; "
        "font-size: 12px;} table.verdict td {text-align: right;}</style></head>\n"
        f"<body><h2>{html.escape(title)}</h2>\n{paragraphs}\n{table}\n</body></html>\n")


def step_significance(
    runs_path: Path | str,
    tables: Mapping[str, Path | str],
    figures: Mapping[str, Sequence[Path | str]],
    *,
    verdict_page: Path | str | None = None,
    scope: str,
    methods: Sequence[str],
    gammas: Sequence[str | float],
    baselines: Sequence[str],
    model_methods: Sequence[str] | None = None,
    published_dir: Path | str | None = None,
    settings: Mapping[str, Any] | None = None,
    formats: Sequence[str] = ("csv",),
    conditions: str = "",
) -> None:
    """The statistical comparisons of the runs of ``scope`` (``paper`` or ``extended``:
    :func:`~threshold_choice.reproduction.significance.scope_of`) at each of ``gammas``, for
    the evaluated ``methods``, the model types under ``model_methods`` (default ``methods``)
    compared too: the tables ``tables`` (name -> CSV path; names
    :data:`~threshold_choice.reproduction.layout.SIGNIFICANCE_TABLES`; the other table
    ``formats`` beside each) and the critical-difference figures ``figures`` (``cd_methods``,
    ``cd_models_<method>`` -> their files). ``settings``: the configuration's
    ``significance`` (:class:`~threshold_choice.reproduction.significance.Settings`);
    ``conditions``: operating conditions other than the paper's, said in every caption;
    ``verdict_page``: where to write the verdict as an HTML page too (:func:`verdict_html`)."""
    from threshold_choice.reproduction import layout
    from threshold_choice.reproduction.significance import (
        POOLED,
        Settings,
        scope_of,
        study,
        verdict_summary,
    )
    from threshold_choice.reproduction.significance_figures import cd_figure
    from threshold_choice.uncertainty import parse_gamma

    unknown = set(tables) - set(layout.SIGNIFICANCE_TABLES)
    if unknown:
        raise UserError(f"the significance step writes the tables "
                        f"{', '.join(layout.SIGNIFICANCE_TABLES)}, not {', '.join(unknown)}")
    known = {layout.significance_figure(m) for m in [None, *(model_methods or methods)]}
    if set(figures) - known:
        raise UserError(f"the significance step draws {', '.join(sorted(known))}, not "
                        f"{', '.join(sorted(set(figures) - known))}")
    config = Settings(**(settings or {}))
    runs, methods, gammas_in, models = scope_of(
        pd.read_parquet(runs_path), scope, methods=methods,
        gammas=[parse_gamma(g) for g in gammas], published_dir=published_dir)
    compared = [m for m in (model_methods or methods) if m in methods]
    result = study(runs, gammas=gammas_in, methods=methods, models=models,
                   baselines=baselines, model_methods=compared, settings=config)
    where = "the paper's scope" if scope == "paper" else "the extended scope"
    suffix = f" ({conditions})" if conditions else ""
    for name, path in tables.items():
        caption = f"{name.capitalize()} ({where}{suffix}): {_CAPTIONS[name]}"
        if name == "verdict":
            caption += (f"; ROPE +/-{config.rope:g}, alpha = {config.alpha:g}. "
                        + " ".join(verdict_summary(result.verdict, config)))
        write_study_table(getattr(result, name), path, caption=caption, formats=formats)
    if verdict_page is not None:
        from threshold_choice.atomic import write_text_atomic

        write_text_atomic(verdict_page, verdict_html(
            result.verdict, verdict_summary(result.verdict, config),
            title=f"Are the paper's conclusions significant? ({where}{suffix}; ROPE "
                  f"+/-{config.rope:g}, alpha = {config.alpha:g})"))
    for name, files in figures.items():
        method = None if name == "cd_methods" else name.removeprefix("cd_models_")
        title = (f"Threshold choice methods over the {POOLED} ({where}{suffix})"
                 if method is None else f"Model types under {method} ({where}{suffix})")
        cd_figure(result.ranks, result.friedman, files,
                  comparison="methods" if method is None else "models",
                  under=POOLED if method is None else method, title=title,
                  alpha=config.alpha)


__all__ = ["step_significance", "verdict_html", "write_study_table"]
