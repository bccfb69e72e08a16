"""Tests of the stratified splits: R-compatible splitter (against the R oracle) and numpy."""

from __future__ import annotations

from collections import Counter
from io import StringIO
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from tests.conftest import SHARED
from threshold_choice.cli import main
from threshold_choice.errors import UserError
from threshold_choice.splits import (
    NumpySplitter,
    RSplitter,
    Split,
    Splitter,
    get_splitter,
    make_splits,
    read_arff_class,
    splits_frame,
)
from threshold_choice.splits.rng_r import RMersenneTwister, r_initial_mt_key

ORACLE = SHARED / "reference" / "r_splits_sample.csv"
DATASETS = SHARED / "datasets"
ORACLE_DATASETS = ("breast-w", "credit-a", "haberman", "hepatitis", "lung-cancer", "monks2",
                   "spect_test", "vote")
needs_shared = pytest.mark.skipif(not ORACLE.exists(), reason="shared reference data missing")


def class_attribute(dataset: str) -> str | None:
    return "OVERALL_DIAGNOSIS" if dataset.startswith("spect") else None


@pytest.fixture(scope="module")
def oracle() -> pd.DataFrame:
    return pd.read_csv(ORACLE)


# --- R's random number generator -------------------------------------------------------

def test_r_seed_scrambling_gives_r_random_seed_words() -> None:
    # R: set.seed(1); .Random.seed[3:5]
    key = r_initial_mt_key(1).view(np.int32)
    assert key[:3].tolist() == [-169270483, -442010614, -603558397]


def test_r_unif_rand_matches_runif() -> None:
    # R: set.seed(1); runif(3)  /  set.seed(123); runif(2)
    np.testing.assert_allclose(RMersenneTwister(1).unif_rand(3),
                               [0.2655086631, 0.3721239014, 0.5728533633], atol=1e-10)
    np.testing.assert_allclose(RMersenneTwister(123).unif_rand(2),
                               [0.2875775201, 0.7883051354], atol=1e-10)


def test_r_sample_matches_pre_3_6_rounding_sampler() -> None:
    # R < 3.6 (sample.kind = "Rounding"): set.seed(1); sample(10)  /  set.seed(42); sample(10)
    assert RMersenneTwister(1).sample_int(10).tolist() == [3, 4, 5, 7, 2, 8, 9, 6, 10, 1]
    assert RMersenneTwister(42).sample_int(10).tolist() == [10, 9, 3, 6, 4, 8, 5, 1, 2, 7]


def test_r_sample_without_replacement_draws_distinct_values_from_shrinking_pool() -> None:
    rng = RMersenneTwister(7)
    drawn = rng.sample_int(1000, 400)
    assert len(set(drawn.tolist())) == 400
    assert drawn.min() >= 1 and drawn.max() <= 1000


def test_r_sample_of_length_one_vector_is_refused() -> None:
    with pytest.raises(ValueError):
        RMersenneTwister(1).sample_subset(np.array([5]), 1)


# --- the R splitter against the oracle ---------------------------------------------------

@needs_shared
@pytest.mark.parametrize("dataset", ORACLE_DATASETS)
def test_r_splitter_reproduces_every_oracle_row(dataset: str, oracle: pd.DataFrame) -> None:
    column = read_arff_class(DATASETS / f"{dataset}.arff", class_attribute(dataset))
    got = splits_frame(dataset, make_splits(column.labels, column.levels, RSplitter()))
    expected = oracle[oracle["dataset"] == dataset].reset_index(drop=True)
    assert len(got) == len(expected) == 10 * len(column.labels)
    for name in ("iteration", "part", "position", "row"):
        mismatches = int((got[name].to_numpy() != expected[name].to_numpy()).sum())
        assert mismatches == 0, f"{dataset}: {mismatches} rows differ in {name}"
    assert (got["dataset"] == dataset).all()


@needs_shared
def test_oracle_covers_exactly_the_datasets_compared(oracle: pd.DataFrame) -> None:
    assert sorted(oracle["dataset"].unique().tolist()) == sorted(ORACLE_DATASETS)
    assert sorted(oracle["iteration"].unique().tolist()) == list(range(1, 11))


# --- properties of both splitters --------------------------------------------------------

LEVELS = ("neg", "pos", "unused")
LABELS = np.array(["neg"] * 37 + ["pos"] * 12 + ["neg"] * 8 + ["pos"] * 3)  # 45 neg, 15 pos


