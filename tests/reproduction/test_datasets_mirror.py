"""Preparation from the mirror of the paper's ARFF files (../shared/datasets).

Every registry entry must reproduce its registered content hash (computed from the paper's
files), shape and class counts, and the regenerated Table 5 must equal the published one.
A mirror folder that does not exist is named, with the setting that named it: the configured
one (``data.mirror``) is skipped with a warning, an explicit ``--mirror`` is an error.
"""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import threshold_choice.datasets.registry as dataset_registry
from tests.conftest import SHARED
from threshold_choice.cli import main
from threshold_choice.datasets import (
    ArffFormatError,
    ChecksumMismatchError,
    ContentHashMismatchError,
    SourceUnavailableError,
    load_prepared,
    load_registry,
    prepare_dataset,
)
from threshold_choice.datasets.arff import read_arff
from threshold_choice.datasets.fetch import Mirror, fetch_source
from threshold_choice.reproduction.table5 import compare_table5, read_published_table5, table5

MIRROR = SHARED / "datasets"


@pytest.fixture(scope="module")
def prepared_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("prepared")
    for name in load_registry():
        prepare_dataset(name, out_dir=out, cache_dir=out / "cache", mirror=MIRROR)
    return out


def _copy_mirror(tmp_path: Path, names: list[str]) -> Path:
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    lines = (MIRROR / "SHA256SUMS").read_text().splitlines()
    keep = [ln for ln in lines if ln.split()[-1] in names]
    (mirror / "SHA256SUMS").write_text("\n".join(keep) + "\n")
    for name in names:
        shutil.copy(MIRROR / name, mirror / name)
    return mirror


@pytest.mark.slow
def test_every_dataset_reproduces_its_registered_content_hash(prepared_dir):
    registry = load_registry()
    for name, spec in registry.items():
        ds = load_prepared(prepared_dir / f"{name}.parquet")
        assert ds.meta["content_sha256"] == spec.content_sha256, name
        assert ds.meta["source"]["kind"] == "mirror"


@pytest.mark.slow
def test_regenerated_table5_equals_the_published_one(prepared_dir):
    ours = table5(load_prepared(p) for p in sorted(prepared_dir.glob("*.parquet")))
    published = read_published_table5(SHARED / "reference" / "published_table5_datasets.csv")
    diff = compare_table5(ours, published)
    assert len(diff) == 26 * 4
    assert diff["match"].all(), diff[~diff["match"]]


@pytest.mark.slow
def test_class1_is_the_majority_and_labels_keep_header_order(prepared_dir):
    for path in sorted(prepared_dir.glob("*.parquet")):
        ds = load_prepared(path)
        assert ds.y.dtype == np.int8 and set(np.unique(ds.y)) <= {0, 1}
        assert ds.y.mean() >= 0.5, ds.name
        assert ds.label_of_class1 in ds.class_labels


def test_prepared_table_keeps_file_order_kinds_and_missing_values(prepared_dir):
    ds = load_prepared(prepared_dir / "credit-a.parquet")
    _, raw = read_arff(MIRROR / "credit-a.arff")
    assert list(ds.X.columns) == raw.names[:-1]
    assert list(ds.X["A4"].cat.categories) == ["u", "y", "l", "t"]
    assert str(ds.X["A2"].dtype) == "float64"
    # row i of the prepared table is ARFF data row i + 1, missing values kept
    np.testing.assert_array_equal(ds.X["A2"].to_numpy(), raw.column("A2").values)
    assert ds.X["A1"].isna().sum() == np.count_nonzero(raw.column("A1").values < 0) > 0
    assert ds.class_labels == ["+", "-"] and ds.label_of_class1 == "-"


def test_spect_class_is_the_first_attribute_and_ties_follow_the_authors_rule(prepared_dir):
    ds = load_prepared(prepared_dir / "spect_train.parquet")
    assert ds.meta["target"] == "OVERALL_DIAGNOSIS"
    assert list(ds.X.columns) == [f"F{i}" for i in range(1, 23)]
    # 40/40 tie: the first row's label ('1') does not exceed half, so the other one is class 1
    _, raw = read_arff(MIRROR / "spect_train.arff")
    assert raw.column("OVERALL_DIAGNOSIS").labels()[0] == "1"
    assert ds.label_of_class1 == "0"
    assert ds.y[0] == 0


def test_lung_cancer_target_is_attribute57_and_class_stays_a_feature(prepared_dir):
    ds = load_prepared(prepared_dir / "lung-cancer.parquet")
    assert ds.meta["target"] == "attribute57"
    assert "class" in ds.X.columns and ds.X.shape == (32, 56)


