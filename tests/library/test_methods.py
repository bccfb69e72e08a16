"""One record per method: a method added in one module with one :class:`MethodSpec` is
offered and treated rightly everywhere (library, bootstrap, classifier, plots, CLI), and
no part of the project infers a method's traits from its name; which methods read scores
as probabilities."""

from __future__ import annotations

from io import StringIO

import numpy as np
import pandas as pd
import pytest
from sklearn.linear_model import LogisticRegression

from threshold_choice import ThresholdChoiceClassifier, expected_losses
from threshold_choice.bootstrap import bootstrap
from threshold_choice.cli import main
from threshold_choice.costlines import CostLines
from threshold_choice.errors import UserError
from threshold_choice.methods import (
    BUILTIN_METHODS,
    GAMMA_AWARE,
    LABEL_FREE_BREAKS,
    METHODS,
    NEEDS_TRAIN,
    PREDICTABLE,
    PROBABILITY_METHODS,
    InputMap,
    MethodSpec,
    derive_selection,
    make_selection,
    method_spec,
    register_method,
    score_driven,
    unregister_method,
    with_input_map,
)


def _halfway_map():
    # c_hat pulled halfway towards 1/2: t = (c_hat + 1/2) / 2, in [1/4, 3/4]
    def inverse(t):
        return np.where(t < 0.25, -np.inf, np.where(t > 0.75, np.inf, 2.0 * np.asarray(t) - 0.5))

    return InputMap("halfway", lambda c: (c + 0.5) / 2.0, lambda c: np.full_like(c, 0.5)), inverse


def build_halfway(test, train, options):
    imap, inverse = _halfway_map()
    return with_input_map(score_driven(test), "halfway", imap, inverse)


@pytest.fixture
def halfway():
    spec = register_method(MethodSpec("halfway", build_halfway, "score-driven, cautious",
                                      reads_probabilities=True, predict="score",
                                      colour="tab:olive"))
    yield spec
    unregister_method("halfway")
    assert "halfway" not in METHODS


def scores(seed=0, n=400):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.4).astype(int)
    return y, np.round(np.clip(rng.normal(0.35 + 0.3 * y, 0.2), 0, 1), 3)


def test_a_registered_method_joins_every_list_of_its_traits(halfway):
    assert METHODS[-1] == "halfway" and "halfway" in METHODS
    assert "halfway" in PROBABILITY_METHODS and "halfway" in PREDICTABLE
    assert "halfway" not in NEEDS_TRAIN and "halfway" not in GAMMA_AWARE
    assert "halfway" not in LABEL_FREE_BREAKS
    assert method_spec("halfway") is halfway


def test_its_exact_expected_loss_is_the_integral_of_its_loss(halfway):
    y, s = scores()
    exact = expected_losses(y, s, methods="halfway", gammas=[np.inf, 2.0])
    sel = make_selection("halfway", CostLines.from_scores(y, s))
    c = (np.arange(200_000) + 0.5) / 200_000  # midpoints: at gamma = inf, c_hat = c
    direct = float(np.mean(sel.loss(c, c)))
    assert exact["expected_loss"].iloc[0] == pytest.approx(direct, abs=1e-6)
    grid = expected_losses(y, s, methods="halfway", gammas=[2.0],
                           settings={"estimator": "grid", "grid_size": 100_000})
    # the engine's integral over c_hat (through the input map) against a quadrature
    assert grid["expected_loss"].item() == pytest.approx(exact["expected_loss"].iloc[1],
                                                         abs=1e-5)


def test_the_bootstrap_takes_it_on_the_general_path(halfway):
    y, s = scores(1)
    boot = bootstrap(y, s, methods=["score-driven", "halfway"], gammas=[np.inf], metrics=(),
                     n_boot=20, seed=3)
    assert np.all(np.isfinite(boot.replicates))
    # the original sample's loss lies inside its replicates' range
    point = expected_losses(y, s, methods="halfway", gammas=[np.inf])["expected_loss"].item()
    reps = boot.replicates[:, 1, 0]
    assert reps.min() < point < reps.max()


def test_the_classifier_predicts_with_it_by_its_rule(halfway):
    rng = np.random.default_rng(2)
    X = rng.normal(size=(300, 2))
    y = (X[:, 0] + rng.normal(size=300) > 0).astype(int)
    clf = ThresholdChoiceClassifier(LogisticRegression(), method="halfway", cv=None).fit(X, y)
    np.testing.assert_allclose(clf.threshold([0.0, 0.2, 1.0]), [0.25, 0.35, 0.75])


def test_the_cli_offers_and_evaluates_it(halfway, tmp_path, capsys):
    y, s = scores(4, 50)
    path = tmp_path / "test.csv"
    pd.DataFrame({"label": y, "score": s}).to_csv(path, index=False)
    assert main(["loss", "--test", str(path), "--method", "halfway", "--gamma", "inf"]) == 0
    out = capsys.readouterr().out.split("\n\n")[0]
    losses = pd.read_csv(StringIO(out))
    assert losses["method"].tolist() == ["halfway"]


def test_the_plots_draw_it_in_its_colour(halfway):
    from matplotlib.colors import to_rgba

    from threshold_choice.plotting import CostCurveDisplay

    y, s = scores(5)
    display = CostCurveDisplay.from_predictions(y, s, methods=["halfway"], gammas=[np.inf])
    (line,) = [ln for ln in display.ax_.get_lines() if "halfway" in ln.get_label()]
    assert to_rgba(line.get_color()) == to_rgba("tab:olive")


