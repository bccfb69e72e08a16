"""The results folder's layout: where the workflow writes what the comparison and the CLI read.

One home for the paths more than one part of the project names (the rules, the comparison,
``threshold-choice compare``, the report); each function takes the results folder and
returns a path as a string, the form Snakemake rules take. Logs and benchmarks are named by
their rules alone.

::

    <results>/data/<dataset>.parquet                prepared dataset (and .json: metadata)
    <results>/splits/<dataset>.csv                  its train/test splits
    <results>/scores/<dataset>/<model>.parquet      scores of every split (and .timings.csv)
    <results>/runs/<dataset>.parquet                one dataset's runs (and .timings.csv)
    <results>/runs.parquet                          one row per run, method and gamma
    <results>/tables/table5.csv                     Table 5
    <results>/tables/table<7|8>_gamma-<g>.csv       Tables 7 and 8 at each of the paper's gammas
    <results>/figures/<fig1..fig9>.<ext>            the figures and their data (csv)
    <results>/comparison/<name>.csv                 the comparison with the paper
    <results>/comparison/report.rst                 the report's first page (``report_page``)
    <results>/comparison/report_table<7|8>.html     Tables 7 and 8 at every gamma, rendered
    <results>/extension/tables/...                  Tables 5, 7, 8 over every run and gamma (what
                                                    a configuration adds to the paper's scope)
    <results>/extension/figures/<fig5|fig6>.<ext>   Figs 5 and 6 over every run
    <results>/extension/<name>.<csv|html>           what was added, the findings re-judged, the
                                                    report's Extension page
    <results>/outputs.txt                           the run's tables and figures (rule
                                                    ``stale_outputs``)

The paper's scope (``tables/``, ``figures/``, ``comparison/``) and the extension never mix
(:mod:`threshold_choice.reproduction.scope`).
    <results>/significance/<scope>/<name>.<ext>     the statistical comparisons of a scope
                                                    (``paper``, ``extended``): tables and
                                                    critical-difference diagrams

Gamma labels in file names (``<g>``) are :func:`~threshold_choice.uncertainty.gamma_label`:
``inf`` or a plain number, matching :data:`GAMMA_LABEL`.
"""

from __future__ import annotations

import os

#: a gamma's label in file names (``inf``, ``4``, ``0.5``, ``1e+30``): the workflow's
#: wildcard constraint and the configuration check read it
GAMMA_LABEL = r"inf|[0-9]+(\.[0-9]+)?(e[+-][0-9]+)?"
#: the longest gamma label the configuration accepts (file names stay far below the usual
#: 255-byte limit)
GAMMA_LABEL_MAX = 64
#: the tables the comparison compares with the published ones, by name
COMPARED_TABLES: tuple[str, ...] = ("table5", "table7", "table8")
#: the comparison's CSV outputs (``<name>.csv`` in ``comparison/``)
COMPARISON_FILES: tuple[str, ...] = (
    "summary", "findings", "table5_diff", "table7_diff", "table8_diff",
)

#: the statistical comparisons' scopes: the paper's (its datasets, model types, methods and
#: gammas) and the extension's (everything configured)
SIGNIFICANCE_SCOPES: tuple[str, ...] = ("paper", "extended")
#: the statistical comparisons' tables (``<name>.csv`` and the other table formats)
SIGNIFICANCE_TABLES: tuple[str, ...] = ("verdict", "friedman", "ranks", "pairs")


def _join(results: str | os.PathLike[str], *parts: str) -> str:
    return os.path.join(os.fspath(results), *parts)


def data(results: str | os.PathLike[str], dataset: str, ext: str = "parquet") -> str:
    """The prepared dataset ``dataset`` (``ext="json"``: its metadata)."""
    return _join(results, "data", f"{dataset}.{ext}")


def splits(results: str | os.PathLike[str], dataset: str) -> str:
    """The train/test splits of ``dataset``."""
    return _join(results, "splits", f"{dataset}.csv")


def scores(results: str | os.PathLike[str], dataset: str, model: str,
           ext: str = "parquet") -> str:
    """The scores of ``model`` on ``dataset``, every split (``ext="timings.csv"``: the
    time each split's fit and scoring took)."""
    return _join(results, "scores", dataset, f"{model}.{ext}")


def runs(results: str | os.PathLike[str]) -> str:
    """The runs table: one row per dataset, model, split, method and gamma."""
    return _join(results, "runs.parquet")


def dataset_runs(results: str | os.PathLike[str], dataset: str, ext: str = "parquet") -> str:
    """The runs of one dataset, before they are collected (``ext="timings.csv"``: the
    evaluation's times)."""
    return _join(results, "runs", f"{dataset}.{ext}")


