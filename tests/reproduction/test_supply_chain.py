"""The supply chain checked at every use: the authors' Weka jar against its pinned SHA-256 each
time a score job takes it, a failed fetch tried again on the next run, an override of the jar
announced (console, log, provenance)."""

from __future__ import annotations

import json
import os

import pytest

from tests.paper.test_weka_authors import JAR_BYTES, _deb, _fake_apt, _spec
from threshold_choice.errors import UserError
from threshold_choice.models.weka_debian import authors_weka_jar
from threshold_choice.reproduction import provenance
from threshold_choice.reproduction.steps import (
    retry_authors_weka,
    step_authors_weka,
    weka_jar_of,
    weka_jar_override,
)


def _choice(tmp_path, jar) -> object:
    out = tmp_path / "authors.json"
    out.write_text(json.dumps({"jar": str(jar), "package": "p", "reason": None}))
    return out


def test_a_cached_jar_replaced_after_the_first_run_is_detected_and_fetched_again(
        tmp_path, monkeypatch, capfd):
    deb = _deb()
    apt = _fake_apt(tmp_path / "bin", deb, monkeypatch)
    jar = authors_weka_jar(tmp_path / "cache", _spec(deb))
    choice = _choice(tmp_path, jar)
    assert weka_jar_of(choice, _spec(deb)) == str(jar)  # intact: used as it is
    assert (apt / "calls").read_text().count("download") == 1
    jar.write_bytes(b"PK another jar")
    assert weka_jar_of(choice, _spec(deb)) == str(jar)
    assert jar.read_bytes() == JAR_BYTES
    assert (apt / "calls").read_text().count("download") == 2
    assert "replaced since it was fetched" in capfd.readouterr().err


def test_a_replaced_jar_that_cannot_be_fetched_again_fails_saying_how_to_recover(
        tmp_path, monkeypatch):
    deb = _deb()
    apt = _fake_apt(tmp_path / "bin", deb, monkeypatch)
    jar = authors_weka_jar(tmp_path / "cache", _spec(deb))
    choice = _choice(tmp_path, jar)
    jar.write_bytes(b"PK another jar")
    (apt / "fixture.deb").unlink()  # the package can no longer be had
    with pytest.raises(UserError, match=rf"not the pinned .* remove {choice} and run again"):
        weka_jar_of(choice, _spec(deb))


def test_a_failed_fetch_is_tried_again_on_the_next_run_with_its_warning(
        tmp_path, monkeypatch, capfd):
    apt = _fake_apt(tmp_path / "bin", None, monkeypatch)
    choice = tmp_path / "authors.json"
    step_authors_weka(tmp_path / "cache", choice)
    tries = (apt / "calls").read_text().count("download")
    first = choice.stat().st_mtime_ns
    capfd.readouterr()
    os.utime(choice, ns=(first - 10**9, first - 10**9))
    retry_authors_weka(tmp_path / "cache", choice)
    assert (apt / "calls").read_text().count("download") == 2 * tries  # tried again
    assert "cannot be had" in capfd.readouterr().err  # and warned again
    # failed again for the same reason: the choice is kept as it was (nothing is redone)
    assert choice.stat().st_mtime_ns == first - 10**9


def test_a_fetch_that_succeeds_on_a_later_run_replaces_the_bundled_choice(
        tmp_path, monkeypatch):
    apt = _fake_apt(tmp_path / "bin", None, monkeypatch)
    choice = tmp_path / "authors.json"
    step_authors_weka(tmp_path / "cache", choice)
    assert json.loads(choice.read_text())["jar"] is None
    deb = _deb()
    (apt / "fixture.deb").write_bytes(deb)
    retry_authors_weka(tmp_path / "cache", choice, _spec(deb))
    assert json.loads(choice.read_text())["jar"] == str(tmp_path / "cache" / "weka-3.6.14.jar")


def test_an_unreadable_choice_is_removed_so_that_its_rule_makes_it_again(tmp_path):
    choice = tmp_path / "authors.json"
    choice.write_text("{damaged")
    retry_authors_weka(tmp_path / "cache", choice)
    assert not choice.exists()


def test_the_jar_override_is_announced_on_the_console(monkeypatch, capfd):
    monkeypatch.delenv("THRESHOLD_CHOICE_WEKA_JAR", raising=False)
    assert weka_jar_override() is None
    assert capfd.readouterr().err == ""
    monkeypatch.setenv("THRESHOLD_CHOICE_WEKA_JAR", "/x/weka.jar")
    assert weka_jar_override() == "/x/weka.jar"
    assert "THRESHOLD_CHOICE_WEKA_JAR=/x/weka.jar is set" in capfd.readouterr().err


def test_the_jar_override_is_named_in_the_provenance(tmp_path, monkeypatch):
    from threshold_choice.models import jvm

    jar = tmp_path / "weka.jar"
    jar.write_bytes(JAR_BYTES)
    monkeypatch.setattr(jvm, "weka_jar_in_use", lambda: str(jar))
    monkeypatch.setattr(jvm, "weka_version", lambda: "3.9.1")
    monkeypatch.setattr(jvm, "java_version", lambda: "17")
    monkeypatch.delenv("THRESHOLD_CHOICE_WEKA_JAR", raising=False)
    assert "from THRESHOLD" not in provenance.software_versions(weka=True)["weka.jar"]
    monkeypatch.setenv("THRESHOLD_CHOICE_WEKA_JAR", str(jar))
    versions = provenance.software_versions(weka=True)
    assert versions["weka.jar"].endswith("from THRESHOLD_CHOICE_WEKA_JAR")


@pytest.mark.parametrize("estimator", [
    "threshold_choice.models.weka.WekaClassifier",
    "sklearn.linear_model:LogisticRegression",
    "numpy.something",
    "yaml.SafeLoader",
])
def test_an_estimators_distribution_is_the_one_installed_for_its_module(estimator):
    # the shortcut for the recorded packages names what a scan of every distribution names
    from importlib import metadata

    top = estimator.split(":", 1)[0].split(".", 1)[0]
    scanned = metadata.packages_distributions()[top][0]
    assert provenance.estimator_distribution(estimator) == (scanned, metadata.version(scanned))


def test_an_estimator_of_no_installed_distribution_has_none():
    assert provenance.estimator_distribution("no_such_module_here.Model") is None
