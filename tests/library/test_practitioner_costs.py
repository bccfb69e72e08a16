"""Costs in the user's terms (Costs: c, the loss scale, one positive class throughout), the
fixed-threshold methods of paper 000 (score-fixed, rate-fixed) and --pos-label on the CLI."""

from __future__ import annotations

import io
import math
import re

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import accuracy_score, confusion_matrix

from tests.conftest import random_scores
from threshold_choice import (
    Costs,
    ThresholdChoiceClassifier,
    expected_losses,
    make_expected_loss_scorer,
)
from threshold_choice.cli import main
from threshold_choice.errors import UserError
from threshold_choice.scorers import make_cost_scorer


def _named_data(seed: int = 0):
    X, y = make_classification(n_samples=400, n_features=5, weights=[0.7], random_state=seed)
    return X, np.array(["benign", "malignant"])[y]


# -- Costs -------------------------------------------------------------------------------------


def test_costs_give_the_cost_proportion_of_a_false_positive_and_the_units_scale():
    costs = Costs(false_positive=1, false_negative=4, pos_label="malignant")
    assert costs.cost_proportion == pytest.approx(0.2)
    assert costs.scale == pytest.approx(2.5)
    assert costs.in_units(0.1) == pytest.approx(0.25)


def test_a_cost_matrix_in_confusion_matrix_layout_gives_the_same_costs():
    # rows: true class, columns: predicted (labels in that order)
    costs = Costs.from_matrix([[0, 1], [4, 0]], labels=["benign", "malignant"],
                              pos_label="malignant")
    assert (costs.false_positive, costs.false_negative) == (1.0, 4.0)
    assert costs.pos_label == "malignant"
    flipped = Costs.from_matrix([[0, 1], [4, 0]], labels=["benign", "malignant"],
                                pos_label="benign")
    assert (flipped.false_positive, flipped.false_negative) == (4.0, 1.0)


def test_a_cost_matrix_with_costs_on_its_diagonal_keeps_the_differences():
    costs = Costs.from_matrix([[2, 5], [10, 1]])
    assert (costs.false_positive, costs.false_negative) == (3.0, 9.0)
    assert costs.pos_label is None


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"false_positive": -1, "false_negative": 1}, "false_positive must be a finite number"),
        ({"false_positive": 0, "false_negative": 0}, "both 0"),
        ({"false_positive": "a", "false_negative": 1}, "must be a number"),
    ],
)
def test_bad_costs_are_refused_saying_which(kwargs, message):
    with pytest.raises(UserError, match=message):
        Costs(**kwargs)


def test_bad_cost_matrices_are_refused_saying_why():
    with pytest.raises(UserError, match="2 x 2"):
        Costs.from_matrix([[0, 1, 2], [1, 0, 2]])
    with pytest.raises(UserError, match="not one of the matrix's labels"):
        Costs.from_matrix([[0, 1], [4, 0]], labels=["a", "b"], pos_label="c")
    with pytest.raises(UserError, match="cheaper than the correct decision"):
        Costs.from_matrix([[5, 1], [4, 0]])


# -- one positive class --------------------------------------------------------------------


def test_the_classifier_takes_c_and_the_positive_class_from_the_costs():
    X, y = _named_data()
    costs = Costs(false_positive=1, false_negative=4, pos_label="malignant")
    by_costs = ThresholdChoiceClassifier(LogisticRegression(), cost_proportion=costs,
                                         cv=None).fit(X, y)
    by_hand = ThresholdChoiceClassifier(LogisticRegression(), cost_proportion=0.2,
                                        pos_label="malignant", cv=None).fit(X, y)
    assert by_costs.pos_label_ == "malignant"
    assert by_costs.threshold() == by_hand.threshold()
    np.testing.assert_array_equal(by_costs.predict(X), by_hand.predict(X))


