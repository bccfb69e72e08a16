"""A dataset of one's own: a local CSV or ARFF file, pinned by its content hash, no Table 5
number needed (docs/datasets.md)."""

from __future__ import annotations

import re
import subprocess
import sys

import numpy as np
import pytest
import yaml

from tests.conftest import REPO
from threshold_choice.datasets import load_prepared, load_registry, prepare_dataset
from threshold_choice.datasets.errors import DatasetError
from threshold_choice.datasets.fetch import read_local_csv
from threshold_choice.datasets.table import content_hash

CSV = """\
age, colour ,outcome
30,red,yes
41,?,no
,blue,yes
29,red,yes
"""
# the same table as ARFF: categories declared in sorted order, as the CSV reader makes them
ARFF = """\
@relation mine
@attribute age numeric
@attribute colour {blue,red}
@attribute outcome {no,yes}
@data
30,red,yes
41,?,no
?,blue,yes
29,red,yes
"""


def _registry(tmp_path, entry: dict, name: str = "mine"):
    path = tmp_path / "datasets.yaml"
    doc = {"format_version": 1, "hash_format": "threshold-choice-table-v1",
           "datasets": {name: entry}}
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    return path


def _entry(path, expected="pending", **more) -> dict:
    return {"source": {"kind": "local", "path": str(path)}, "target": "outcome",
            "label_of_class1": "yes", "expected": expected, **more}


def _prepare(tmp_path, registry_path, name="mine"):
    return prepare_dataset(name, out_dir=tmp_path / "out", cache_dir=tmp_path / "cache",
                           mirror=None, registry=load_registry(registry_path))


def _pinned(message: str) -> dict:
    """The ``expected`` mapping a pending entry's error prints."""
    found = re.search(r"is expected: (\{.*\}) with label_of_class1", message)
    assert found, message
    return yaml.safe_load(found.group(1))


def test_a_csv_is_read_as_the_equivalent_arff(tmp_path):
    from threshold_choice.datasets.arff import read_arff

    (tmp_path / "mine.csv").write_text(CSV)
    (tmp_path / "mine.arff").write_text(ARFF)
    table = read_local_csv(tmp_path / "mine.csv", "outcome")
    assert [(c.name, c.kind) for c in table.columns] == [
        ("age", "numeric"), ("colour", "nominal"), ("outcome", "nominal")]
    assert table.column("colour").categories == ("blue", "red")
    assert np.isnan(table.column("age").values[2])
    assert content_hash(table) == content_hash(read_arff(tmp_path / "mine.arff")[1])


def test_a_numeric_target_becomes_nominal_labels(tmp_path):
    (tmp_path / "y.csv").write_text("x,y\n1.5,0\n2.5,1\n3.5,1\n")
    target = read_local_csv(tmp_path / "y.csv", "y").column("y")
    assert target.kind == "nominal" and target.categories == ("0", "1")


def test_a_header_naming_a_column_twice_is_refused(tmp_path):
    (tmp_path / "twice.csv").write_text("x,outcome,x\n1,yes,2\n")
    with pytest.raises(DatasetError, match="names x twice"):
        read_local_csv(tmp_path / "twice.csv", "outcome")


def test_a_pending_entry_prints_the_values_to_pin_and_they_pin_it(tmp_path):
    (tmp_path / "mine.csv").write_text(CSV)
    registry = _registry(tmp_path, _entry(tmp_path / "mine.csv"))
    with pytest.raises(DatasetError) as info:
        _prepare(tmp_path, registry)
    message = str(info.value)
    assert "\n" not in message and "label_of_class1: 'yes'" in message
    expected = _pinned(message)
    assert expected["n_rows"] == 4 and expected["class_counts"] == {"no": 1, "yes": 3}
    assert not (tmp_path / "out").exists()  # nothing written
    # pasting the printed values into the entry makes it prepare
    registry = _registry(tmp_path, _entry(tmp_path / "mine.csv", expected))
    prepared = load_prepared(_prepare(tmp_path, registry))
    assert prepared.meta["table5"]["number"] is None
    assert list(prepared.y) == [1, 0, 1, 1]  # class 1 = yes, the majority


def test_a_changed_file_is_refused_with_its_actual_hash(tmp_path):
    (tmp_path / "mine.csv").write_text(CSV)
    with pytest.raises(DatasetError) as info:
        _prepare(tmp_path, _registry(tmp_path, _entry(tmp_path / "mine.csv")))
    expected = _pinned(str(info.value))
    (tmp_path / "mine.csv").write_text(CSV.replace("29,red", "28,red"))
    with pytest.raises(DatasetError, match=r"content hash expected [0-9a-f]{64}, actual "
                                           r"[0-9a-f]{64}"):
        _prepare(tmp_path, _registry(tmp_path, _entry(tmp_path / "mine.csv", expected)))


def test_a_hash_yaml_reads_as_a_number_is_refused_saying_so(tmp_path):
    registry = tmp_path / "datasets.yaml"
    registry.write_text(
        "format_version: 1\nhash_format: threshold-choice-table-v1\ndatasets:\n"
        "  mine:\n    source: {kind: local, path: mine.csv}\n    target: outcome\n"
        "    label_of_class1: 'yes'\n    expected: {n_rows: 4, n_columns: 3, class_counts: "
        "{'no': 1, 'yes': 3}, content_sha256: " + "0" * 64 + "}\n")
    with pytest.raises(DatasetError, match=r"content_sha256 is read by YAML as the number 0, "
                                           r"not a hash: quote it"):
        load_registry(registry)


def test_a_missing_local_file_is_named(tmp_path):
    registry = _registry(tmp_path, _entry(tmp_path / "absent.csv"))
    with pytest.raises(DatasetError, match=r"the local file .*absent\.csv \(source\.path\) does "
                                           r"not exist"):
        _prepare(tmp_path, registry)


def test_only_a_local_dataset_may_leave_out_its_table5_number(tmp_path):
    entry = _entry(tmp_path / "mine.csv")
    entry["source"] = {"kind": "mirror_only", "note": "the mirror only"}
    with pytest.raises(DatasetError, match="breaks its schema"):
        load_registry(_registry(tmp_path, entry))


def test_the_docs_command_prints_the_values_in_one_line(tmp_path):
    (tmp_path / "mine.csv").write_text(CSV)
    registry = _registry(tmp_path, _entry(tmp_path / "mine.csv"), name="my-data")
    proc = subprocess.run(
        [sys.executable, "-m", "threshold_choice.cli", "datasets", "prepare", "--name", "my-data",
         "--out", str(tmp_path / "out"), "--registry", str(registry)],
        capture_output=True, text=True, cwd=REPO)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "its registry entry says expected: pending" in lines[0]
    assert _pinned(lines[0])["n_columns"] == 3


def test_a_missing_local_file_stops_the_workflow_at_start_up(tmp_path):
    from threshold_choice.errors import UserError
    from threshold_choice.reproduction.config import check_config

    config = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    registry = _registry(tmp_path, _entry(tmp_path / "absent.csv"))
    config.update(datasets=["mine"], results=str(tmp_path / "results"),
                  cache=str(tmp_path / "cache"))
    config["data"]["registry"] = str(registry)
    with pytest.raises(UserError, match=r"the local file of mine \(.*absent\.csv\) does not "
                                        r"exist; correct its source\.path"):
        check_config(config, root=REPO)
    (tmp_path / "absent.csv").write_text(CSV)
    check_config(config, root=REPO)
