"""A model registry's estimator path must name a scikit-learn estimator class, checked
before anything named there is called or instantiated."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from threshold_choice.errors import UserError
from threshold_choice.models.registry import import_estimator, load_model_registry


def registry_with(tmp_path: Path, entry: dict) -> Path:
    path = tmp_path / "models.yaml"
    path.write_text(yaml.safe_dump({"format_version": 1, "models": [{"name": "Evil", **entry}]}))
    return path


def touch_command(marker: Path) -> list[str]:
    return [sys.executable, "-c", f"open({str(marker)!r}, 'w').close()"]


def test_a_class_that_is_not_an_estimator_is_refused_without_running_it(tmp_path):
    marker = tmp_path / "ran"
    params = {"args": touch_command(marker)}
    path = registry_with(tmp_path, {"estimator": "subprocess:Popen", "params": params})
    with pytest.raises(UserError, match=r"'subprocess:Popen' is not a scikit-learn estimator "
                                        r"class \(a subclass of sklearn.base.BaseEstimator"):
        load_model_registry(path)
    assert not marker.exists()
    # the side effect is visible when the class is called, so the assertion above can fail
    subprocess.Popen(**params).wait()
    assert marker.exists()


def test_a_function_is_refused_without_calling_it(tmp_path):
    marker = tmp_path / "ran"
    command = " ".join(f"'{a}'" for a in touch_command(marker))
    path = registry_with(tmp_path, {"estimator": "os:system", "params": {"command": command}})
    with pytest.raises(UserError, match=r"'os:system' is not a class"):
        load_model_registry(path)
    assert not marker.exists()


def test_an_estimator_base_without_fit_is_refused():
    with pytest.raises(UserError, match="is not a scikit-learn estimator class"):
        import_estimator("sklearn.base:BaseEstimator", model="Base")


def test_a_scikit_learn_classifier_class_is_accepted():
    from sklearn.ensemble import RandomForestClassifier

    assert import_estimator("sklearn.ensemble:RandomForestClassifier") is RandomForestClassifier