def test_costs_naming_another_positive_class_are_refused_before_fitting():
    X, y = _named_data()
    costs = Costs(false_positive=1, false_negative=4, pos_label="malignant")
    clf = ThresholdChoiceClassifier(LogisticRegression(), cost_proportion=costs,
                                    pos_label="benign")
    with pytest.raises(UserError, match="call 'malignant' positive but the classifier has "
                                        "pos_label 'benign'"):
        clf.fit(X, y)
    assert not hasattr(clf, "estimator_")
    fitted = ThresholdChoiceClassifier(LogisticRegression(), pos_label="benign",
                                       cv=None).fit(X, y)
    with pytest.raises(UserError, match="positive class"):
        fitted.predict(X, cost_proportion=costs)


def test_a_scorer_given_another_positive_class_than_its_classifier_is_refused():
    X, y = _named_data()
    clf = ThresholdChoiceClassifier(LogisticRegression(), pos_label="malignant",
                                    cv=None).fit(X, y)
    with pytest.raises(UserError, match="differs from the classifier's 'malignant'"):
        make_expected_loss_scorer("score-driven", 4.0, pos_label="benign")(clf, X, y)


def test_the_cost_scorer_in_units_is_the_cost_of_the_confusion_matrix_per_example():
    X, y = _named_data()
    costs = Costs(false_positive=1.5, false_negative=6, pos_label="malignant", units="EUR")
    clf = ThresholdChoiceClassifier(LogisticRegression(), cost_proportion=costs,
                                    cv=None).fit(X, y)
    _tn, fp, fn, _tp = confusion_matrix(y, clf.predict(X),
                                      labels=["benign", "malignant"]).ravel()
    assert fp + fn > 0
    expected = (1.5 * fp + 6 * fn) / y.size
    assert -make_cost_scorer(costs)(clf, X, y) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("method", ["score-driven", "train-optimal", "rate-driven"])
def test_the_expected_loss_scorer_in_units_scales_the_loss_by_half_the_cost_sum(method):
    X, y = _named_data(1)
    costs = Costs(false_positive=2, false_negative=8, pos_label="malignant")
    clf = ThresholdChoiceClassifier(LogisticRegression(), cost_proportion=costs,
                                    cv=None).fit(X, y)
    plain = make_expected_loss_scorer(method, 2.0)(clf, X, y)
    in_units = make_expected_loss_scorer(method, 2.0, costs=costs)(clf, X, y)
    assert plain < 0
    assert in_units == pytest.approx(5.0 * plain, rel=1e-12)


# -- the fixed methods -------------------------------------------------------------------------


def _losses(y, s, methods, gammas, **settings):
    frame = expected_losses(y, s, methods=methods, gammas=gammas, settings=settings)
    return frame.set_index(["method", "gamma"])["expected_loss"]


def test_score_fixed_under_a_mean_one_half_belief_is_the_error_rate_at_one_half():
    y, s = random_scores(11, 300)
    for distribution in ("uniform", "beta:3,3"):
        loss = _losses(y, s, ["score-fixed"], [math.inf], cost_distribution=distribution)
        error = 1.0 - accuracy_score(y, (s > 0.5).astype(int))
        assert loss.iloc[0] == pytest.approx(error, abs=1e-12)  # Corollary 6 of paper 000


def test_score_fixed_follows_theorem_5_of_paper_000_under_any_belief():
    y, s = random_scores(12, 250)
    t = 0.35
    loss = _losses(y, s, ["score-fixed"], [0.0], cost_distribution="beta:8,2",
                   fixed_threshold=t).iloc[0]
    mean_c = 0.8
    pi1 = np.mean(y == 1)
    f1 = np.mean(s[y == 1] <= t)  # class 1 predicted 0
    error = 1.0 - accuracy_score(y, (s > t).astype(int))
    assert loss == pytest.approx(2 * mean_c * error + 4 * pi1 * f1 * (0.5 - mean_c), abs=1e-12)


