"""Build a run's report as docs/comparison.md says (``snakemake --report ...zip``, unzip) and
open it in Debian's headless chromium: what the reader sees of its first page, the checks that
every configuration's front page passes, and Tables 7 and 8's pages."""

from __future__ import annotations

import re
import shutil
import subprocess
import zipfile
from pathlib import Path

import pandas as pd
import pytest

from tests.workflow.test_workflow import snakemake

needs_chromium = pytest.mark.skipif(
    shutil.which("chromium") is None,
    reason="Debian's chromium is not installed (.ci/run installs it)")


def rendered_text(dom: str) -> str:
    """The page's markup without its scripts (where the report keeps its data as strings)."""
    return re.sub(r"<script\b.*?</script>", "", dom, flags=re.S)


def chromium_dom(page: Path) -> str:
    return subprocess.run(
        ["chromium", "--headless", "--no-sandbox", "--disable-gpu",
         "--virtual-time-budget=10000", "--dump-dom", page.as_uri()],
        capture_output=True, text=True, timeout=180, check=True,
    ).stdout


def build_report(config: Path, out: Path, *, cwd: Path | None = None,
                 extra_configs: tuple[Path, ...] = ()) -> Path:
    """The zipped report of the run of ``config``, unzipped in ``out``: its report.html."""
    archive = out / "report.zip"
    kwargs = {} if cwd is None else {"cwd": cwd}
    snakemake("--report", str(archive), config_file=config, extra_configs=extra_configs,
              **kwargs)
    with zipfile.ZipFile(archive) as zipped:
        zipped.extractall(out)
    return out / "report" / "report.html"


def check_front_page(report: Path, results: Path) -> str:
    """The report's first page as chromium renders it: its headline counts this run's
    comparison, Tables 7 and 8 render as tables (marked where a cell differs from a published
    value that applies), and no docutils system message shows; returns the page."""
    page = rendered_text(chromium_dom(report))
    assert "Reproduction of Ferri, Hernandez-Orallo and Flach" in page
    assert "System Message" not in page and "system-message" not in page
    summary = pd.read_csv(results / "comparison" / "summary.csv").set_index("table")
    tables = page.count('<table class="tc">')
    assert tables >= 4, tables  # differing cells, Tables 7 and 8, findings (and software)
    for title in ("Table 7 (by model type, gamma = inf)", "Table 8 (by dataset, gamma = inf)"):
        assert title in page
    if bool(summary["published_applies"].all()):
        within, cells, missing = summary.loc["table7", ["within_tolerance", "cells", "missing"]]
        assert f"<b>{within} of {cells - missing}</b>" in page  # the headline's count
        diffs = pd.read_csv(results / "comparison" / "table7_diff.csv")
        assert page.count('class="differs"') >= int((diffs["status"] == "differs").sum())
    else:
        assert "The published numbers do not apply to this run" in page
        assert 'class="differs"' not in page
    return page


def check_table_pages(report: Path, gammas: list[str]) -> None:
    """Tables 7 and 8 at every gamma: pages beside the report, the gammas in numeric order."""
    html = report.read_text()
    for name in ("table7", "table8"):
        linked = set(re.findall(rf"data/raw/[0-9a-f]+/report_{name}\.html", html))
        assert len(linked) == 1, linked
        page = rendered_text(chromium_dom(report.parent / linked.pop()))
        shown = re.findall(r'<h2 id="gamma-([^"]+)"', page)
        assert shown == gammas, (name, shown)
        assert '<table class="tc">' in page
