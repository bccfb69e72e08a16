"""The tiny configuration's run, made once for the session: ``test_workflow.py`` checks its
outputs and re-plans from it, ``test_workflow_extensions.py`` compares its extended runs with
it (the paper run). The tests that use it run in one worker (``tests/conftest.py``)."""

from __future__ import annotations

import pytest

from tests.workflow.test_workflow import snakemake, write_config


@pytest.fixture(scope="session")
def tiny_run(tmp_path_factory):
    """``(results, config, completed process)`` of the tiny configuration (``TINY``: two
    datasets, Prior / NB / J48, two splits) run to the end; its tests only read it, or write
    beside it (other configurations, copies)."""
    tmp = tmp_path_factory.mktemp("tiny")
    config = write_config(tmp)
    first = snakemake(config_file=config)
    return tmp / "results", config, first