@pytest.mark.parametrize("distribution", ["uniform", "beta:8,2", "uniform:0.6,0.9"])
def test_score_fixed_is_score_driven_aware_at_no_information_and_the_same_at_every_gamma(
    distribution,
):
    y, s = random_scores(13, 200)
    gammas = [math.inf, 4.0, 0.0]
    loss = _losses(y, s, ["score-fixed", "score-driven-aware"], gammas,
                   cost_distribution=distribution)
    fixed = [loss[("score-fixed", g)] for g in gammas]
    assert fixed == pytest.approx([fixed[0]] * 3, abs=1e-13)
    assert loss[("score-driven-aware", 0.0)] == pytest.approx(fixed[0], abs=1e-9)
    assert loss[("score-driven-aware", math.inf)] < fixed[0]


def test_rate_fixed_predicts_a_fixed_fraction_zero_whatever_the_cost():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 200)
    s = rng.permutation(200) / 200.0  # distinct scores: every rate k/200 is attainable
    rate = 0.3
    t = np.sort(s)[int(rate * 200) - 1]  # the 60 lowest scores predicted 0
    loss = _losses(y, s, ["rate-fixed"], [math.inf, 0.0], fixed_rate=rate)
    error = 1.0 - accuracy_score(y, (s > t).astype(int))
    assert loss.tolist() == pytest.approx([error, error], abs=1e-12)


def test_fixed_settings_outside_zero_one_are_refused():
    y, s = random_scores(1, 50)
    with pytest.raises(UserError, match="fixed_threshold must be a number in"):
        _losses(y, s, ["score-fixed"], [0.0], fixed_threshold=1.5)


# -- --pos-label on the command line ---------------------------------------------------------


def _write(path, labels, scores):
    rows = "".join(f"{a},{b}\n" for a, b in zip(labels, scores, strict=True))
    path.write_text("label,score\n" + rows)
    return path


def test_loss_with_pos_label_reads_named_labels_as_the_0_1_file(tmp_path, capsys):
    y, s = random_scores(5, 80)
    names = np.where(y == 1, "malignant", "benign")
    numbers = _write(tmp_path / "n.csv", y, s)
    named = _write(tmp_path / "s.csv", names, s)
    assert main(["loss", "--test", str(numbers)]) == 0
    expected = capsys.readouterr().out
    assert main(["loss", "--test", str(named), "--pos-label", "malignant"]) == 0
    assert capsys.readouterr().out == expected
    # the other class as positive: class 1 is benign, and the scores estimate malignant
    assert main(["loss", "--test", str(named), "--pos-label", "benign", "--method",
                 "rate-driven", "--gamma", "inf"]) == 0
    assert capsys.readouterr().out != expected


@pytest.mark.parametrize(
    ("labels", "pos", "message"),
    [
        (["a", "b", "a"], "c", "no row has the label 'c'"),
        (["a", "b", "x"], "a", "has 3 labels"),
        (["a", "", "b"], "a", "label on line 3 is missing"),
        (["a", "b", "a"], None, "labels must be 0 or 1 \\(or name the positive class with "
                                "--pos-label\\)"),
    ],
)
def test_bad_named_labels_get_one_line_errors(tmp_path, capsys, labels, pos, message):
    path = _write(tmp_path / "t.csv", labels, [0.1, 0.5, 0.9])
    args = ["loss", "--test", str(path)] + ([] if pos is None else ["--pos-label", pos])
    assert main(args) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1
    assert re.search(message, err), err


def test_decision_curve_and_plot_take_the_pos_label(tmp_path, capsys):
    y, s = random_scores(6, 60)
    named = _write(tmp_path / "s.csv", np.where(y == 1, "yes", "no"), s)
    numbers = _write(tmp_path / "n.csv", y, s)
    assert main(["decision-curve", "--test", str(numbers)]) == 0
    expected = capsys.readouterr().out
    assert main(["decision-curve", "--test", str(named), "--pos-label", "yes"]) == 0
    assert capsys.readouterr().out == expected
    out = tmp_path / "fig.png"
    assert main(["plot", "cost-curves", "--test", str(named), "--pos-label", "yes",
                 "--out", str(out)]) == 0
    assert out.exists()