@pytest.mark.parametrize("splitter", [NumpySplitter(), RSplitter()], ids=["numpy", "r"])
def test_split_is_a_disjoint_cover_with_ceil_half_of_each_class_in_train(
        splitter: Splitter) -> None:
    for iteration in range(1, 11):
        split = splitter.split(LABELS, LEVELS, iteration)
        assert split.iteration == iteration
        assert split.train.dtype == np.int64 and split.test.dtype == np.int64
        assert np.intersect1d(split.train, split.test).size == 0
        assert np.array_equal(np.sort(np.concatenate([split.train, split.test])),
                              np.arange(len(LABELS)))
        assert Counter(LABELS[split.train].tolist()) == {"neg": 23, "pos": 8}
        assert Counter(LABELS[split.test].tolist()) == {"neg": 22, "pos": 7}


@pytest.mark.parametrize("name", ["numpy", "r"])
def test_split_is_deterministic_per_seed_and_differs_across_seeds(name: str) -> None:
    splitter = get_splitter(name)  # type: ignore[arg-type]
    first = make_splits(LABELS, LEVELS, splitter, iterations=3)
    again = make_splits(LABELS, LEVELS, get_splitter(name), iterations=3)  # type: ignore[arg-type]
    for a, b in zip(first, again, strict=True):
        assert np.array_equal(a.train, b.train) and np.array_equal(a.test, b.test)
    assert not np.array_equal(first[0].train, first[1].train)
    assert [s.iteration for s in first] == [1, 2, 3]


def test_numpy_splitter_returns_sorted_parts_from_default_rng_seeded_by_iteration() -> None:
    split = NumpySplitter().split(LABELS, LEVELS, 4)
    assert np.all(np.diff(split.train) > 0) and np.all(np.diff(split.test) > 0)
    rng = np.random.default_rng(4)
    neg = rng.permutation(np.flatnonzero(LABELS == "neg"))[:23]
    pos = rng.permutation(np.flatnonzero(LABELS == "pos"))[:8]
    assert np.array_equal(split.train, np.sort(np.concatenate([neg, pos])))


def test_odd_class_sizes_put_the_extra_row_in_train() -> None:
    labels = ["a"] * 3 + ["b"] * 2
    for splitter in (NumpySplitter(), RSplitter()):
        split = splitter.split(labels, ["a", "b"], 1)
        assert len(split.train) == 3 and len(split.test) == 2


def test_r_splitter_orders_levels_alphabetically_when_a_declared_level_is_empty() -> None:
    # caret re-creates the factor (sorted levels) when a level has no rows.
    labels = ["z"] * 5 + ["a"] * 5
    with_empty = RSplitter().split(labels, ["z", "a", "empty"], 2)
    alphabetical = RSplitter().split(labels, ["a", "z"], 2)
    assert np.array_equal(with_empty.train, alphabetical.train)
    assert np.array_equal(with_empty.test, alphabetical.test)


# --- refusals ------------------------------------------------------------------------------

@pytest.mark.parametrize("splitter", [NumpySplitter(), RSplitter()], ids=["numpy", "r"])
@pytest.mark.parametrize(
    ("labels", "levels", "message"),
    [
        (["a"] * 6, ["a", "b"], "at least two classes"),
        (["a"] * 6 + ["b"], ["a", "b"], "single row"),
        (["a"] * 3 + ["c"] * 3, ["a", "b"], "not among the declared levels"),
        (["a"] * 3 + [None] + ["b"] * 3, ["a", "b"], "missing class label"),
        (["a"] * 3 + ["b"] * 3, ["a", "a", "b"], "distinct"),
    ],
    ids=["one-class", "single-row-class", "unknown-label", "missing-label", "duplicate-levels"],
)
def test_bad_labels_are_refused_with_a_user_error(
        splitter: Splitter, labels: list[str | None], levels: list[str], message: str) -> None:
    with pytest.raises(UserError, match=message):
        splitter.split(labels, levels, 1)  # type: ignore[arg-type]


@pytest.mark.parametrize("iteration", [-1, 1.5, True])
def test_iteration_must_be_a_non_negative_integer(iteration: float) -> None:
    # it is the seed (R's set.seed(0) drew the split of Fig. 1); the study's are 1..10
    with pytest.raises(UserError, match="iteration"):
        NumpySplitter().split(["a", "a", "b", "b"], ["a", "b"], iteration)  # type: ignore[arg-type]


def test_unknown_splitter_name_is_refused() -> None:
    with pytest.raises(UserError, match="unknown splitter"):
        get_splitter("sklearn")  # type: ignore[arg-type]


def test_make_splits_refuses_zero_iterations() -> None:
    with pytest.raises(UserError, match="iterations"):
        make_splits(["a", "a", "b", "b"], ["a", "b"], NumpySplitter(), iterations=0)


