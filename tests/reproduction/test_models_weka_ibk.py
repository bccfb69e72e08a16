"""The authors' Weka's IBk predicted in one Java call (models/weka_ibk.py) gives Weka's own
``distributionForInstance`` and ``classifyInstance`` bit for bit, and leaves the model in
Weka's state; other learners and options are left to Weka."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from tests.conftest import authors_weka_jar_once


@pytest.fixture(scope="module")
def legacy(jvm: None):
    """The authors' Weka (3.6) as the models' jar for this module, the bundled one after."""
    from threshold_choice.models.jvm import ensure_jvm, resolved_weka_jar
    from threshold_choice.models.weka_legacy import legacy_weka

    jar = authors_weka_jar_once()
    if jar is None:
        pytest.skip("the authors' Weka (Debian's weka package) cannot be fetched here")
    ensure_jvm(weka_jar=str(jar))
    yield legacy_weka(str(Path(jar).resolve()))
    ensure_jvm(weka_jar=resolved_weka_jar(None))


def _frame(rng: np.random.Generator, n: int, shift: float) -> pd.DataFrame:
    """Numeric columns on a coarse grid (many tied distances), two with missing values, one
    constant, one missing everywhere in the training rows; nominal columns with missing
    values. ``shift`` moves the numeric values outside the training ranges."""
    frame = pd.DataFrame({
        "a": np.round(rng.normal(size=n) * 2) / 2 + shift,
        "b": rng.integers(0, 4, n).astype(float) * (1 + shift),
        "c": np.where(rng.random(n) < 0.2, np.nan, rng.integers(0, 3, n).astype(float)),
        "flat": np.full(n, 1.0 + shift),
        "gone": np.full(n, np.nan) if shift == 0 else rng.normal(size=n),
        "colour": pd.Categorical(rng.choice(["red", "green", "blue", None], n),
                                 categories=["red", "green", "blue"]),
        "size": pd.Categorical(rng.choice(["s", "m", "l"], n), categories=["s", "m", "l"]),
    })
    frame.loc[rng.random(n) < 0.15, "a"] = np.nan
    return frame


@pytest.fixture(scope="module")
def data():
    rng = np.random.default_rng(7)
    train = _frame(rng, 60, 0.0)
    y = (rng.random(60) < 0.6).astype(np.int64)
    y[:2] = [0, 1]
    queries = [train, _frame(rng, 40, 0.0), _frame(rng, 30, 1.5), train.iloc[:5]]
    return train, y, queries


def _fitted(name_options, train, y):
    from threshold_choice.models.weka import WekaClassifier

    classname, options = name_options
    return WekaClassifier(classname=classname, options=options, drop_missing_train=False,
                          class_order=(1, 0)).fit(train, y)


def _calls(legacy, model, queries, batched: bool):
    """Each query set in turn on one model (its ranges widen from call to call)."""
    jpype, classifier, header = model._model()
    out = []
    for frame in queries:
        instances = model._instances(jpype, header, frame)
        out.append(legacy.distributions(classifier, instances, batched=batched))
        out.append(legacy.classify(classifier, instances, batched=batched))
    ranges = classifier.getNearestNeighbourSearchAlgorithm().getDistanceFunction().getRanges()
    return out, np.array([list(r) for r in ranges])


@pytest.mark.parametrize("k", [1, 3, 10, 100])
def test_batched_ibk_equals_wekas_own_bit_for_bit_across_calls(legacy, data, k):
    from threshold_choice.models import weka_ibk

    train, y, queries = data
    spec = ("weka.classifiers.lazy.IBk", ["-K", str(k)])
    weka_model, batched_model = _fitted(spec, train, y), _fitted(spec, train, y)
    assert weka_ibk.eligible(legacy, batched_model._model()[1])
    own, own_ranges = _calls(legacy, weka_model, queries, batched=False)
    ours, our_ranges = _calls(legacy, batched_model, queries, batched=True)
    for expected, got in zip(own, ours, strict=True):
        assert got.shape == expected.shape
        np.testing.assert_array_equal(got.view(np.uint64), expected.view(np.uint64))
    # the model is left as Weka leaves it: the ranges widened by every row predicted
    np.testing.assert_array_equal(our_ranges, own_ranges)
    assert not np.array_equal(own_ranges[1:3], _fitted(spec, train, y)._model()[1]
                              .getNearestNeighbourSearchAlgorithm().getDistanceFunction()
                              .getRanges()[1:3])


def test_the_workflows_ibk_models_take_the_batched_path_and_score_as_weka(legacy, data):
    """IBK1 (crisp) and IBK10 as the workflow builds them, through predict/predict_proba."""
    from threshold_choice.models import weka_legacy
    from threshold_choice.models.weka import paper_weka_model

    train, y, queries = data
    # the paper's models leave out training rows with a missing value: keep some
    train, queries = train.drop(columns="gone"), [q.drop(columns="gone") for q in queries]
    seen = []
    real = weka_legacy.LegacyWeka.distributions

    def spy(self, classifier, instances, *, batched=True):
        seen.append(batched)
        return real(self, classifier, instances, batched=batched)

    for name in ("IBK1", "IBK10"):
        model = paper_weka_model(name, class_order=(1, 0)).fit(train, y)
        reference = paper_weka_model(name, class_order=(1, 0)).fit(train, y)
        jpype, classifier, header = reference._model()
        for frame in queries:
            instances = reference._instances(jpype, header, frame)
            if name == "IBK1":  # crisp: Weka's classifyInstance, as labels
                weka = legacy.classify(classifier, instances, batched=False)
                expected = (weka == reference._weka_index_of_label()[1]).astype(float)
            else:
                weka = legacy.distributions(classifier, instances, batched=False)
                expected = weka[:, reference._weka_index_of_label()][:, 1]
            np.testing.assert_array_equal(model.predict_proba(frame)[:, 1], expected)
    weka_legacy.LegacyWeka.distributions = spy
    try:
        paper_weka_model("IBK10").fit(train, y).predict_proba(queries[1])
    finally:
        weka_legacy.LegacyWeka.distributions = real
    assert seen == [True]


@pytest.mark.parametrize("spec", [
    ("weka.classifiers.lazy.IBk", ["-K", "3", "-I"]),  # distance weighting
    ("weka.classifiers.lazy.IBk", ["-K", "3", "-W", "10"]),  # a window
    ("weka.classifiers.lazy.IBk", ["-K", "3", "-A",
                                   "weka.core.neighboursearch.LinearNNSearch -A "
                                   "\"weka.core.ManhattanDistance -R first-last\""]),
    ("weka.classifiers.trees.J48", []),
])
def test_other_learners_and_options_are_left_to_weka(legacy, data, spec):
    from threshold_choice.models import weka_ibk

    train, y, queries = data
    model = _fitted(spec, train, y)
    jpype, classifier, header = model._model()
    instances = model._instances(jpype, header, queries[2])
    assert not weka_ibk.eligible(legacy, classifier)
    assert weka_ibk.distributions(legacy, classifier, instances) is None
    # and the default path is Weka's own
    other = _fitted(spec, train, y)
    np.testing.assert_array_equal(
        legacy.distributions(classifier, instances),
        legacy.distributions(other._model()[1],
                             other._instances(jpype, other._model()[2], queries[2]),
                             batched=False))


def test_the_shipped_class_is_its_source_compiled(tmp_path):
    """java/classes holds what ``javac --release 11 -g:none`` makes of the source (so the
    class cannot drift from the code that is read and reviewed)."""
    from threshold_choice.models.weka_ibk import CLASSES, SOURCE

    javac = shutil.which("javac")
    if javac is None:
        pytest.skip("no javac here: the class was compiled with OpenJDK 17's")
    version = subprocess.run([javac, "-version"], capture_output=True, text=True, check=True)
    major = re.search(r"javac (\d+)", version.stdout + version.stderr)
    if major is None or major.group(1) != "17":
        pytest.skip(f"javac {version.stdout.strip()} here; the class was compiled with 17's")
    shipped = sorted(CLASSES.rglob("*.class"))
    assert [p.relative_to(CLASSES).as_posix() for p in shipped] == [
        "threshold_choice/NearestNeighbours.class"]
    subprocess.run([javac, "--release", "11", "-g:none", "-d", str(tmp_path), str(SOURCE)],
                   check=True)
    compiled = tmp_path / "threshold_choice" / "NearestNeighbours.class"
    assert compiled.read_bytes() == shipped[0].read_bytes()


@pytest.mark.parametrize("column", [[1e308, -1e308, 0.0, 0.0, 3.0, -2.0],  # width overflows
                                    [np.inf, 0.0, 0.0, 0.0, 3.0, -2.0]])  # an infinite value
@pytest.mark.parametrize("k", [1, 2, 3])
def test_nan_distances_choose_the_neighbours_weka_chooses(legacy, column, k):
    """A range too wide for a double, or an infinite value, makes distances NaN (inf / inf);
    Weka's heap leaves a NaN where its comparisons (all false) leave it, and so does the
    kernel's copy of that heap."""
    train = pd.DataFrame({"a": column, "b": [0.0, 10.0, 0.0, 1.0, 2.0, 0.0]})
    y = np.array([0, 0, 1, 1, 0, 1])
    queries = [pd.DataFrame({"a": [0.0, 1e308, 2.0], "b": [0.0, 1.0, 5.0]}), train]
    spec = ("weka.classifiers.lazy.IBk", ["-K", str(k)])
    own, own_ranges = _calls(legacy, _fitted(spec, train, y), queries, batched=False)
    ours, our_ranges = _calls(legacy, _fitted(spec, train, y), queries, batched=True)
    for expected, got in zip(own, ours, strict=True):
        np.testing.assert_array_equal(got.view(np.uint64), expected.view(np.uint64))
    np.testing.assert_array_equal(our_ranges, own_ranges)


def test_what_the_kernel_does_not_compute_is_left_to_weka(legacy, data):
    """k below 1 (Weka fails), instances of another header, and the model's own training
    instances (Weka's search leaves each out of its own neighbours) go to Weka's code."""
    from threshold_choice.models import weka_ibk

    train, y, queries = data
    spec = ("weka.classifiers.lazy.IBk", ["-K", "2"])
    model = _fitted(spec, train, y)
    jpype, classifier, _ = model._model()
    own = classifier.getNearestNeighbourSearchAlgorithm().getInstances()
    assert weka_ibk.distributions(legacy, classifier, own) is None
    other = _fitted(spec, train, y)
    np.testing.assert_array_equal(  # leave-one-out, as Weka
        legacy.distributions(classifier, own),
        legacy.distributions(other._model()[1],
                             other._model()[1].getNearestNeighbourSearchAlgorithm()
                             .getInstances(), batched=False))
    fewer = _fitted(spec, train.drop(columns="b"), y)
    narrow = fewer._instances(jpype, fewer._model()[2], queries[1].drop(columns="b"))
    assert weka_ibk.distributions(legacy, classifier, narrow) is None
    classifier.setKNN(0)
    assert not weka_ibk.eligible(legacy, classifier)