def test_no_trait_is_read_from_a_methods_name():
    # names that once decided traits: a "score-" prefix (probabilities), an "-aware" suffix
    # (gamma), "train-" (training scores); these records say otherwise
    odd = [
        MethodSpec("score-by-rank", lambda t, tr, o: make_selection("rate-driven", t),
                   "rate-driven under a misleading name", interpolates=True, predict="rate"),
        MethodSpec("train-free-aware", lambda t, tr, o: score_driven(t), "plain score-driven",
                   reads_probabilities=True),
    ]
    try:
        for spec in odd:
            register_method(spec)
        y, s = scores(6, 80)
        wide = s * 10.0 - 3.0  # real scores, not probabilities: fine for a rank method
        frame = expected_losses(y, wide, methods="score-by-rank", gammas=[np.inf])
        expected = expected_losses(y, wide, methods="rate-driven", gammas=[np.inf])
        assert frame["expected_loss"].item() == expected["expected_loss"].item()
        # neither needs gamma nor training scores, whatever their names say
        make_selection("train-free-aware", CostLines.from_scores(y, s))
        assert "train-free-aware" not in GAMMA_AWARE and "train-free-aware" not in NEEDS_TRAIN
    finally:
        for spec in odd:
            unregister_method(spec.name)


def test_a_second_method_of_a_registered_name_is_refused(halfway):
    with pytest.raises(UserError, match="already registered; pass replace=True"):
        register_method(MethodSpec("halfway", build_halfway, "again"))


def test_a_built_in_method_cannot_be_removed():
    with pytest.raises(UserError, match="built-in method"):
        unregister_method("score-driven")
    assert tuple(METHODS) == BUILTIN_METHODS


def test_an_unknown_method_is_named_with_the_choices():
    with pytest.raises(UserError, match=r"unknown method 'nope'; choose from test-optimal, "):
        method_spec("nope")


def test_a_record_referring_to_an_unregistered_method_is_refused():
    with pytest.raises(UserError, match="refers to 'ghost', which is not registered"):
        register_method(MethodSpec("ghost-aware", build_halfway, "x", aware_of="ghost"))
    assert "ghost-aware" not in METHODS


def test_the_builtin_records_keep_the_traits_the_names_once_implied():
    # the records of the 13 built-in methods, against what the project relied on before
    for name in BUILTIN_METHODS:
        spec = method_spec(name)
        assert spec.gamma_aware == name.endswith("-aware")
        assert spec.needs_train == name.startswith("train-optimal")
        assert spec.reads_probabilities == name.startswith("score-")
        assert spec.oracle == name.startswith("test-optimal")
        if spec.aware_of is not None:
            assert spec.aware_of == name.removesuffix("-aware")


# -- which methods read scores as probabilities -------------------------------------------------


def test_probability_methods_are_the_score_based_ones():
    assert set(PROBABILITY_METHODS) == {
        "score-driven", "score-uniform", "score-driven-z", "score-driven-aware", "score-fixed"
    }


def test_a_variant_derived_from_its_base_is_the_selection_its_builder_makes():
    # the evaluation builds a base's selection once and derives its variants from it
    # (derive_selection); each variant's own builder gives the same selection, bit for bit
    rng = np.random.default_rng(7)
    y = (rng.random(300) < 0.4).astype(int)
    s = np.round(np.clip(0.3 * y + 0.7 * rng.random(300), 0, 1), 2)
    lines = CostLines.from_scores(y, s)
    train = CostLines.from_scores(y[::-1], s)
    variants = [name for name in METHODS if method_spec(name).variant_of is not None]
    assert set(variants) == {"score-uniform", "rate-uniform", "score-driven-z", "rate-driven-z",
                             "score-fixed", "rate-fixed"}
    for options in ({}, {"rate_threshold_offset": 1e-7, "fixed_threshold": 0.3,
                         "fixed_rate": 0.8, "skew_pi0": 0.3}):
        for name in variants:
            base = make_selection(method_spec(name).variant_of, lines, train=train, **options)
            derived = derive_selection(name, base, lines, train=train, **options)
            built = make_selection(name, lines, train=train, **options)
            assert (derived.method, derived.closed, derived.ignores_c_hat) == (
                built.method, built.closed, built.ignores_c_hat)
            for field in ("coef", "breaks", "input_breaks"):
                assert np.array_equal(getattr(derived, field), getattr(built, field)), name
    with pytest.raises(UserError, match="not a variant"):
        derive_selection("rate-driven", base, lines)
    with pytest.raises(UserError, match="give both variant_of"):
        register_method(MethodSpec("half-variant", build_halfway, "x", variant_of="score-driven"))
    assert "half-variant" not in METHODS


def test_a_frozen_method_predicts_with_the_selection_it_freezes():
    # score-fixed / rate-fixed apply score-driven's / rate-driven's selection at one input;
    # train-optimal names its own (test-optimal on the training lines)
    assert method_spec("score-fixed").selection_for_predict == "score-driven"
    assert method_spec("rate-fixed").selection_for_predict == "rate-driven"
    assert method_spec("train-optimal").selection_for_predict == "test-optimal"
    assert method_spec("score-driven").selection_for_predict == "score-driven"
    with pytest.raises(UserError, match="fixed_input freezes another method's selection"):
        register_method(MethodSpec("frozen-alone", build_halfway, "x",
                                   fixed_input=lambda options: 0.5))
    assert "frozen-alone" not in METHODS
