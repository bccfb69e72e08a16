"""Bootstrap: every replicate equals expected_losses / compute_metrics of the resampled test
set (and the closed forms BS and pi0 pi1 (1 - 2 AUC) + 1/3 at gamma = inf); resampling,
intervals and paired differences; one method or gamma taken as ``expected_losses`` takes
it, the number of replicates checked, the replicates independent of the chunking and the
memory bounded whatever their number."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from io import StringIO

import numpy as np
import pandas as pd
import pytest

from tests.conftest import random_scores
from threshold_choice.bootstrap import bootstrap, paired_difference, resample_counts
from threshold_choice.cli import main
from threshold_choice.errors import UserError
from threshold_choice.evaluation import LossSettings, expected_losses
from threshold_choice.methods import METHODS
from threshold_choice.metrics import METRICS, compute_metrics

GAMMAS = (math.inf, 8.0, 1.5, 0.0)


def _by_hand(y, s, counts, r, **kw) -> np.ndarray:
    idx = np.repeat(np.arange(y.size), counts[r])
    frame = expected_losses(y[idx], s[idx], **kw)
    return frame.pivot(index="method", columns="gamma", values="expected_loss")


@pytest.mark.parametrize(
    ("stratified", "with_train", "offset", "decimals"),
    [
        (True, True, None, 2),
        (False, True, None, None),
        (True, False, 1e-7, 1),
        (False, False, None, 2),
    ],
)
def test_each_replicate_equals_expected_losses_of_the_resampled_test_set(
    stratified, with_train, offset, decimals
):
    y, s = random_scores(3, 160, decimals=decimals)
    ty, ts = random_scores(4, 120, decimals=decimals)
    methods = [m for m in METHODS if with_train or not m.startswith("train")]
    kw = {"methods": methods, "gammas": GAMMAS,
          "settings": LossSettings(rate_threshold_offset=offset)}
    if with_train:
        kw.update(train_y=ty, train_s=ts)
    boot = bootstrap(y, s, n_boot=12, seed=5, stratified=stratified, **kw)
    counts = resample_counts(y, 12, 5, stratified=stratified)
    for r in range(12):
        expected = _by_hand(y, s, counts, r, **kw)
        for i, method in enumerate(methods):
            for k, gamma in enumerate(GAMMAS):
                assert boot.replicates[r, i, k] == pytest.approx(
                    expected.loc[method, gamma], abs=1e-10
                ), (r, method, gamma)
    frame = expected_losses(y, s, **kw)
    np.testing.assert_allclose(
        boot.intervals()["expected_loss"], frame.sort_values(["method"], key=lambda c: c.map(
            methods.index), kind="stable")["expected_loss"], rtol=0, atol=0
    )


def test_other_estimators_run_the_engine_on_each_replicate():
    y, s = random_scores(8, 90, decimals=2)
    settings = LossSettings(estimator="grid", grid_size=200)
    kw = {"methods": ["test-optimal", "rate-driven"], "gammas": (math.inf, 2.0),
          "settings": settings}
    boot = bootstrap(y, s, n_boot=4, seed=1, **kw)
    counts = resample_counts(y, 4, 1)
    for r in range(4):
        expected = _by_hand(y, s, counts, r, **kw)
        np.testing.assert_allclose(
            boot.replicates[r], expected.loc[kw["methods"], list(kw["gammas"])], atol=1e-14
        )


def test_replicates_meet_the_closed_forms_at_gamma_inf():
    y, s = random_scores(11, 400, decimals=3)
    boot = bootstrap(y, s, methods=["score-driven", "rate-driven"], gammas=[math.inf],
                     n_boot=200, seed=2)
    bs = boot.metric_replicates[:, boot.metrics.index("BS")]
    auc = boot.metric_replicates[:, boot.metrics.index("AUC")]
    pi0, pi1 = np.mean(y == 0), np.mean(y == 1)
    np.testing.assert_allclose(boot.replicates[:, 0, 0], bs, atol=1e-12)
    np.testing.assert_allclose(boot.replicates[:, 1, 0], pi0 * pi1 * (1 - 2 * auc) + 1 / 3,
                               atol=1e-12)


def test_metric_replicates_equal_compute_metrics_of_the_resampled_test_set():
    y, s = random_scores(2, 150, decimals=2)
    boot = bootstrap(y, s, methods=["score-driven"], gammas=[1.0], n_boot=6, seed=9)
    counts = resample_counts(y, 6, 9)
    assert boot.metrics == METRICS
    for r in range(6):
        idx = np.repeat(np.arange(y.size), counts[r])
        expected = compute_metrics(y[idx], s[idx])
        np.testing.assert_allclose(boot.metric_replicates[r], [expected[k] for k in METRICS])


def test_stratified_resamples_keep_the_class_counts_and_are_seeded():
    y, _ = random_scores(1, 300)
    counts = resample_counts(y, 500, 7)
    assert counts.shape == (500, 300)
    np.testing.assert_array_equal(counts[:, y == 1].sum(axis=1), np.sum(y == 1))
    np.testing.assert_array_equal(counts[:, y == 0].sum(axis=1), np.sum(y == 0))
    np.testing.assert_array_equal(counts, resample_counts(y, 500, 7))
    assert not np.array_equal(counts, resample_counts(y, 500, 8))
    # each example is drawn Binomial(n_c, 1/n_c) times: mean 1, variance (1 - 1/n_c)
    assert counts.mean() == pytest.approx(1.0)
    assert counts.var() == pytest.approx(1.0, abs=0.02)
    free = resample_counts(y, 500, 7, stratified=False)
    assert np.ptp(free[:, y == 1].sum(axis=1)) > 0
    np.testing.assert_array_equal(free.sum(axis=1), 300)


def test_unstratified_replicate_with_one_class_is_an_error():
    y = np.array([0, 1, 1, 1])
    with pytest.raises(UserError, match="stratified"):
        resample_counts(y, 200, 0, stratified=False)


def test_intervals_are_percentiles_of_the_replicates():
    y, s = random_scores(5, 120, decimals=2)
    boot = bootstrap(y, s, methods=["score-driven", "test-optimal"], gammas=[4.0, 0.0],
                     n_boot=300, seed=0)
    frame = boot.intervals(0.9)
    lo, hi = np.quantile(boot.replicates, [0.05, 0.95], axis=0)
    np.testing.assert_allclose(frame["lower"], lo.ravel())
    np.testing.assert_allclose(frame["upper"], hi.ravel())
    assert (frame["lower"] < frame["upper"]).all()
    wider = boot.intervals(0.99)
    assert (wider["lower"] <= frame["lower"]).all() and (wider["upper"] >= frame["upper"]).all()
    mframe = boot.metric_intervals()
    k = boot.metrics.index("AUC")
    assert mframe.loc[k, "lower"] == np.quantile(boot.metric_replicates[:, k], 0.025)
    with pytest.raises(UserError, match="confidence"):
        boot.intervals(1.5)


def test_paired_differences_between_methods_and_between_models():
    y, s1 = random_scores(6, 200, decimals=2)
    rng = np.random.default_rng(0)
    s2 = np.clip(s1 + rng.normal(0, 0.15, s1.size), 0, 1)  # a noisier model, same labels
    kw = {"methods": ["score-driven", "rate-driven"], "gammas": [math.inf, 2.0], "n_boot": 150,
          "seed": 4}
    a, b = bootstrap(y, s1, **kw), bootstrap(y, s2, **kw)
    losses, metrics = paired_difference(a, b)
    np.testing.assert_allclose(
        losses["difference"], (a.estimate - b.estimate).ravel(), atol=1e-15
    )
    diffs = (a.replicates - b.replicates).reshape(150, -1)
    np.testing.assert_allclose(losses["lower"], np.quantile(diffs, 0.025, axis=0))
    np.testing.assert_allclose(losses["share_a_lower"], np.mean(diffs < 0, axis=0))
    # same resamples: the two models' losses are positively correlated, so the paired
    # difference varies less than the difference of independent resamples would
    ra, rb = a.replicates[:, 0, 0], b.replicates[:, 0, 0]
    assert np.corrcoef(ra, rb)[0, 1] > 0.3
    assert np.std(ra - rb) < np.sqrt(np.var(ra) + np.var(rb))
    auc = metrics.set_index("metric").loc["AUC"]
    assert auc["difference"] == pytest.approx(
        compute_metrics(y, s1)["AUC"] - compute_metrics(y, s2)["AUC"]
    )
    within = a.difference("score-driven", "rate-driven")
    np.testing.assert_allclose(
        within["lower"], np.quantile(a.replicates[:, 0] - a.replicates[:, 1], 0.025, axis=0)
    )
    with pytest.raises(UserError, match="same resamples"):
        paired_difference(a, bootstrap(y, s2, **{**kw, "seed": 5}))
    with pytest.raises(UserError, match="not bootstrapped"):
        a.difference("score-driven", "test-optimal")


def test_loss_command_adds_lower_and_upper_columns(tmp_path, capsys):
    y, s = random_scores(12, 140, decimals=2)
    ty, ts = random_scores(13, 100, decimals=2)
    pd.DataFrame({"label": y, "score": s}).to_csv(tmp_path / "test.csv", index=False)
    pd.DataFrame({"label": ty, "score": ts}).to_csv(tmp_path / "train.csv", index=False)
    args = ["loss", "--test", str(tmp_path / "test.csv"), "--train", str(tmp_path / "train.csv"),
            "--gamma", "inf", "--gamma", "4", "--bootstrap", "60", "--seed", "3"]
    assert main(args) == 0
    losses_text, metrics_text = capsys.readouterr().out.split("\n\n")
    losses = pd.read_csv(StringIO(losses_text), dtype={"gamma": str})
    assert list(losses.columns) == ["method", "gamma", "expected_loss", "lower", "upper"]
    boot = bootstrap(y, s, train_y=ty, train_s=ts, gammas=[math.inf, 4.0], n_boot=60, seed=3,
                     metrics=["AUC", "BS", "MAE", "CL", "RL", "RL_conv"])
    expected = boot.intervals()
    expected["gamma"] = expected["gamma"].map({math.inf: "inf", 4.0: "4"})
    merged = losses.merge(expected, on=["method", "gamma"], suffixes=("", "_boot"))
    assert len(merged) == len(losses) == 8
    np.testing.assert_allclose(merged["lower"], merged["lower_boot"], rtol=1e-9)
    np.testing.assert_allclose(merged["upper"], merged["upper_boot"], rtol=1e-9)
    metrics = pd.read_csv(StringIO(metrics_text))
    assert list(metrics.columns) == ["metric", "value", "lower", "upper"]
    intervals = metrics.merge(boot.metric_intervals(), on="metric", suffixes=("", "_boot"))
    assert len(intervals) == 6
    np.testing.assert_allclose(intervals["upper"], intervals["upper_boot"], rtol=1e-9)
    # H (its own Beta belief) has an interval too
    h = metrics.set_index("metric").loc["H"]
    assert h["lower"] <= h["value"] <= h["upper"]
    assert main([*args[:-4], "--bootstrap", "-1"]) == 2
    err = capsys.readouterr().err
    assert "--bootstrap must be between 0 and 10000" in err and err.rstrip().endswith("got -1")
    assert main([*args[:-4], "--bootstrap", "10001"]) == 2  # before any allocation
    assert "--bootstrap must be between 0 and 10000" in capsys.readouterr().err


def test_h_has_bootstrap_replicates_and_an_interval_on_the_command_line(tmp_path, capsys):
    y, s = random_scores(2, 150, decimals=2)
    boot = bootstrap(y, s, methods=["score-driven"], gammas=[1.0], metrics=["H"], n_boot=5,
                     seed=3)
    counts = resample_counts(y, 5, 3)
    for r in range(5):
        idx = np.repeat(np.arange(y.size), counts[r])
        assert boot.metric_replicates[r, 0] == compute_metrics(y[idx], s[idx])["H"]
    assert type(compute_metrics(y, s)["H"]) is float
    path = tmp_path / "t.csv"
    pd.DataFrame({"label": y, "score": s}).to_csv(path, index=False)
    assert main(["loss", "--test", str(path), "--bootstrap", "30", "--gamma", "inf"]) == 0
    metrics = pd.read_csv(StringIO(capsys.readouterr().out.split("\n\n")[1]))
    h = metrics.set_index("metric").loc["H"]
    assert h["lower"] <= h["value"] <= h["upper"] and h["lower"] < h["upper"]


# -- the number of replicates checked, the memory bounded ---------------------------------------


@pytest.mark.parametrize("n_boot", [2.5, -5, 0, True, 10**9])
def test_a_bad_number_of_replicates_is_refused_in_one_line(n_boot):
    from threshold_choice.bootstrap import bootstrap

    y, s = random_scores(5, 40)
    with pytest.raises(UserError, match="number of bootstrap replicates must be") as info:
        bootstrap(y, s, methods=["score-driven"], n_boot=n_boot)
    assert "\n" not in str(info.value)


def test_the_replicates_do_not_depend_on_the_chunking(monkeypatch):
    import threshold_choice.bootstrap as boot

    y, s = random_scores(6, 120)
    whole = boot.bootstrap(y, s, methods=["score-driven", "rate-driven"], n_boot=30, seed=3)
    monkeypatch.setattr(boot, "CHUNK_CELLS", 250)  # two replicates per chunk
    assert len(list(boot._chunks(30, 120))) == 15
    chunked = boot.bootstrap(y, s, methods=["score-driven", "rate-driven"], n_boot=30, seed=3)
    np.testing.assert_array_equal(whole.replicates, chunked.replicates)
    np.testing.assert_array_equal(whole.metric_replicates, chunked.metric_replicates)
    np.testing.assert_array_equal(boot.resample_counts(y, 30, 3)[7],
                                  boot.resample_counts(y, 8, 3)[7])


MEMORY_BOUND = """
import resource, sys
limit = 1200 * 2**20
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
import numpy as np
from threshold_choice.bootstrap import bootstrap
rng = np.random.default_rng(0)
n = 20_000
y = (rng.random(n) < 0.4).astype(int)
s = np.clip(rng.normal(0.4 + 0.2 * y, 0.2), 0, 1)
b = bootstrap(y, s, methods=["score-driven"], gammas=[float("inf")], metrics=(), n_boot=4000)
print(b.replicates.shape)
"""


@pytest.mark.slow
def test_the_bootstraps_memory_does_not_grow_with_the_replicates():
    # 4000 replicates of 20 000 examples: drawn all at once, their counts and draws alone
    # would take over 1 GB of the 1.2 GB address space allowed here
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}
    proc = subprocess.run([sys.executable, "-c", MEMORY_BOUND], capture_output=True, text=True,
                          env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "(4000, 1, 1)"


# -- one method, one gamma ----------------------------------------------------------------------


def test_the_bootstrap_takes_one_method_and_one_gamma_as_expected_losses_does():
    y, s = random_scores(4, 80)
    one = bootstrap(y, s, methods="score-driven", gammas=4, metrics=(), n_boot=10)
    listed = bootstrap(y, s, methods=["score-driven"], gammas=[4.0], metrics=(), n_boot=10)
    assert one.methods == ("score-driven",) and one.gammas == (4.0,)
    np.testing.assert_array_equal(one.replicates, listed.replicates)


def test_one_metric_given_as_a_name_is_that_metric_not_its_letters():
    y, s = random_scores(5, 60)
    boot = bootstrap(y, s, methods="score-driven", gammas=math.inf, metrics="AUC", n_boot=20)
    assert boot.metrics == ("AUC",)