def test_loss_with_costs_adds_the_expected_cost_in_units(tmp_path, capsys):
    y, s = random_scores(7, 90)
    path = _write(tmp_path / "t.csv", y, s)
    assert main(["loss", "--test", str(path), "--costs", "1,4", "--method", "score-fixed",
                 "--method", "score-driven", "--bootstrap", "20"]) == 0
    table = pd.read_csv(io.StringIO(capsys.readouterr().out.split("\n\n")[0]))
    for loss, cost in (("expected_loss", "expected_cost"), ("lower", "lower_cost"),
                       ("upper", "upper_cost")):
        np.testing.assert_allclose(table[cost], 2.5 * table[loss], rtol=1e-9)
    assert main(["loss", "--test", str(path), "--costs", "1"]) == 2
    assert "--costs takes two numbers separated by a comma" in capsys.readouterr().err


def test_loss_takes_the_fixed_threshold_of_score_fixed(tmp_path, capsys):
    y, s = random_scores(8, 90, decimals=None)
    path = _write(tmp_path / "t.csv", y, s)
    assert main(["loss", "--test", str(path), "--method", "score-fixed", "--gamma", "0",
                 "--fixed-threshold", "0.7"]) == 0
    table = pd.read_csv(io.StringIO(capsys.readouterr().out.split("\n\n")[0]))
    error = 1.0 - accuracy_score(y, (s > 0.7).astype(int))
    assert table["expected_loss"].iloc[0] == pytest.approx(error, abs=1e-9)


@pytest.mark.parametrize("method", ["score-driven-aware", "train-optimal-aware", "score-fixed"])
def test_a_drawn_cost_curve_weighted_by_the_belief_integrates_to_its_legend_area(method):
    from threshold_choice import CostCurveDisplay
    from threshold_choice.cost_distributions import parse_cost_distribution

    y, s = random_scores(1, 200)
    ty, ts = random_scores(2, 150)
    display = CostCurveDisplay.from_predictions(
        y, s, train_y=ty, train_score=ts, methods=[method], gammas=[2.0],
        cost_distribution="beta:8,2", plot=False)
    c = display.curves["c"].to_numpy()
    weighted = display.curves["loss"].to_numpy() * parse_cost_distribution("beta:8,2").pdf(c)
    area = np.sum((weighted[1:] + weighted[:-1]) / 2 * np.diff(c))
    assert area == pytest.approx(display.areas["expected_loss"].iloc[0], abs=2e-6)


# -- the loss at the cost proportion the costs state (expected_losses' at_cost) ---------------


def _q(y: np.ndarray, s: np.ndarray, t: np.ndarray, c: float) -> np.ndarray:
    """The paper's loss 2 (c FP/n + (1 - c) FN/n) of each threshold ``t`` (predict 1 iff
    score > t), counted from the labels."""
    above = s[None, :] > np.asarray(t, dtype=float)[:, None]
    fp = (above & (y == 0)).sum(axis=1) / y.size
    fn = (~above & (y == 1)).sum(axis=1) / y.size
    return 2.0 * (c * fp + (1.0 - c) * fn)


@pytest.mark.parametrize("c0", [0.2, 0.5, 0.83])
def test_at_cost_at_gamma_inf_is_the_loss_of_the_threshold_picked_at_that_cost(c0):
    y, s = random_scores(11, 150, decimals=None)
    got = expected_losses(y, s, methods=["score-driven", "test-optimal"], gammas=[math.inf],
                          at_cost=c0).set_index("method")["expected_loss"]
    # score-driven thresholds at c0 itself; test-optimal at the best threshold for c0
    assert got["score-driven"] == pytest.approx(_q(y, s, [c0], c0)[0], abs=1e-12)
    candidates = np.concatenate(([-np.inf], s))
    assert got["test-optimal"] == pytest.approx(_q(y, s, candidates, c0).min(), abs=1e-12)


