"""The package reads its YAML files with PyYAML's C loader when there is one: it must build
the same data as the pure-Python loader on every YAML file the repository ships."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from threshold_choice import _yaml
from threshold_choice._repository import CONFIG_DIR
from threshold_choice.errors import UserError

SHIPPED = sorted(CONFIG_DIR.rglob("*.yaml"))


def test_the_shipped_yaml_files_are_found():
    names = {p.name for p in SHIPPED}
    assert {"config.yaml", "datasets.yaml", "models.yaml", "models_weka.yaml"} <= names


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(CONFIG_DIR)))
def test_the_package_loader_reads_each_shipped_file_as_pyyamls_python_loader(path):
    text = path.read_text(encoding="utf-8")
    assert _yaml.safe_load(text) == yaml.load(text, Loader=yaml.SafeLoader)


def test_the_c_loader_is_used_when_pyyaml_has_it():
    if not yaml.__with_libyaml__:
        pytest.skip("this PyYAML has no libyaml (the pure-Python loader is used)")
    assert _yaml._LOADER is yaml.CSafeLoader


def test_read_yaml_names_the_file_and_the_fix(tmp_path: Path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("a: [1, 2\n", encoding="utf-8")
    with pytest.raises(UserError, match=r"bad.yaml is not valid YAML: .*Fix the file\.$") as err:
        _yaml.read_yaml(bad, "model registry", shipped="config/models.yaml", error=UserError)
    assert "\n" not in str(err.value)  # one line, though PyYAML's own text has several
    with pytest.raises(UserError, match=r"missing.yaml not found.*ships config/models.yaml"):
        _yaml.read_yaml(tmp_path / "missing.yaml", "model registry",
                        shipped="config/models.yaml", error=UserError)


def test_read_yaml_calls_a_folder_a_folder_not_missing(tmp_path: Path):
    with pytest.raises(UserError) as err:
        _yaml.read_yaml(tmp_path, "model registry", shipped="config/models.yaml",
                        error=UserError)
    assert str(err.value) == (f"model registry {tmp_path} is a folder, not a model registry "
                              "file (YAML). Give the path of the file itself (e.g. "
                              "config/models.yaml).")