def test_wrong_mirror_checksum_names_dataset_expected_and_actual(tmp_path):
    mirror = _copy_mirror(tmp_path, ["vote.arff"])
    sums = mirror / "SHA256SUMS"
    expected = "0" * 64
    sums.write_text(f"{expected}  vote.arff\n")
    with pytest.raises(ChecksumMismatchError, match=rf"vote: .*expected SHA-256 {expected}, "
                       r"actual ee647a77"):
        prepare_dataset("vote", out_dir=tmp_path / "out", cache_dir=tmp_path, mirror=mirror)
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_altered_content_is_a_content_hash_mismatch_and_writes_nothing(tmp_path):
    mirror = _copy_mirror(tmp_path, ["haberman.arff"])
    path = mirror / "haberman.arff"
    path.write_text(path.read_text().replace("30,64,1,1", "31,64,1,1", 1))
    # a consistent SHA256SUMS: only the content hash can catch the change
    from threshold_choice.datasets.fetch import sha256_file

    (mirror / "SHA256SUMS").write_text(f"{sha256_file(path)}  haberman.arff\n")
    out = tmp_path / "out"
    expected = load_registry()["haberman"].content_sha256
    with pytest.raises(ContentHashMismatchError, match=rf"haberman: .*mirror source .*"
                       rf"content hash expected {expected}, actual [0-9a-f]{{64}}"):
        prepare_dataset("haberman", out_dir=out, cache_dir=tmp_path, mirror=mirror)
    assert not out.exists() or list(out.iterdir()) == []


def test_corrupt_mirror_arff_is_a_format_error_naming_file_and_line(tmp_path):
    mirror = _copy_mirror(tmp_path, ["haberman.arff"])
    path = mirror / "haberman.arff"
    path.write_text(path.read_text().replace("30,64,1,1", "30,64,1", 1))
    from threshold_choice.datasets.fetch import sha256_file

    (mirror / "SHA256SUMS").write_text(f"{sha256_file(path)}  haberman.arff\n")
    with pytest.raises(ArffFormatError, match=r"haberman.arff, line 51: 3 values where the "
                       r"header declares 4"):
        prepare_dataset("haberman", out_dir=tmp_path / "out", cache_dir=tmp_path, mirror=mirror)


def test_mirror_only_dataset_missing_from_mirror_is_unavailable(tmp_path, no_network):
    mirror = _copy_mirror(tmp_path, [])
    with pytest.raises(SourceUnavailableError, match=r"badges2: .*badges2.arff is missing from"):
        prepare_dataset("badges2", out_dir=tmp_path / "out", cache_dir=tmp_path, mirror=mirror)
    assert no_network == []


def test_missing_mirror_file_without_network_names_openml_source_and_fix(tmp_path, no_network):
    mirror = _copy_mirror(tmp_path, [])
    with pytest.raises(SourceUnavailableError,
                       match=r"haberman: cannot obtain OpenML dataset 43 .*--mirror DIR"):
        prepare_dataset("haberman", out_dir=tmp_path / "out", cache_dir=tmp_path / "cache",
                        mirror=mirror, retries=1)
    assert no_network, "the OpenML client should have tried the network"
    assert not (tmp_path / "out").exists()


def test_load_prepared_detects_a_tampered_parquet(prepared_dir, tmp_path):
    for suffix in (".parquet", ".json"):
        shutil.copy(prepared_dir / f"haberman{suffix}", tmp_path / f"haberman{suffix}")
    frame = pd.read_parquet(tmp_path / "haberman.parquet")
    frame.iloc[0, 0] += 1
    frame.to_parquet(tmp_path / "haberman.parquet", index=False)
    with pytest.raises(ContentHashMismatchError, match="Prepare the dataset again"):
        load_prepared(tmp_path / "haberman.parquet")


