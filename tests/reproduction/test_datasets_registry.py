"""Registry: schema-valid, one entry per paper dataset, clear errors for bad files and names."""

from __future__ import annotations

import csv

import pytest
import yaml

from tests.conftest import SHARED
from threshold_choice.datasets import load_registry
from threshold_choice.datasets.errors import RegistryError, UnknownDatasetError
from threshold_choice.datasets.registry import DEFAULT_REGISTRY, get_spec

REFERENCE = SHARED / "reference"


def test_registry_has_exactly_the_table8_datasets():
    with (REFERENCE / "published_table8_by_dataset.csv").open() as fh:
        table8 = {row["dataset"] for row in csv.DictReader(fh)}
    assert set(load_registry()) == table8


def test_registry_numbers_and_names_follow_table5():
    with (REFERENCE / "published_table5_datasets.csv").open() as fh:
        table5 = {row["dataset"].lower(): int(row["number"]) for row in csv.DictReader(fh)}
    registry = load_registry()
    assert {name.lower(): spec.table5_number for name, spec in registry.items()} == table5


def test_every_remote_source_has_a_pinned_id_or_url():
    for spec in load_registry().values():
        kind = spec.source.kind
        assert (kind == "openml") == (spec.source.openml_id is not None), spec.name
        assert (kind == "uci") == (spec.source.url is not None), spec.name


def test_unknown_dataset_name_lists_the_known_ones():
    with pytest.raises(UnknownDatasetError, match=r"unknown dataset 'iris'.*breast-w"):
        get_spec("iris", load_registry())


def test_schema_violation_names_the_entry(tmp_path):
    doc = yaml.safe_load(DEFAULT_REGISTRY.read_text())
    doc["datasets"]["vote"]["source"]["id"] = "fifty-six"
    bad = tmp_path / "datasets.yaml"
    bad.write_text(yaml.safe_dump(doc))
    with pytest.raises(RegistryError, match="datasets/vote/source"):
        load_registry(bad)


def test_missing_registry_file_says_how_to_fix(tmp_path):
    with pytest.raises(RegistryError, match=r"not found\. Pass an explicit path"):
        load_registry(tmp_path / "absent.yaml")


def test_an_unknown_dataset_in_the_wrong_case_is_pointed_at_the_listed_name():
    registry = load_registry()
    with pytest.raises(UnknownDatasetError) as caught:
        get_spec("chess-krvkp", registry)
    message = str(caught.value)
    assert "Did you mean 'chess-KRVKP'?" in message
    assert "chess-KRVKP" in message.split("Known datasets: ")[1]  # the list names it so
    assert "lowercase" not in message  # the list is not all lowercase
