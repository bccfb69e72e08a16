"""The configuration checks a JSON schema cannot express (:func:`check_config`)."""

from __future__ import annotations

import copy

import pytest
import yaml

from tests.conftest import REPO
from threshold_choice.errors import UserError
from threshold_choice.reproduction.config import check_config

DEFAULT = yaml.safe_load((REPO / "config" / "config.yaml").read_text())


def config_with(**evaluation) -> dict:
    config = copy.deepcopy(DEFAULT)
    config["evaluation"].update(evaluation)
    return config


def test_the_default_configuration_passes() -> None:
    check_config(DEFAULT, root=REPO)


@pytest.mark.parametrize("spelling", ["inf", "Inf", "Infinity", float("inf")])
def test_any_spelling_of_infinity_counts_as_gamma_inf(spelling) -> None:
    check_config(config_with(gammas=[spelling, 0]), root=REPO)


def test_gammas_without_infinity_are_rejected() -> None:
    with pytest.raises(UserError, match="must include inf"):
        check_config(config_with(gammas=[16, 0]), root=REPO)


def test_a_missing_weka_jar_is_named() -> None:
    config = copy.deepcopy(DEFAULT)
    config["models"]["weka_jar"] = "no/such/weka.jar"
    with pytest.raises(UserError, match=r"models\.weka_jar: Weka jar .* not found"):
        check_config(config, root=REPO)
