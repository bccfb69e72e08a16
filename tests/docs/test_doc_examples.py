"""The python blocks of docs/library.md, docs/scikit-learn.md and docs/cost-distributions.md
run as written: each page's in order in a fresh namespace (its data defined on the page, on
the breast cancer data), headless, in a temporary folder; and what their comments say a line
gives, it gives. (The README's example: test_readme_example.py; the tutorial's:
test_tutorial.py. The pages' bash blocks are synopses with [options], not run.)"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.special import expit
from scipy.stats import beta
from sklearn.metrics import brier_score_loss, roc_auc_score

from tests.docs.markdown_blocks import Page, run_page


def _run(relative: str, folder) -> Page:
    page = run_page(relative, folder, run_bash=lambda line: False)
    python = [block for block in page.blocks if block.kind == "python"]
    assert python and all(block.ran for block in python)
    return page


def test_the_library_page_runs_as_written_and_gives_the_metrics_it_lists(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    page = _run("docs/library.md", tmp_path)
    ns = page.namespace
    losses, metrics, test_y, test_s = ns["losses"], ns["metrics"], ns["test_y"], ns["test_s"]
    assert set(test_y) == {0, 1}
    assert len(losses) == 4 * 7 and set(losses["method"]) == {
        "test-optimal", "train-optimal", "score-driven", "rate-driven"}
    assert {"AUC", "BS", "MAE", "CL", "RL", "RL_conv", "LogLoss", "pi0", "pi1"} <= set(metrics)
    assert metrics["AUC"] == pytest.approx(roc_auc_score(test_y, test_s), abs=1e-12)
    assert metrics["pi1"] == pytest.approx(np.mean(test_y == 1))
    from threshold_choice import h_measure

    assert page.value_of("h_measure(") == h_measure(1 - test_y, 1 - test_s)
    interval = page.value_of("boot.intervals()").iloc[0]
    assert interval["cost_lower"] <= interval["expected_cost"] <= interval["cost_upper"]


def test_the_scikit_learn_page_runs_as_written_with_named_labels(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    page = _run("docs/scikit-learn.md", tmp_path)
    ns = page.namespace
    clf, X_new = ns["clf"], ns["X_new"]
    assert clf.pos_label_ == "malignant"
    # the method's threshold for c_hat = 0.3, class 1 ('malignant') iff score > t
    p_malignant = clf.predict_proba(X_new)[:, list(clf.classes_).index("malignant")]
    expected = np.where(p_malignant > clf.threshold(0.3), "malignant", "benign")
    assert np.array_equal(page.value_of("clf.predict(X_new, cost_proportion=0.3)"), expected)
    assert len(page.value_of("clf.threshold([0.1, 0.5])")) == 2
    scores = page.value_of("cross_validate(")
    for name in ("test_sd", "test_to", "test_bs"):
        assert len(scores[name]) == 5 and np.all(scores[name] <= 0), name  # negated losses
    for start in ("CertaintyDisplay.from_estimator(", "DecisionCurveDisplay.from_estimator("):
        assert page.value_of(start).figure_ is not None, start
    _check_the_practitioners_path(page)


def _check_the_practitioners_path(page: Page) -> None:
    """The page's first block: the method cross-validation picks is the one the held-out
    CertaintyDisplay ranks first at the same belief and certainty; its cost in EUR."""
    ns = page.namespace
    costs, search, gamma = ns["costs"], ns["search"], ns["gamma"]
    assert costs.belief.support == pytest.approx((1 / 11, 1 / 4))
    assert costs.false_positive == 100 and costs.pos_label == "bad"
    chosen = page.value_of("search.best_params_")["method"]
    assert search.best_estimator_.method == chosen
    # what the comments say: score-fixed, at the belief's mean
    assert chosen == "score-fixed"
    assert page.value_of("clf.threshold()") == pytest.approx(costs.belief.mean)
    assert page.value_of('at_gamma.sort_values("expected_loss")') == chosen
    # the interval is in EUR per applicant: the paper's loss times (FP + FN) / 2
    interval = page.value_of("boot.intervals()").iloc[0]
    display = ns["display"].losses
    loss = display[(display["gamma"] == gamma) & (display["method"] == chosen)]
    assert interval["expected_cost"] == pytest.approx(
        loss["expected_loss"].iloc[0] * costs.scale, rel=1e-9)
    assert interval["cost_lower"] < interval["expected_cost"] < interval["cost_upper"]
    # following c_hat (score-driven) pays only far above the certainty of the example
    switches = ns["display"].switches
    assert len(switches) == 1 and switches["gamma"].iloc[0] > 10 * gamma
    assert switches["after"].iloc[0] == chosen


def test_the_cost_distributions_page_runs_as_written_and_its_decompositions_add_up(
        tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    page = _run("docs/cost-distributions.md", tmp_path)
    test_y, test_s = page.namespace["test_y"], page.namespace["test_s"]
    assert len(page.value_of("expected_losses(")) > 0
    brier = page.value_of("brier_decomposition(")
    assert brier.loss == pytest.approx(brier_score_loss(test_y, test_s), abs=1e-12)
    assert brier.calibration + brier.refinement == pytest.approx(brier.loss, abs=1e-12)
    bounded = page.value_of("log_loss_decomposition(")
    assert bounded.calibration + bounded.refinement == pytest.approx(bounded.loss, abs=1e-12)
    curves = page.value_of("regret_curves(")
    assert list(curves.columns) == ["cost", "log_odds", "regret", "refinement", "calibration"]
    assert np.allclose(curves["cost"], [0.05, 0.2, 0.5])
    # the density of beta:2,2 on z = logit(c): w(expit(z)) expit(z) (1 - expit(z))
    z = np.array([-2.0, 0.0, 2.0])
    on_z = beta(2, 2).pdf(expit(z)) * expit(z) * (1 - expit(z))
    assert np.allclose(page.value_of("cost_weight_density("), on_z, rtol=1e-12)
