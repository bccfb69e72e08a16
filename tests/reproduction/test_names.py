"""One name check for datasets and models (:mod:`threshold_choice.names`), shared by the
schemas, the registries and the command line: no ``.``/``..``, no reserved ``runs``, no
trailing newline."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.conftest import REPO
from threshold_choice.datasets.errors import RegistryError
from threshold_choice.datasets.registry import load_registry
from threshold_choice.errors import UserError
from threshold_choice.models.registry import load_model_registry
from threshold_choice.names import NAME_PATTERN, check_name

BAD = [".", "..", "runs", "RUNS", "NB\n", "a/b", "-x", "", "a b", ".hidden"]
GOOD = ["NB", "credit-a", "spect_test", "J48", "chess-KRVKP", "k.3", "2d", "runsX"]


@pytest.mark.parametrize("name", BAD)
def test_a_name_that_escapes_its_folder_collides_or_ends_in_a_newline_is_refused(name):
    with pytest.raises(UserError, match="choose another name"):
        check_name(name, "dataset")


@pytest.mark.parametrize("name", GOOD)
def test_the_names_of_the_registries_are_names(name):
    assert check_name(name, "model") == name


def _name_patterns(node):
    """Every ``pattern`` of a schema that checks names (a ``[A-Za-z0-9_.-]`` class)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "pattern" and "[A-Za-z0-9_.-]" in value:
                yield value
            else:
                yield from _name_patterns(value)
    elif isinstance(node, list):
        for value in node:
            yield from _name_patterns(value)


@pytest.mark.parametrize("schema", [
    "config/schemas/datasets.schema.yaml", "config/schemas/models.schema.yaml",
    "src/threshold_choice/data/schemas/datasets.schema.yaml",
    "src/threshold_choice/data/schemas/models.schema.yaml",
    "workflow/schemas/config.schema.yaml"])
def test_every_schema_checks_names_with_the_one_pattern(schema):
    patterns = list(_name_patterns(yaml.safe_load((REPO / schema).read_text())))
    assert patterns and set(patterns) == {NAME_PATTERN}


def test_the_shipped_registries_pass_the_name_check():
    for name in load_registry():
        check_name(name, "dataset")
    for name in load_model_registry():
        check_name(name, "model")


@pytest.mark.parametrize("name", ["..", "runs", "NB\n"])
def test_a_dataset_registry_entry_with_a_bad_name_is_refused(tmp_path, name):
    doc = yaml.safe_load((REPO / "config" / "datasets.yaml").read_text())
    doc["datasets"][name] = doc["datasets"].pop("haberman")
    path = tmp_path / "datasets.yaml"
    path.write_text(yaml.safe_dump(doc))
    with pytest.raises(RegistryError, match=re.escape(f"dataset name {name!r}")):
        load_registry(path)


@pytest.mark.parametrize("name", ["..", "runs", "NB\n"])
def test_a_model_registry_entry_with_a_bad_name_is_refused(tmp_path, name):
    path = tmp_path / "models.yaml"
    path.write_text(yaml.safe_dump({"format_version": 1, "models": [
        {"name": name, "estimator": "sklearn.naive_bayes:GaussianNB"}]}))
    with pytest.raises(UserError, match="breaks its schema at models/0/name"):
        load_model_registry(path)


@pytest.mark.parametrize("name", ["..", "NB\n"])
def test_the_command_line_refuses_a_bad_dataset_name_in_one_line(tmp_path, name):
    proc = subprocess.run([sys.executable, "-m", "threshold_choice.cli", "splits", "--dataset",
                           name, "--arff", str(Path(tmp_path / "x.arff"))],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert f"dataset name {name!r}" in proc.stderr and "Traceback" not in proc.stderr
