"""The authors' Weka: Debian's weka 3.6.14 jar, fetched with apt-get and checked against pinned
hashes (:mod:`threshold_choice.models.weka_debian`), run in its own class loader beside the
bundled Weka 3.9.6 (:mod:`threshold_choice.models.weka_legacy`)."""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import stat
import tarfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from threshold_choice.errors import UserError
from threshold_choice.models.weka_debian import (
    AUTHORS_WEKA,
    DebianJar,
    authors_weka_jar,
    jar_from_deb,
)
from threshold_choice.reproduction.steps import step_authors_weka, weka_jar_of

JAR_BYTES = b"PK\x05\x06" + b"\x00" * 18  # an empty zip: stands for the jar


def _ar(members: dict[str, bytes]) -> bytes:
    """An ar archive as dpkg-deb writes one (the format of a .deb)."""
    out = io.BytesIO()
    out.write(b"!<arch>\n")
    for name, data in members.items():
        header = (f"{name:<16}{0:<12}{0:<6}{0:<6}{'100644':<8}{len(data):<10}").encode() + b"`\n"
        out.write(header + data + (b"\n" if len(data) % 2 else b""))
    return out.getvalue()


def _deb(member: str = "usr/share/java/weka-3.6.14.jar", content: bytes = JAR_BYTES) -> bytes:
    tar_bytes = io.BytesIO()
    with tarfile.open(fileobj=tar_bytes, mode="w:xz") as tar:
        info = tarfile.TarInfo("./" + member)
        info.size = len(content)
        tar.addfile(info, io.BytesIO(content))
        link = tarfile.TarInfo("./usr/share/java/weka.jar")
        link.type, link.linkname = tarfile.SYMTYPE, "weka-3.6.14.jar"
        tar.addfile(link)
    return _ar({"debian-binary": b"2.0\n", "control.tar.xz": b"x",
                "data.tar.xz": tar_bytes.getvalue()})


def _spec(deb: bytes, content: bytes = JAR_BYTES) -> DebianJar:
    sha = hashlib.sha256
    return DebianJar("weka", "3.6.14-3", sha(deb).hexdigest(), "usr/share/java/weka-3.6.14.jar",
                     sha(content).hexdigest())


def _fake_apt(folder: Path, deb: bytes | None, monkeypatch) -> Path:
    """An ``apt-get`` first on PATH: ``download`` writes ``deb`` (None: fails as apt does
    for an unknown package) and records its arguments."""
    folder.mkdir()
    if deb is not None:
        (folder / "fixture.deb").write_bytes(deb)
    script = folder / "apt-get"
    script.write_text(
        "#!/bin/sh\n"
        f'echo "$@" >> "{folder}/calls"\n'
        f'if [ "$1" = download ] && [ -f "{folder}/fixture.deb" ]; then\n'
        f'  cp "{folder}/fixture.deb" weka_3.6.14-3_all.deb; exit 0; fi\n'
        'if [ "$1" = update ]; then exit 0; fi\n'
        'echo "E: Unable to locate package weka" >&2; exit 100\n'
    )
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ['PATH']}")
    return folder


# -- the .deb, offline ------------------------------------------------------------------------


def test_the_jar_is_read_out_of_a_deb():
    assert jar_from_deb(_deb(), "usr/share/java/weka-3.6.14.jar") == JAR_BYTES


def test_a_file_that_is_not_a_deb_is_refused():
    with pytest.raises(UserError, match="not a Debian package"):
        jar_from_deb(b"<html>not found</html>", "usr/share/java/weka-3.6.14.jar")


def test_a_deb_without_the_jar_is_refused():
    with pytest.raises(UserError, match=r"holds no file usr/share/java/weka-3\.6\.14\.jar"):
        jar_from_deb(_deb(member="usr/share/java/other.jar"), "usr/share/java/weka-3.6.14.jar")


def test_the_jar_is_downloaded_checked_and_kept(tmp_path, monkeypatch):
    deb = _deb()
    apt = _fake_apt(tmp_path / "bin", deb, monkeypatch)
    jar = authors_weka_jar(tmp_path / "cache", _spec(deb))
    assert jar.read_bytes() == JAR_BYTES
    assert (apt / "calls").read_text().split("\n")[0] == "download weka=3.6.14-3"
    # kept: a second call does not download again
    authors_weka_jar(tmp_path / "cache", _spec(deb))
    assert (apt / "calls").read_text().count("download") == 1
    assert [p.name for p in (tmp_path / "cache").iterdir()] == ["weka-3.6.14.jar"]


