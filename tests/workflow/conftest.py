"""The tiny configuration's runs, made once for the session: ``test_workflow.py`` checks the
default one's outputs and re-plans from it, ``test_workflow_extensions.py`` compares its
extended runs with it (the paper run), ``test_report_pages.py`` opens its report; the
scikit-learn configuration's run serves ``test_workflow.py`` and ``test_report_pages.py``. The
tests that use one run in one worker (``tests/conftest.py``)."""

from __future__ import annotations

import pytest

from tests.conftest import REPO
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


@pytest.fixture(scope="session")
def sklearn_run(tmp_path_factory):
    """``(results, config)`` of the tiny configuration under config/sklearn.yaml (the
    scikit-learn analogues of the learners, no JVM) run to the end."""
    tmp = tmp_path_factory.mktemp("sklearn")
    config = write_config(tmp)
    snakemake(config_file=config, extra_configs=(REPO / "config" / "sklearn.yaml",))
    return tmp / "results", config
