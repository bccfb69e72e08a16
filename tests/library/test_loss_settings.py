"""``LossSettings``: construction from a configuration mapping, and the new options on the CLI."""

from __future__ import annotations

import json
import re
from io import StringIO

import pandas as pd
import pytest
import yaml

from tests.conftest import REPO, random_scores
from threshold_choice.cli import main
from threshold_choice.cost_distributions import SPEC_PATTERN, parse_cost_distribution
from threshold_choice.errors import UserError
from threshold_choice.evaluation import LossSettings


def test_from_mapping_builds_the_same_settings_as_keywords():
    mapping = {"estimator": "grid", "grid_size": 500, "seed": 3, "rate_threshold_offset": 1e-7,
               "tie_breaking": "authors", "cost_distribution": "beta:2,2", "prior": 0.3}
    assert LossSettings.from_mapping(mapping) == LossSettings(**mapping)
    assert LossSettings.from_mapping({}) == LossSettings()
    assert LossSettings.from_mapping(mapping).distribution == parse_cost_distribution("beta:2,2")


def test_from_mapping_rejects_unknown_keys_by_name():
    with pytest.raises(UserError, match=r"unknown loss setting\(s\) gammas, grid-size; known:"):
        LossSettings.from_mapping({"gammas": [4], "grid-size": 10})


@pytest.mark.parametrize(
    ("mapping", "message"),
    [
        ({"cost_distribution": "gauss"}, "not understood"),
        ({"prior": 1.0}, "prior"),
        ({"grid_size": 10**9}, "above the maximum"),
        ({"grid_size": 0}, "grid_size must be >= 1"),
        ({"estimator": "mean"}, "unknown estimator"),
    ],
)
def test_from_mapping_validates_values(mapping, message):
    with pytest.raises(UserError, match=message):
        LossSettings.from_mapping(mapping)


def test_the_config_schema_knows_cost_distribution_with_the_uniform_default():
    schema = yaml.safe_load((REPO / "workflow/schemas/config.schema.yaml").read_text())
    entry = schema["properties"]["evaluation"]["properties"]["cost_distribution"]
    assert entry["default"] == "uniform"
    assert entry["pattern"] == SPEC_PATTERN
    for spec in ("uniform", "beta:2,2", "uniform:0.05,0.2", "logit-uniform:0.01,0.5"):
        assert re.match(entry["pattern"], spec)


@pytest.fixture
def test_csv(tmp_path):
    y, s = random_scores(71, 60, decimals=2)
    path = tmp_path / "test.csv"
    pd.DataFrame({"label": y, "score": s}).to_csv(path, index=False)
    return str(path)


def run(capsys, *args):
    code = main(["loss", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_loss_takes_a_cost_distribution_and_keeps_its_output_format(test_csv, capsys):
    code, plain, _ = run(capsys, "--test", test_csv, "--gamma", "4")
    code2, beta, _ = run(capsys, "--test", test_csv, "--gamma", "4",
                         "--cost-distribution", "beta:2,2")
    assert code == code2 == 0
    a = pd.read_csv(StringIO(plain.split("\n\n")[0]))
    b = pd.read_csv(StringIO(beta.split("\n\n")[0]))
    assert list(a.columns) == list(b.columns) and a["method"].tolist() == b["method"].tolist()
    assert (a["expected_loss"] != b["expected_loss"]).all()
    code3, payload, _ = run(capsys, "--test", test_csv, "--gamma", "4", "--format", "json",
                            "--cost-distribution", "uniform:0.1,0.3", "--prior", "0.4")
    assert code3 == 0
    assert {"BS_bounded", "LogLoss_bounded", "H"} <= set(json.loads(payload)["metrics"])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--cost-distribution", "beta:0,1"], "1 <= A, B"),
        (["--cost-distribution", "normal"], "not understood"),
        (["--prior", "1"], "must be a number in (0, 1)"),
    ],
)
def test_bad_operating_conditions_exit_2_with_one_line(test_csv, capsys, args, message):
    code, _, err = run(capsys, "--test", test_csv, *args)
    assert code == 2
    assert message in err and len(err.strip().splitlines()) == 1


def test_every_loss_setting_can_be_given_in_the_config():
    from dataclasses import fields

    from threshold_choice.evaluation import LossSettings

    schema = yaml.safe_load((REPO / "workflow/schemas/config.schema.yaml").read_text())
    known = set(schema["properties"]["evaluation"]["properties"])
    assert {f.name for f in fields(LossSettings)} <= known