def test_a_preparation_job_from_the_mirror_loads_no_scipy_sklearn_or_http_client(tmp_path):
    """Each preparation job is a fresh process: the workflow step, run from the mirror,
    imports none of the heavy libraries that only fitting, evaluating or going online need."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from threshold_choice.datasets.registry import DEFAULT_REGISTRY\n"
        "from threshold_choice.reproduction.steps import step_prepare_and_split\n"
        f"out = {str(tmp_path)!r}\n"
        "step_prepare_and_split('credit-a', out + '/credit-a.parquet', out + '/credit-a.csv', "
        f"mirror={str(MIRROR)!r}, cache_dir=out + '/cache', registry=DEFAULT_REGISTRY, "
        "splitter='r', iterations=10)\n"
        "print(sorted(m for m in ('scipy', 'sklearn', 'requests', 'openml', 'matplotlib') "
        "if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]
    assert (tmp_path / "credit-a.parquet").is_file() and (tmp_path / "credit-a.csv").is_file()
    assert out.stdout.strip() == "[]"


# -- a mirror folder that does not exist, named with the setting that named it ------------------


@pytest.fixture
def offline(request) -> list[object]:
    """No network (connections fail); the attempts made, as recorded by ``no_network``."""
    return request.getfixturevalue("no_network")


@pytest.fixture
def config_naming_a_missing_mirror(tmp_path, monkeypatch) -> tuple[Path, Path]:
    """config/config.yaml of a repository whose data.mirror does not exist."""
    config = tmp_path / "repo" / "config" / "config.yaml"
    config.parent.mkdir(parents=True)
    config.write_text("data:\n  mirror: ../no-such-mirror\n")
    monkeypatch.setattr(dataset_registry, "DEFAULT_CONFIG", config)
    return config, (tmp_path / "no-such-mirror").resolve()  # relative to the repository


def test_offline_error_names_the_configured_mirror_setting_and_folder(
    tmp_path, capsys, offline, config_naming_a_missing_mirror
):
    config, folder = config_naming_a_missing_mirror
    code = main(["datasets", "prepare", "--name", "haberman", "--out", str(tmp_path / "out"),
                 "--cache", str(tmp_path / "cache"), "--retries", "1"])
    assert code == 2
    err = capsys.readouterr().err
    assert f"set data.mirror of {config} to a folder holding haberman.arff" in err
    assert f"({folder} does not exist)" in err
    assert "--mirror" not in err
    assert offline, "the public source should have been tried"


def test_a_configured_mirror_that_does_not_exist_is_a_warning_naming_it(
    tmp_path, caplog, offline, config_naming_a_missing_mirror
):
    config, folder = config_naming_a_missing_mirror
    with caplog.at_level(logging.WARNING, logger="threshold_choice"):
        main(["datasets", "prepare", "--name", "haberman", "--out", str(tmp_path / "out"),
              "--cache", str(tmp_path / "cache"), "--retries", "1"])
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any(f"the mirror folder {folder} (data.mirror of {config}) does not exist" in w
               for w in warnings), warnings


def test_an_explicit_mirror_that_does_not_exist_is_an_error_naming_the_option(
    tmp_path, capsys, offline
):
    missing = tmp_path / "nowhere"
    code = main(["datasets", "prepare", "--name", "haberman", "--out", str(tmp_path / "out"),
                 "--mirror", str(missing)])
    assert code == 2
    err = capsys.readouterr().err
    assert f"the mirror folder {missing} (--mirror) does not exist" in err
    assert offline == []  # refused before trying any download


@pytest.mark.parametrize("command", [
    ["datasets", "prepare", "--name", "haberman", "--out", "OUT"],
    ["splits", "--dataset", "haberman", "--iterations", "1"],
])
def test_an_explicit_mirror_that_is_a_file_is_called_a_file_not_missing(
    tmp_path, capsys, offline, command
):
    afile = tmp_path / "haberman.arff"  # one of the mirror's files given for its folder
    afile.write_text("")
    words = [str(tmp_path / "out") if w == "OUT" else w for w in command]
    assert main([*words, "--mirror", str(afile)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert (f"haberman: the mirror {afile} (--mirror) is a file, not a folder. Correct --mirror "
            "to name the folder holding the paper's ARFF files and their SHA256SUMS (not a "
            "file in it)") in err
    assert "does not exist" not in err
    assert offline == []  # refused before trying any download


def test_a_configured_mirror_that_is_a_file_is_a_warning_calling_it_a_file(
    tmp_path, caplog, offline, monkeypatch
):
    config = tmp_path / "repo" / "config" / "config.yaml"
    config.parent.mkdir(parents=True)
    config.write_text("data:\n  mirror: ../haberman.arff\n")
    monkeypatch.setattr(dataset_registry, "DEFAULT_CONFIG", config)
    afile = tmp_path / "haberman.arff"
    afile.write_text("")
    with caplog.at_level(logging.WARNING, logger="threshold_choice"):
        assert main(["datasets", "prepare", "--name", "haberman", "--out",
                     str(tmp_path / "out"), "--cache", str(tmp_path / "cache"),
                     "--retries", "1"]) == 2
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any(f"the mirror {afile} (data.mirror of {config}) is a file, not a folder" in w
               and "to name the folder holding the ARFF files" in w for w in warnings), warnings
    assert not any("does not exist" in w for w in warnings), warnings


def test_offline_error_with_an_explicit_mirror_lacking_the_file_names_the_option(
    tmp_path, offline
):
    from threshold_choice.datasets import load_registry

    empty = tmp_path / "mirror"
    empty.mkdir()
    with pytest.raises(SourceUnavailableError,
                       match=rf"pass --mirror DIR with a folder holding haberman.arff .*"
                             rf"\({empty} lacks it\)"):
        fetch_source(load_registry()["haberman"], cache_dir=tmp_path / "cache",
                     mirror=Mirror(empty), retries=1)
