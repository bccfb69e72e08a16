"""Table 5 regeneration and its cell-by-cell comparison with the published table."""

from __future__ import annotations

import numpy as np
import pandas as pd

from tests.conftest import SHARED
from threshold_choice.cli import main
from threshold_choice.datasets import load_prepared
from threshold_choice.datasets.prepare import PreparedDataset
from threshold_choice.reproduction.table5 import compare_table5, table5

PUBLISHED = SHARED / "reference" / "published_table5_datasets.csv"


def _fake(number: int, name: str, n_features: int, y: list[int]) -> PreparedDataset:
    X = pd.DataFrame({f"f{i}": np.zeros(len(y)) for i in range(n_features)})
    return PreparedDataset(name.lower(), X, np.array(y, dtype=np.int8), ["a", "b"], "b",
                           {"table5": {"number": number, "name": name}})


def test_attributes_count_the_class_and_majority_is_the_class1_share():
    ours = table5([_fake(2, "Two", 3, [1, 1, 0, 1]), _fake(1, "One", 1, [1, 0])])
    assert ours.to_dict("records") == [
        {"number": 1, "dataset": "One", "instances": 2, "attributes": 2, "majority": 0.5},
        {"number": 2, "dataset": "Two", "instances": 4, "attributes": 4, "majority": 0.75},
    ]


def test_comparison_lists_every_cell_and_flags_each_difference():
    published = pd.DataFrame({"number": [1, 2], "dataset": ["one", "Two"],
                              "instances": [2, 5], "attributes": [2, 4],
                              "majority": [0.5, 0.73]})
    ours = table5([_fake(1, "One", 1, [1, 0]), _fake(2, "Two", 3, [1, 1, 0, 1])])
    diff = compare_table5(ours, published)
    assert len(diff) == 8
    bad = diff[~diff["match"]]
    assert sorted(zip(bad["number"], bad["column"], strict=True)) == [
        (2, "instances"), (2, "majority")]
    assert bad.set_index("column").loc["instances", "difference"] == -1
    assert np.isclose(bad.set_index("column").loc["majority", "difference"], 0.02)


def test_majority_rounds_half_up_to_the_published_precision():
    published = pd.DataFrame({"number": [1], "dataset": ["x"], "instances": [8],
                              "attributes": [2], "majority": [0.63]})
    ours = table5([_fake(1, "x", 1, [1] * 5 + [0] * 3)])  # 0.625
    assert compare_table5(ours, published)["match"].all()


def test_a_dataset_missing_on_one_side_is_a_difference():
    published = pd.DataFrame({"number": [1, 2], "dataset": ["x", "y"], "instances": [2, 2],
                              "attributes": [2, 2], "majority": [0.5, 0.5]})
    diff = compare_table5(table5([_fake(1, "x", 1, [1, 0])]), published)
    assert set(diff.loc[~diff["match"], "number"]) == {2}


def test_cli_prepares_and_checks_table5(tmp_path, capsys):
    out = tmp_path / "prepared"
    code = main(["datasets", "prepare", "--name", "haberman", "--name", "vote",
                 "--mirror", str(SHARED / "datasets"), "--out", str(out)])
    assert code == 0 and sorted(p.name for p in out.glob("*.parquet")) == [
        "haberman.parquet", "vote.parquet"]
    assert load_prepared(out / "vote.parquet").meta["source"]["kind"] == "mirror"
    # the published table has 26 rows: the 24 not prepared here are reported as differences
    code = main(["datasets", "table5", "--prepared", str(out), "--published", str(PUBLISHED),
                 "--out", str(tmp_path / "t5.csv")])
    assert code == 1
    assert "compared 104 cells" in capsys.readouterr().out
    assert list(pd.read_csv(tmp_path / "t5.csv")["dataset"]) == ["Haberman", "Vote"]


def test_cli_reports_an_unknown_dataset_as_a_user_error(tmp_path, capsys):
    code = main(["datasets", "prepare", "--name", "iris", "--out", str(tmp_path)])
    assert code == 2
    assert "unknown dataset 'iris'" in capsys.readouterr().err


def test_configured_mirror_resolves_data_mirror_relative_to_the_repository(tmp_path):
    from threshold_choice.datasets.fetch import configured_mirror

    repo = tmp_path / "repo"
    (repo / "config").mkdir(parents=True)
    (tmp_path / "mirror").mkdir()
    config = repo / "config" / "config.yaml"
    config.write_text("data:\n  mirror: ../mirror\n")
    assert configured_mirror(config) == (tmp_path / "mirror").resolve()
    config.write_text("data:\n  mirror: ../absent\n")
    assert configured_mirror(config) is None
    config.write_text("data:\n  mirror: null\n")
    assert configured_mirror(config) is None


def test_cli_prepare_uses_the_configured_mirror_by_default(tmp_path, monkeypatch):
    import threshold_choice.datasets.registry as registry

    config = tmp_path / "repo" / "config" / "config.yaml"
    config.parent.mkdir(parents=True)
    config.write_text(f"data:\n  mirror: {SHARED / 'datasets'}\n")
    monkeypatch.setattr(registry, "DEFAULT_CONFIG", config)
    out = tmp_path / "prepared"
    assert main(["datasets", "prepare", "--name", "haberman", "--out", str(out)]) == 0
    assert load_prepared(out / "haberman.parquet").meta["source"]["kind"] == "mirror"
