"""The paper's Weka learners against predictions worked out by hand, and against Weka reading
an ARFF file itself (the way RWeka handed it the data).

Hand checks (each learner at Weka's defaults, as the paper ran it):

* IBk -K 10: Weka's distribution starts every class at ``1/N`` (N training rows) and adds one
  per neighbour, so ``P(c) = (k_c + 1/N) / (K + 2/N)``;
* J48 (pruned) and PART: leaf / rule class frequencies without Laplace; a missing value goes
  down every branch weighted by the training proportions;
* Logistic (ridge 1e-8): the maximum-likelihood logistic regression, computed here by Newton's
  method;
* SMO (crisp) and SMO -M on data symmetric about x = 5: the boundary is x = 5, and the
  calibrated probabilities are symmetric, P(5 - d) + P(5 + d) = 1, P(5) = 1/2.

Skipped with the reason where Java or python-weka-wrapper3 is absent (the ``jvm`` fixture).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from threshold_choice.datasets.arff import read_arff
from threshold_choice.datasets.table import to_dataframe
from threshold_choice.models.weka import PAPER_WEKA_MODELS, paper_weka_model

TINY_ARFF_TEXT = """\
% Tiny mixed-type data for the Weka backend tests: a nominal and two numeric attributes,
% missing values, the class last (as ARFF files have it; RWeka moved it first).
@relation tiny
@attribute colour {red,green,blue}
@attribute size numeric
@attribute weight numeric
@attribute class {no,yes}
@data
red,1.0,10,yes
green,2.5,?,no
blue,3.0,12,yes
red,?,9,yes
green,4.5,15,no
blue,5.0,11,no
red,6.0,8,yes
?,7.5,14,no
green,8.0,13,yes
blue,9.0,7,yes
red,2.0,16,no
green,6.5,6,yes
"""


@pytest.fixture
def tiny_arff(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.arff"
    path.write_text(TINY_ARFF_TEXT)
    return path


def nominal(values: list[str | None], categories: list[str]) -> pd.Categorical:
    return pd.Categorical(values, categories=categories)


def test_ibk10_counts_its_ten_neighbours_with_weka_correction(jvm: None) -> None:
    X = pd.DataFrame({"x": np.arange(12.0)})
    y = np.array([0, 0, 0, 1, 0, 0, 1, 1, 1, 0, 1, 1])
    model = paper_weka_model("IBK10").fit(X, y)
    # x = 2.2: neighbours x = 0..9 (4 of class 1); x = 8.6: x = 2..11 (6 of class 1)
    n = 12
    expected = [(4 + 1 / n) / (10 + 2 / n), (6 + 1 / n) / (10 + 2 / n)]
    np.testing.assert_allclose(model.predict_proba(pd.DataFrame({"x": [2.2, 8.6]}))[:, 1],
                               expected, rtol=0, atol=1e-12)


@pytest.mark.parametrize("name", ["J48", "PART"])
def test_pruned_tree_and_rules_give_leaf_frequencies(jvm: None, name: str) -> None:
    # a = p: 6 x class 1; a = q: 3 x class 0 and 1 x class 1
    X = pd.DataFrame({"a": nominal(["p"] * 6 + ["q"] * 4, ["p", "q"])})
    y = np.array([1] * 6 + [0, 0, 0, 1])
    model = paper_weka_model(name).fit(X, y)
    assert "a = p: 1 (6.0)" in model.weka_model_string()
    test = pd.DataFrame({"a": nominal(["p", "q", None], ["p", "q"])})
    np.testing.assert_allclose(model.predict_proba(test)[:, 1],
                               [1.0, 1 / 4, 0.6 * 1.0 + 0.4 * (1 / 4)], rtol=0, atol=1e-12)


def test_logistic_is_the_maximum_likelihood_fit(jvm: None) -> None:
    x = np.arange(8.0)
    y = np.array([0, 0, 1, 0, 1, 0, 1, 1])  # not separable: the MLE exists
    design = np.column_stack([np.ones_like(x), x])
    beta = np.zeros(2)
    for _ in range(50):  # Newton's method on the log-likelihood
        p = 1 / (1 + np.exp(-design @ beta))
        hessian = design.T @ (design * (p * (1 - p))[:, None])
        beta += np.linalg.solve(hessian, design.T @ (y - p))
    query = np.array([-1.0, 3.5, 9.0])
    expected = 1 / (1 + np.exp(-(beta[0] + beta[1] * query)))
    model = paper_weka_model("Logist").fit(pd.DataFrame({"x": x}), y)
    np.testing.assert_allclose(model.predict_proba(pd.DataFrame({"x": query}))[:, 1], expected,
                               rtol=0, atol=1e-6)  # ridge 1e-8 and BFGS's tolerance
    assert expected[1] == pytest.approx(0.5, abs=1e-12)  # 3.5 is the data's centre


def test_svm_boundary_and_calibration_on_symmetric_data(jvm: None) -> None:
    X = pd.DataFrame({"x": [0.0, 1.0, 2.0, 8.0, 9.0, 10.0]})
    y = np.array([0, 0, 0, 1, 1, 1])
    crisp = paper_weka_model("SVM").fit(X, y)
    np.testing.assert_array_equal(
        crisp.predict_proba(pd.DataFrame({"x": [-3.0, 4.5, 5.5, 13.0]}))[:, 1], [0, 0, 1, 1])
    calibrated = paper_weka_model("SVMp").fit(X, y)
    p = calibrated.predict_proba(pd.DataFrame({"x": [4.5, 5.0, 5.5, 2.0, 8.0]}))[:, 1]
    assert p[1] == pytest.approx(0.5, abs=1e-9)
    assert p[0] + p[2] == pytest.approx(1.0, abs=1e-9)
    assert p[3] + p[4] == pytest.approx(1.0, abs=1e-9)
    assert p[3] < p[0] < p[1] < p[2] < p[4]


def _weka_reading_the_arff(arff: Path, classname: str, options: tuple[str, ...],
                           crisp: bool) -> np.ndarray:
    """P(yes) of every row, with Weka reading the ARFF: class moved first, training rows with
    a missing value deleted, every row predicted in file order."""
    import jpype

    data = jpype.JClass("weka.core.converters.ConverterUtils$DataSource").read(str(arff))
    reorder = jpype.JClass("weka.filters.unsupervised.attribute.Reorder")()
    reorder.setOptions(jpype.JArray(jpype.JString)(["-R", "last,first-3"]))
    reorder.setInputFormat(data)
    data = jpype.JClass("weka.filters.Filter").useFilter(data, reorder)
    data.setClassIndex(0)
    train = jpype.JClass("weka.core.Instances")(data)
    for attribute in range(train.numAttributes()):
        train.deleteWithMissing(attribute)
    classifier = jpype.JClass("weka.classifiers.AbstractClassifier").forName(
        classname, jpype.JArray(jpype.JString)(list(options)))
    classifier.buildClassifier(train)
    yes = data.classAttribute().indexOfValue("yes")
    if crisp:
        return np.array([float(classifier.classifyInstance(data.instance(i)) == yes)
                         for i in range(data.numInstances())])
    return np.array([classifier.distributionForInstance(data.instance(i))[yes]
                     for i in range(data.numInstances())])


@pytest.mark.parametrize("name", sorted(PAPER_WEKA_MODELS))
def test_the_backend_gives_weka_what_rweka_gave_it(jvm: None, tiny_arff: Path, name: str) -> None:
    _, table = read_arff(tiny_arff)
    frame = to_dataframe(table)
    X = frame.drop(columns="class")
    y = (frame["class"] == "yes").to_numpy().astype(np.int64)  # yes: 7 of 12, the majority
    assert y.sum() == 7
    model = paper_weka_model(name, class_order=(0, 1)).fit(X, y)  # "no" declared first
    assert model.n_train_used_ == 9
    classname, options, crisp = PAPER_WEKA_MODELS[name]
    np.testing.assert_array_equal(model.predict_proba(X)[:, 1],
                                  _weka_reading_the_arff(tiny_arff, classname, options, crisp))
