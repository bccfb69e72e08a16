"""A mirror folder that does not exist is named, with the setting that named it: the
configured one (``data.mirror``) is skipped with a warning, an explicit ``--mirror`` is an
error."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

import threshold_choice.datasets.registry as dataset_registry
from tests.reproduction.test_datasets_mirror import no_network  # noqa: F401 (a fixture, used by offline)
from threshold_choice.cli import main
from threshold_choice.datasets.errors import SourceUnavailableError
from threshold_choice.datasets.fetch import Mirror, fetch_source


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