#: the folder of the extension's outputs
EXTENSION = "extension"
#: the extension's files besides its tables and figures (``<name>.<ext>`` in ``extension/``):
#: what was added, the paper's findings re-judged on the extension, the report's page
EXTENSION_FILES: dict[str, str] = {"added": "csv", "findings": "csv", "page": "html"}


def table(results: str | os.PathLike[str], number: int, gamma: str = "inf", *,
          extended: bool = False) -> str:
    """Table ``number``'s CSV: Table 5, or Table 7 or 8 at the gamma labelled ``gamma``
    (``extended``: the extension's, over every run)."""
    folder = (EXTENSION, "tables") if extended else ("tables",)
    name = "table5.csv" if number == 5 else f"table{number}_gamma-{gamma}.csv"
    return _join(results, *folder, name)


def table_gamma(path: str | os.PathLike[str]) -> str:
    """The gamma label of a Table 7 or 8 CSV named by :func:`table`."""
    name = os.path.basename(os.fspath(path))
    if not (name.startswith(("table7_gamma-", "table8_gamma-")) and name.endswith(".csv")):
        raise ValueError(f"{name} is not a Table 7 or 8 CSV")
    return name[len("table7_gamma-"):-len(".csv")]


def compared_table(results: str | os.PathLike[str], name: str) -> str:
    """The CSV of ``name`` (one of :data:`COMPARED_TABLES`) the comparison reads: Table 5,
    Tables 7 and 8 at gamma = inf (the published ones' certainty)."""
    return table(results, int(name.removeprefix("table")))


def comparison(results: str | os.PathLike[str], name: str) -> str:
    """The comparison's output ``name`` (one of :data:`COMPARISON_FILES`)."""
    return _join(results, "comparison", f"{name}.csv")


def authors_runs_comparison(results: str | os.PathLike[str]) -> str:
    """Every mean of the run against the authors' per-run results (``comparison.
    authors_results``)."""
    return _join(results, "comparison", "authors_runs.csv")


def report_page(results: str | os.PathLike[str]) -> str:
    """The first page of the Snakemake report (the comparison, explained)."""
    return _join(results, "comparison", "report.rst")


def report_table(results: str | os.PathLike[str], name: str) -> str:
    """``name`` (``table7``, ``table8``) at every gamma as the report's HTML page."""
    return _join(results, "comparison", f"report_{name}.html")


def comparison_folder(results: str | os.PathLike[str]) -> str:
    """The folder of the comparison's outputs."""
    return _join(results, "comparison")


def figure(results: str | os.PathLike[str], stem: str, ext: str, *,
           extended: bool = False) -> str:
    """Figure ``stem`` (``fig1`` ... ``fig9``) in format ``ext`` (``csv``: its data);
    ``extended``: the extension's (Figs 5 and 6 over every run)."""
    folder = (EXTENSION, "figures") if extended else ("figures",)
    return _join(results, *folder, f"{stem}.{ext}")


def extension(results: str | os.PathLike[str], name: str) -> str:
    """The extension's file ``name`` (one of :data:`EXTENSION_FILES`)."""
    return _join(results, EXTENSION, f"{name}.{EXTENSION_FILES[name]}")


def outputs_list(results: str | os.PathLike[str]) -> str:
    """The list of the run's tables and figures, written after the others (rule
    ``stale_outputs``: files of an earlier configuration are removed then)."""
    return _join(results, "outputs.txt")


def significance(results: str | os.PathLike[str], scope: str, name: str,
                 ext: str = "csv") -> str:
    """A file of the statistical comparisons of ``scope`` (one of
    :data:`SIGNIFICANCE_SCOPES`): a table of :data:`SIGNIFICANCE_TABLES` (``verdict`` also
    as an ``html`` page, for the report), or a critical-difference figure (``cd_methods``,
    ``cd_models_<method>``) in format ``ext``."""
    return _join(results, "significance", scope, f"{name}.{ext}")


def significance_figure(method: str | None = None) -> str:
    """The name of a critical-difference figure: of the methods (``method`` None), or of
    the model types under ``method``."""
    return "cd_methods" if method is None else f"cd_models_{method}"


__all__ = [
    "COMPARED_TABLES",
    "COMPARISON_FILES",
    "EXTENSION",
    "EXTENSION_FILES",
    "GAMMA_LABEL",
    "GAMMA_LABEL_MAX",
    "SIGNIFICANCE_SCOPES",
    "SIGNIFICANCE_TABLES",
    "authors_runs_comparison",
    "compared_table",
    "comparison",
    "comparison_folder",
    "data",
    "dataset_runs",
    "extension",
    "figure",
    "outputs_list",
    "report_page",
    "report_table",
    "runs",
    "scores",
    "significance",
    "significance_figure",
    "splits",
    "table",
    "table_gamma",
]
