"""The model registry: the shipped config, a model added by configuration only, and the
rejection of bad entries before any training: an estimator path must name a scikit-learn
estimator class, checked before anything named there is called or instantiated, and a
registry of the wrong shape is named without printing the file."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import ClassVar

import numpy as np
import pandas as pd
import pytest
import yaml
from scipy.special import expit
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import Pipeline

from tests.conftest import REPO
from threshold_choice.errors import UserError
from threshold_choice.models.registry import (
    DEFAULT_MODELS,
    build_model,
    import_estimator,
    load_model_registry,
)
from threshold_choice.reproduction.scores import score_model

PAPER_MODELS = ["J48", "J48Unp", "Logist", "NB", "PART", "Stump", "IBK1", "IBK10", "SVM",
                "SVMp", "Prior", "Random"]
OURS = ["Logist", "NB", "IBK1", "IBK10", "SVM", "SVMp", "Prior", "Random"]


def _write(tmp_path: Path, *entries: dict) -> Path:
    path = tmp_path / "models.yaml"
    path.write_text(yaml.safe_dump({"format_version": 1, "models": list(entries)}))
    return path


class _Split:
    def __init__(self, train: np.ndarray, test: np.ndarray) -> None:
        self.train, self.test = train, test


def _mixed_data(n: int = 80, seed: int = 0) -> tuple[pd.DataFrame, np.ndarray]:
    rng = np.random.default_rng(seed)
    num = rng.normal(size=n)
    num[rng.choice(n, 8, replace=False)] = np.nan
    g = rng.choice(["lo", "mid", "hi"], size=n).astype(object)
    g[rng.choice(n, 6, replace=False)] = None
    y = ((np.nan_to_num(num) + (g == "hi") + 0.5 * rng.normal(size=n)) > 0.3).astype(int)
    X = pd.DataFrame({
        "num": num,
        "g": pd.Series(pd.Categorical(g, categories=pd.Index(["lo", "mid", "hi"], dtype=object))),
    })
    return X, y


def test_shipped_registry_lists_the_papers_models_and_ours_validate() -> None:
    assert load_model_registry(only=[]) == {}  # schema check of the whole file only
    names = [m["name"] for m in yaml.safe_load(DEFAULT_MODELS.read_text())["models"]]
    assert names == PAPER_MODELS
    specs = load_model_registry(only=OURS)
    assert list(specs) == OURS
    assert specs["IBK1"].crisp and specs["SVM"].crisp and not specs["SVMp"].crisp
    assert not specs["Prior"].drop_missing_train and specs["Logist"].drop_missing_train
    assert specs["Random"].seeded and specs["IBK10"].params == {"n_neighbors": 10}


def test_model_added_by_configuration_only(tmp_path: Path) -> None:
    path = _write(tmp_path, {
        "name": "RF",
        "estimator": "sklearn.ensemble:RandomForestClassifier",
        "params": {"n_estimators": 15, "max_depth": 3},
        "preprocessing": {"one_hot": True, "impute": "mean"},
        "seeded": True,
    })
    spec = load_model_registry(path)["RF"]
    model = build_model(spec, seed=5)
    assert isinstance(model, Pipeline)
    assert model.named_steps["model"].get_params()["random_state"] == 5
    X, y = _mixed_data()
    splits = [_Split(np.arange(0, 80, 2), np.arange(1, 80, 2)),
              _Split(np.arange(1, 80, 2), np.arange(0, 80, 2))]
    scores, timings = score_model(X, y, splits, spec, seed=11)
    assert len(scores) == 160 and list(timings["split"]) == [1, 2]
    assert scores["score"].between(0, 1).all()
    assert scores["score"].nunique() > 10  # real probabilities, not a constant
    again, _ = score_model(X, y, splits, spec, seed=11)
    pd.testing.assert_frame_equal(scores, again)
    other, _ = score_model(X, y, splits, spec, seed=12)
    assert not np.array_equal(other["score"], scores["score"])


def test_decision_function_only_estimator_gets_sigmoid_scores(tmp_path: Path) -> None:
    path = _write(tmp_path, {
        "name": "LinSVC",
        "estimator": "sklearn.svm:SVC",
        "params": {"kernel": "linear"},
        "preprocessing": {"one_hot": True, "impute": "most_frequent", "scale": "standard"},
    })
    spec = load_model_registry(path)["LinSVC"]
    X, y = _mixed_data(seed=1)
    split = _Split(np.arange(40), np.arange(40, 80))
    scores, _ = score_model(X, y, [split], spec, seed=0)
    train = X.iloc[:40]
    complete = ~train.isna().any(axis=1).to_numpy()  # drop_missing_train defaults to true
    model = build_model(spec).fit(train[complete], y[:40][complete])
    expected = expit(model.decision_function(X.iloc[40:]))
    np.testing.assert_allclose(scores.loc[scores["part"] == "test", "score"], expected)


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"estimator": "sklearn.no_such_module:Thing"}, "cannot be imported"),
        ({"estimator": "sklearn.ensemble:NoSuchForest"}, "has no attribute 'NoSuchForest'"),
        ({"estimator": "sklearn.ensemble:RandomForestClassifier", "params": {"n_trees": 5}},
         "refuses the parameters"),
        ({"estimator": "sklearn.ensemble:RandomForestClassifier", "params": {"n_estimators": -3}},
         "invalid parameter value"),
        ({"estimator": "threshold_choice.models.neighbours:WekaIBk",
          "params": {"n_neighbors": 0}}, "invalid parameter value"),
        ({"estimator": "sklearn.linear_model:LinearRegression"},
         "neither predict_proba nor decision_function"),
        ({"estimator": "threshold_choice.models.bayes:WekaNaiveBayes", "seeded": True},
         "no random_state parameter"),
        ({"estimator": "sklearn.ensemble:RandomForestClassifier",
          "preprocessing": {"scale": "log"}}, "breaks its schema"),
        ({"estimator": "not a path"}, "breaks its schema"),
    ],
)
def test_bad_entries_are_refused_naming_the_model(tmp_path: Path, entry: dict,
                                                 message: str) -> None:
    path = _write(tmp_path, {"name": "Mine", **entry})
    with pytest.raises(UserError, match=message) as info:
        load_model_registry(path)
    assert "Mine" in str(info.value) or "breaks its schema" in message


_TREES = "threshold_choice.models.trees"


@pytest.mark.parametrize(
    ("entry", "param"),
    [
        ({"estimator": f"{_TREES}:C45Tree", "params": {"confidence": 5}}, "confidence"),
        ({"estimator": f"{_TREES}:C45Tree", "params": {"confidence": 0}}, "confidence"),
        ({"estimator": f"{_TREES}:C45Tree", "params": {"min_leaf": "abc"}}, "min_leaf"),
        ({"estimator": f"{_TREES}:C45Tree", "params": {"min_leaf": 0}}, "min_leaf"),
        ({"estimator": f"{_TREES}:C45Tree", "params": {"min_leaf": 2.5}}, "min_leaf"),
        ({"estimator": f"{_TREES}:C45Tree", "params": {"unpruned": "no"}}, "unpruned"),
        ({"estimator": f"{_TREES}:C45Tree", "params": {"laplace": 1}}, "laplace"),
        ({"estimator": f"{_TREES}:C45Tree", "params": {"subtree_raising": "yes"}},
         "subtree_raising"),
        ({"estimator": f"{_TREES}:C45Tree", "params": {"collapse_tree": None}}, "collapse_tree"),
        ({"estimator": "threshold_choice.models.part:PART", "params": {"confidence": -1}},
         "confidence"),
        ({"estimator": "threshold_choice.models.part:PART", "params": {"min_leaf": "abc"}},
         "min_leaf"),
        ({"estimator": "threshold_choice.models.neighbours:WekaIBk",
          "params": {"class_order": [1, 1]}}, "class_order"),
        ({"estimator": "threshold_choice.models.neighbours:WekaIBk",
          "params": {"range_update": "all"}}, "range_update"),
    ],
)
def test_bad_parameter_values_are_refused_naming_model_and_parameter(
    tmp_path: Path, entry: dict, param: str,
) -> None:
    path = _write(tmp_path, {"name": "Mine", **entry})
    with pytest.raises(UserError, match="invalid parameter value") as info:
        load_model_registry(path)
    message = str(info.value)
    assert "'Mine'" in message
    assert f"'{param}' parameter of {entry['estimator'].rpartition(':')[2]}" in message


def test_stump_takes_no_parameters(tmp_path: Path) -> None:
    path = _write(tmp_path, {"name": "Mine", "estimator": f"{_TREES}:DecisionStump",
                             "params": {"confidence": 0.3}})
    with pytest.raises(UserError, match="refuses the parameters") as info:
        load_model_registry(path)
    assert "'Mine'" in str(info.value)


def test_valid_tree_and_neighbour_entries_still_load(tmp_path: Path) -> None:
    entries = [
        {"name": "J48a", "estimator": f"{_TREES}:C45Tree",
         "params": {"confidence": 0.1, "min_leaf": 5, "unpruned": False, "laplace": True,
                    "subtree_raising": False, "collapse_tree": False}},
        {"name": "J48b", "estimator": f"{_TREES}:C45Tree", "params": {"unpruned": True}},
        {"name": "PARTa", "estimator": "threshold_choice.models.part:PART",
         "params": {"confidence": 0.5, "min_leaf": 1}},
        {"name": "Stump", "estimator": f"{_TREES}:DecisionStump"},
        {"name": "IBK3", "estimator": "threshold_choice.models.neighbours:WekaIBk",
         "params": {"n_neighbors": 3, "class_order": [1, 0], "range_update": "training"}},
    ]
    specs = load_model_registry(_write(tmp_path, *entries))
    assert list(specs) == [e["name"] for e in entries]
    X, y = _mixed_data()
    for spec in specs.values():
        model = build_model(spec)
        complete = ~X.isna().any(axis=1).to_numpy()
        proba = model.fit(X[complete], y[complete]).predict_proba(X)
        assert proba.shape == (len(X), 2)


def test_every_shipped_model_validates() -> None:
    assert list(load_model_registry()) == PAPER_MODELS


def test_unknown_and_duplicate_names(tmp_path: Path) -> None:
    entry = {"name": "P", "estimator": "threshold_choice.models.baselines:PriorScorer"}
    with pytest.raises(UserError, match=r"unknown model\(s\) \['Q'\]"):
        load_model_registry(_write(tmp_path, entry), only=["Q"])
    with pytest.raises(UserError, match="used twice"):
        load_model_registry(_write(tmp_path, entry, entry))


def test_registry_files_read_in_order_and_a_name_in_two_is_refused(tmp_path: Path) -> None:
    prior = {"name": "P", "estimator": "threshold_choice.models.baselines:PriorScorer"}
    mine = {"name": "RF", "estimator": "sklearn.ensemble:RandomForestClassifier",
            "preprocessing": {"one_hot": True, "impute": "mean"}}
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first, second = _write(tmp_path / "a", prior), _write(tmp_path / "b", mine)
    assert list(load_model_registry([first, second])) == ["P", "RF"]
    again = _write(tmp_path, mine)
    with pytest.raises(UserError, match=rf"the name 'RF' is used twice \(also in {second}\)"):
        load_model_registry([first, second, again])


def test_the_shipped_models_added_file_is_valid_and_empty() -> None:
    from threshold_choice.models.registry import registry_entries

    assert registry_entries(REPO / "config" / "models_added.yaml") == {}


class ThreadRecorder(LogisticRegression):
    """Logistic regression recording the BLAS threads it was given while fitting."""

    seen: ClassVar[list[int]] = []

    def fit(self, X, y):
        from threadpoolctl import threadpool_info

        blas = [p["num_threads"] for p in threadpool_info() if p["user_api"] == "blas"]
        type(self).seen.extend(blas)
        return super().fit(X, y)


@pytest.mark.parametrize("threads", [1, 2])
def test_a_model_fits_with_the_threads_its_entry_asks_for(tmp_path: Path, threads) -> None:
    path = _write(tmp_path, {"name": "LR",
                             "estimator": "tests.reproduction.test_model_registry:ThreadRecorder",
                             "preprocessing": {"one_hot": True, "impute": "mean"},
                             "threads": threads})
    spec = load_model_registry(path)["LR"]
    assert spec.threads == threads
    X, y = _mixed_data()
    ThreadRecorder.seen = []
    score_model(X, y, [_Split(np.arange(0, 80, 2), np.arange(1, 80, 2))], spec, seed=1)
    assert ThreadRecorder.seen and set(ThreadRecorder.seen) == {threads}


def test_threads_below_one_are_refused(tmp_path: Path) -> None:
    path = _write(tmp_path, {"name": "P", "estimator":
                             "threshold_choice.models.baselines:PriorScorer", "threads": 0})
    with pytest.raises(UserError, match="breaks its schema at models/0/threads"):
        load_model_registry(path)


# -- a registry of the wrong shape --------------------------------------------------------------


def test_a_registry_of_the_wrong_shape_is_named_without_printing_the_file(tmp_path):
    from threshold_choice.models.registry import load_model_registry

    path = tmp_path / "models.yaml"
    path.write_text("- " + "\n- ".join(f"entry number {i} with a long text" for i in range(500)))
    with pytest.raises(UserError) as info:
        load_model_registry(path)
    message = str(info.value)
    assert message.startswith(f"model registry {path} breaks its schema at <top level>")
    assert len(message) < 400 and "\n" not in message


# -- the estimator path names an estimator class, checked before anything is called -------------


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