def test_at_cost_averages_the_loss_over_the_presumed_cost_drawn_around_it():
    y, s = random_scores(12, 120, decimals=None)
    c0, gamma = 0.2, 4.0
    got = expected_losses(y, s, methods="score-driven", gammas=[gamma], at_cost=c0)
    # Monte Carlo over c_hat ~ Beta(gamma c0 + 1, gamma (1 - c0) + 1), threshold t = c_hat
    c_hat = np.random.default_rng(5).beta(gamma * c0 + 1, gamma * (1 - c0) + 1, 100_000)
    losses = np.concatenate([_q(y, s, part, c0) for part in np.array_split(c_hat, 20)])
    standard_error = losses.std() / math.sqrt(losses.size)
    assert abs(got["expected_loss"].iloc[0] - losses.mean()) < 4 * standard_error


def test_at_cost_is_exact_whatever_the_estimator_and_differs_from_the_average_over_c():
    y, s = random_scores(13, 80, decimals=None)
    kw = {"methods": ["score-driven", "rate-driven"], "gammas": [math.inf, 2.0], "at_cost": 0.3}
    exact = expected_losses(y, s, **kw)
    mc = expected_losses(y, s, settings={"estimator": "montecarlo", "seed": 4}, **kw)
    pd.testing.assert_frame_equal(exact, mc)
    averaged = expected_losses(y, s, methods=kw["methods"], gammas=kw["gammas"])
    assert not np.allclose(exact["expected_loss"], averaged["expected_loss"])


@pytest.mark.parametrize(("kw", "problem"), [
    ({"at_cost": 1.5}, "at_cost must be a cost proportion in [0, 1]"),
    ({"at_cost": float("nan")}, "at_cost must be a cost proportion in [0, 1]"),
    ({"at_cost": 0.2, "loss_function": "f-measure"}, "at_cost applies to the accuracy loss"),
])
def test_an_at_cost_outside_0_1_or_with_the_f_loss_is_a_user_error(kw, problem):
    y, s = random_scores(14, 40)
    with pytest.raises(UserError, match=re.escape(problem)):
        expected_losses(y, s, methods="score-driven", gammas=[1.0], **kw)


def test_loss_costs_add_the_cost_at_the_stated_c_and_a_note_on_the_uniform_average(
        tmp_path, capsys):
    y, s = random_scores(15, 90, decimals=None)
    path = tmp_path / "t.csv"
    pd.DataFrame({"label": np.where(y == 1, "malignant", "benign"), "score": s}).to_csv(
        path, index=False)
    args = ["loss", "--test", str(path), "--pos-label", "malignant", "--costs", "1,4",
            "--method", "score-driven", "--gamma", "inf", "--gamma", "4"]
    assert main(args) == 0
    captured = capsys.readouterr()
    losses = pd.read_csv(io.StringIO(captured.out.split("\n\n")[0]), dtype={"gamma": str})
    at_inf = losses.set_index("gamma").loc["inf"]
    # c = 1/(1+4) = 0.2: score-driven thresholds at 0.2; the mean cost of its errors
    false_pos = int(np.sum((s > 0.2) & (y == 0)))
    false_neg = int(np.sum((s <= 0.2) & (y == 1)))
    assert at_inf["expected_cost_at_c"] == pytest.approx((1 * false_pos + 4 * false_neg) / y.size,
                                                         rel=1e-9)
    assert at_inf["expected_cost"] == pytest.approx(at_inf["expected_loss"] * 2.5, rel=1e-9)
    note = [line for line in captured.err.splitlines() if "note:" in line]
    assert len(note) == 1
    assert "expected_cost averages over c uniform on [0, 1]" in note[0]
    assert "c = FP/(FP+FN) = 0.2" in note[0] and "--cost-distribution, e.g. beta:4,16" in note[0]
    # a belief given: no note
    assert main([*args, "--cost-distribution", "beta:4,16"]) == 0
    assert "note:" not in capsys.readouterr().err