def test_a_kept_jar_that_was_altered_is_fetched_again(tmp_path, monkeypatch):
    deb = _deb()
    apt = _fake_apt(tmp_path / "bin", deb, monkeypatch)
    jar = authors_weka_jar(tmp_path / "cache", _spec(deb))
    jar.write_bytes(b"altered")
    assert authors_weka_jar(tmp_path / "cache", _spec(deb)).read_bytes() == JAR_BYTES
    assert (apt / "calls").read_text().count("download") == 2


def test_a_package_of_another_hash_is_refused_and_nothing_kept(tmp_path, monkeypatch):
    deb = _deb()
    _fake_apt(tmp_path / "bin", _deb(content=b"PK other"), monkeypatch)
    with pytest.raises(UserError, match=r"has SHA-256 [0-9a-f]{64}, not the pinned"):
        authors_weka_jar(tmp_path / "cache", _spec(deb))
    assert list((tmp_path / "cache").iterdir()) == []


def test_a_failed_download_gives_aptss_reason_in_one_line(tmp_path, monkeypatch):
    _fake_apt(tmp_path / "bin", None, monkeypatch)
    with pytest.raises(UserError) as info:
        authors_weka_jar(tmp_path / "cache", _spec(_deb()))
    assert str(info.value) == ("apt-get download weka=3.6.14-3 failed: E: Unable to locate "
                               "package weka")


def test_without_apt_get_the_reason_says_so(tmp_path, monkeypatch):
    (tmp_path / "empty").mkdir()
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    with pytest.raises(UserError, match="apt-get not found"):
        authors_weka_jar(tmp_path / "cache", _spec(_deb()))


def test_the_step_falls_back_to_the_bundled_weka_with_a_warning(tmp_path, monkeypatch, capfd):
    _fake_apt(tmp_path / "bin", None, monkeypatch)
    out = tmp_path / "authors.json"
    step_authors_weka(tmp_path / "cache", out)
    choice = json.loads(out.read_text())
    assert choice["jar"] is None and "Unable to locate package weka" in choice["reason"]
    assert weka_jar_of(out) is None
    warning = capfd.readouterr().err.strip()
    assert warning.startswith("warning: the authors' Weka (Debian's weka 3.6.14-3) cannot be had")
    assert "\n" not in warning


# -- the real package (where apt-get can fetch it) ---------------------------------------------


@pytest.fixture(scope="module")
def authors_jar(tmp_path_factory) -> str:
    if shutil.which("apt-get") is None:
        pytest.skip("apt-get not found: the authors' Weka comes from Debian's weka package")
    try:
        return str(authors_weka_jar(tmp_path_factory.mktemp("weka")))
    except UserError as exc:
        pytest.skip(f"Debian's weka package cannot be fetched here: {exc}")


@pytest.fixture
def weka_of(authors_jar):
    """Fit and score a paper Weka model with the authors' jar or the bundled Weka, in this
    process (the authors' jar runs in its own class loader beside the bundled one)."""
    pytest.importorskip("weka.core.jvm")
    from threshold_choice.models.jvm import ensure_jvm, resolved_weka_jar
    from threshold_choice.models.weka import paper_weka_model

    bundled = resolved_weka_jar(None)

    def scores(name: str, which: str, X, y, train, test) -> np.ndarray:
        ensure_jvm(weka_jar=authors_jar if which == "authors" else bundled)
        model = paper_weka_model(name).fit(X.iloc[train], y[train])
        return model.predict_proba(X.iloc[test])[:, 1]

    yield scores
    ensure_jvm(weka_jar=bundled)


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    from tests.conftest import SHARED
    from threshold_choice.datasets import load_prepared, prepare_dataset

    root = tmp_path_factory.mktemp("prepared")
    return lambda name: load_prepared(prepare_dataset(
        name, out_dir=root, cache_dir=root / "cache", mirror=SHARED / "datasets"))