# --- the long table and the CLI ---------------------------------------------------------

def test_splits_frame_lists_train_then_test_with_one_based_rows() -> None:
    split = Split(train=np.array([2, 0]), test=np.array([1]), iteration=3)
    frame = splits_frame("toy", [split])
    assert frame.columns.tolist() == ["dataset", "iteration", "part", "position", "row"]
    assert frame.to_dict("records") == [
        {"dataset": "toy", "iteration": 3, "part": "train", "position": 1, "row": 3},
        {"dataset": "toy", "iteration": 3, "part": "train", "position": 2, "row": 1},
        {"dataset": "toy", "iteration": 3, "part": "test", "position": 1, "row": 2},
    ]
    assert splits_frame("toy", []).columns.tolist() == frame.columns.tolist()


@needs_shared
def test_cli_prints_the_r_splits_as_the_oracle_csv(
        capsys: pytest.CaptureFixture[str], oracle: pd.DataFrame) -> None:
    code = main(["splits", "--dataset", "spect_test", "--splitter", "r", "--iterations", "2",
                 "--arff", str(DATASETS / "spect_test.arff"),
                 "--class-attribute", "OVERALL_DIAGNOSIS"])
    assert code == 0
    expected = oracle[(oracle["dataset"] == "spect_test") & (oracle["iteration"] <= 2)]
    assert capsys.readouterr().out == expected.to_csv(index=False, lineterminator="\n")


def test_cli_numpy_splitter_reads_the_last_attribute_by_default(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    arff_file = tmp_path / "toy.arff"
    rows = "\n".join(f"{i},{'yes' if i % 3 else 'no'}" for i in range(12))
    arff_file.write_text("@relation toy\n@attribute x integer [0,20]\n"
                         f"@attribute class {{no,yes}}\n@data\n{rows}\n")
    assert main(["splits", "--dataset", "toy", "--arff", str(arff_file),
                 "--iterations", "1"]) == 0
    out = pd.read_csv(StringIO(capsys.readouterr().out))
    assert len(out) == 12 and set(out["part"]) == {"train", "test"}
    assert sorted(out["row"].tolist()) == list(range(1, 13))
    assert (out["part"] == "train").sum() == 2 + 4  # ceil(4/2) "no" + ceil(8/2) "yes"


def test_cli_refuses_a_non_nominal_class_attribute(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    arff_file = tmp_path / "num.arff"
    arff_file.write_text("@relation n\n@attribute c {a,b}\n@attribute x numeric\n@data\na,1\nb,2\n")
    assert main(["splits", "--dataset", "n", "--arff", str(arff_file)]) == 2
    assert "not nominal" in capsys.readouterr().err


def test_cli_refuses_an_unknown_class_attribute(tmp_path: Path) -> None:
    arff_file = tmp_path / "n.arff"
    arff_file.write_text("@relation n\n@attribute c {a,b}\n@data\na\nb\n")
    with pytest.raises(UserError, match="no attribute"):
        read_arff_class(arff_file, "klass")


@needs_shared
@pytest.mark.parametrize("dataset", ["spect_test", "monks2"])
def test_cli_by_registry_name_reads_the_mirror_and_matches_the_r_oracle(
        dataset: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        oracle: pd.DataFrame) -> None:
    # the registry knows spect_test's class is its first attribute: no --class-attribute
    code = main(["splits", "--dataset", dataset, "--splitter", "r", "--iterations", "3",
                 "--mirror", str(DATASETS), "--cache", str(tmp_path / "cache")])
    assert code == 0
    expected = oracle[(oracle["dataset"] == dataset) & (oracle["iteration"] <= 3)]
    assert capsys.readouterr().out == expected.to_csv(index=False, lineterminator="\n")


def test_cli_unknown_registry_name_lists_the_known_ones(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["splits", "--dataset", "no-such-data", "--mirror", "/nonexistent"]) == 2
    err = capsys.readouterr().err
    assert "unknown dataset 'no-such-data'" in err and "spambase" in err


def test_cli_missing_prepared_file_says_how_to_prepare_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "x.parquet"
    assert main(["splits", "--dataset", "x", "--prepared", str(missing)]) == 2
    err = capsys.readouterr().err
    assert str(missing) in err and "datasets prepare" in err


def test_cli_class_attribute_without_arff_is_refused(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["splits", "--dataset", "vote", "--class-attribute", "Class"]) == 2
    assert "--class-attribute applies to --arff only" in capsys.readouterr().err
