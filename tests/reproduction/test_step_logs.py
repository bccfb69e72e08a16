"""A step's log takes everything the step prints, the JVM's lines included, and the Weka
wrapper's import leaves the process's logging alone (each console line printed once)."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import textwrap

import pytest


def run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)],
                          capture_output=True, text=True, check=True)


def test_what_a_step_writes_past_python_goes_to_its_log_not_the_console(tmp_path):
    log = tmp_path / "step.log"
    proc = run(f"""
        import logging, os, subprocess, sys
        from threshold_choice.reproduction.steps import log_to
        with log_to({str(log)!r}):
            print("python's line")
            logging.getLogger("x").warning("a logged line")
            os.write(2, b"a line on descriptor 2\\n")  # as the JVM writes its warnings
            subprocess.run([sys.executable, "-c", "import sys; sys.stderr.write('a child\\\\n')"])
        print("after the step")
    """)
    text = log.read_text()
    for line in ("python's line", "a logged line", "a line on descriptor 2", "a child"):
        assert line in text
        assert line not in proc.stdout + proc.stderr
    assert proc.stdout == "after the step\n"  # the descriptors are given back


@pytest.mark.skipif(importlib.util.find_spec("weka") is None,
                    reason="python-weka-wrapper3 not installed: pip install .[weka]")
def test_importing_the_weka_wrapper_adds_no_root_logging_handler():
    proc = run("""
        import logging, sys
        from threshold_choice.models.jvm import _import_wrapper, resolved_weka_jar
        jar = resolved_weka_jar()
        print("weka" in sys.modules, jar.endswith("weka.jar"))
        _import_wrapper()
        print("weka.core.jvm" in sys.modules, len(logging.getLogger().handlers))
    """)
    # the bundled jar is found without importing the wrapper; importing it (the score jobs)
    # leaves the root logger without the handler its logging.basicConfig() adds
    assert proc.stdout.split() == ["False", "True", "True", "0"]


def test_a_warning_for_the_console_reaches_it_while_the_step_writes_to_its_log(tmp_path):
    """to_console writes past log_to's redirection of descriptors 1 and 2 (a fetch that
    failed must be seen at once, not only in the job's log)."""
    code = textwrap.dedent(f"""
        from threshold_choice.reproduction.steps._io import log_to, to_console
        with log_to({str(tmp_path / "job.log")!r}):
            print("to the log")
            to_console("warning: to the console")
    """)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert proc.stderr.splitlines() == ["warning: to the console"]
    log = (tmp_path / "job.log").read_text()
    assert "to the log" in log and "to the console" not in log