def _halves(n: int) -> tuple[np.ndarray, np.ndarray]:
    order = np.random.default_rng(0).permutation(n)
    return order[: n // 2], order[n // 2:]


def test_the_real_package_holds_the_pinned_jar(authors_jar):
    data = Path(authors_jar).read_bytes()
    assert hashlib.sha256(data).hexdigest() == AUTHORS_WEKA.jar_sha256


@pytest.mark.parametrize("which", ["authors", "bundled"])
def test_the_papers_weka_learners_are_built_by_both_wekas(authors_jar, which):
    # what lets the workflow's start-up check leave them out (no JVM before the run)
    pytest.importorskip("weka.core.jvm")
    from threshold_choice.models.jvm import ensure_jvm, resolved_weka_jar
    from threshold_choice.models.weka import PAPER_WEKA_MODELS, weka_option_problems

    jar = authors_jar if which == "authors" else resolved_weka_jar(None)
    models = {name: (classname, list(options))
              for name, (classname, options, _) in PAPER_WEKA_MODELS.items()}
    try:
        assert weka_option_problems(models, jar) == {}
    finally:
        ensure_jvm(weka_jar=resolved_weka_jar(None))


@pytest.mark.parametrize("name", ["J48", "Stump", "IBK10", "IBK1", "SVM"])
def test_learners_that_did_not_change_score_alike_in_both_wekas(weka_of, dataset, name):
    data = dataset("credit-a")  # missing values in training and test rows
    train, test = _halves(len(data.y))
    ours = weka_of(name, "authors", data.X, data.y, train, test)
    bundled = weka_of(name, "bundled", data.X, data.y, train, test)
    np.testing.assert_array_equal(ours, bundled)


def test_logistic_differs_between_the_wekas_where_the_objective_changed(weka_of, dataset):
    data = dataset("sonar")
    train, test = _halves(len(data.y))
    ours = weka_of("Logist", "authors", data.X, data.y, train, test)
    bundled = weka_of("Logist", "bundled", data.X, data.y, train, test)
    # the objective changed, so the optimum moved (the published cells tell by how much:
    # test_the_default_run_gives_the_published_row_of_sonar)
    assert not np.array_equal(ours, bundled)
    assert pd.Series(ours).between(0, 1).all()


# -- the workflow's default, against the published cells --------------------------------------


@pytest.mark.slow
def test_the_default_run_gives_the_published_row_of_sonar(authors_jar, tmp_path):
    """sonar's Table 8 row (means over the 10 Weka model types x 10 splits): within the
    published precision with the authors' Weka, its AUC and rate-driven cells not with the
    bundled one (config/published/known_causes.csv)."""
    from tests.workflow.test_workflow import snakemake, write_config

    weka = ["IBK1", "IBK10", "J48", "J48Unp", "Logist", "NB", "PART", "Stump", "SVMp", "SVM"]
    rows = {}
    for which in ("authors", "bundled"):
        folder = tmp_path / which
        folder.mkdir()
        config = write_config(folder, datasets=["sonar"], splits={"iterations": 10},
                              models={"use": [*weka, "Prior"], "baselines": ["Prior"],
                                      "weka_jar": which})
        # the comparison with the published tables (the figures and the report are not needed)
        table8 = folder / "results" / "comparison" / "table8_diff.csv"
        snakemake(str(table8), config_file=config)
        diff = pd.read_csv(table8)
        rows[which] = diff[diff["key"] == "sonar"].set_index("column")["status"]
    assert (rows["authors"] == "match").all(), rows["authors"].to_dict()
    assert set(rows["bundled"][rows["bundled"] != "match"].index) == {
        "AUC", "rate_driven"}


@pytest.mark.slow
def test_without_the_package_the_run_uses_the_bundled_weka_and_says_so(tmp_path, monkeypatch):
    from tests.workflow.test_workflow import snakemake, write_config

    _fake_apt(tmp_path / "bin", None, monkeypatch)  # the subprocess inherits PATH
    # a cache without the jar: the run must fetch it (and cannot)
    config = write_config(tmp_path, authors_weka=False,
                          models={"use": ["Prior", "Logist"], "baselines": ["Prior"],
                                  "weka_jar": "authors"})
    timings = tmp_path / "results" / "scores" / "haberman" / "Logist.timings.csv"
    proc = snakemake(str(timings), config_file=config)  # up to the scores it reads
    warnings = [line for line in (proc.stdout + proc.stderr).splitlines()
                if line.startswith("warning: the authors' Weka")]
    assert len(warnings) == 1 and "Unable to locate package weka" in warnings[0]
    assert "weka 3.9.6" in pd.read_csv(timings)["software"].iloc[0]
    # the next run tries again and warns again; failing again, it redoes nothing
    again = snakemake(str(timings), config_file=config)
    out = again.stdout + again.stderr
    assert [line for line in out.splitlines()
            if line.startswith("warning: the authors' Weka")] == warnings
    assert "Nothing to be done" in out
