"""The report of each configuration opens in a browser on its front page (the scikit-learn
configuration here; the default one, an extended run and another belief in
test_workflow_extensions.py, whose runs they share), and a run's console prints each line
once, without the JVM's warnings or lists of hundreds of files."""

from __future__ import annotations

import re

from tests.conftest import REPO
from tests.workflow.report_pages import build_report, check_front_page, needs_chromium
from tests.workflow.test_workflow import snakemake, write_config

#: the format of the records of a handler added by ``logging.basicConfig()``
BASIC_CONFIG_RECORD = re.compile(r"^(DEBUG|INFO|WARNING|ERROR|CRITICAL):[\w.]+:", re.M)


@needs_chromium
def test_the_scikit_learn_runs_report_shows_its_differing_cells_and_their_cause(
        sklearn_run, tmp_path):
    results, config = sklearn_run
    report = build_report(config, tmp_path, extra_configs=(REPO / "config" / "sklearn.yaml",))
    page = check_front_page(report, results)
    assert page.count('class="differs"') > 0
    assert "scikit-learn analogue" in page  # the cause, in the list and the marked cells
    assert "weka" not in page.split("Software of the score jobs")[1]


def test_a_dry_run_against_an_empty_cache_prints_each_line_once(tmp_path):
    # the start-up check looks for the bundled Weka's jar when the authors' is not cached:
    # importing the Weka wrapper there added a root handler, and each line came twice
    config = write_config(tmp_path, authors_weka=False)
    proc = snakemake("--dry-run", config_file=config)
    console = proc.stdout + proc.stderr
    assert "Job stats" in console
    assert not BASIC_CONFIG_RECORD.findall(console)


def test_a_first_runs_console_has_no_copies_java_warnings_or_lists_of_every_file(tiny_run):
    results, _, first = tiny_run
    console = first.stdout + first.stderr
    assert not BASIC_CONFIG_RECORD.findall(console)
    # the JVM's lines are in the score jobs' logs
    assert "Failed to load implementation" not in console
    logs = "".join(p.read_text() for p in (results / "logs" / "score").glob("*.log"))
    assert "ARPACK" in logs
    # the report's page is made from a few files, not from every score job's timings
    job = console[console.index("rule report_page:"):]
    reason = next(line for line in job.splitlines() if "reason:" in line)
    assert "timings" not in reason, reason
    assert reason.count(", ") < 20, reason  # its outputs and a dozen inputs
