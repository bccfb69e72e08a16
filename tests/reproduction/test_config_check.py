"""The configuration checks a JSON schema cannot express (:func:`check_config`): mistakes that
would misplace results or fail after the training are rejected at start-up (the workflow's
``snakemake -n``: ``tests/workflow/test_workflow_config.py``)."""

from __future__ import annotations

import copy
import logging
import math
import re
from pathlib import Path

import pandas as pd
import pytest
import yaml

from tests.conftest import REPO
from threshold_choice.errors import UserError
from threshold_choice.reproduction import layout
from threshold_choice.reproduction.config import _GAMMA_LABEL, check_config
from threshold_choice.reproduction.tables import PUBLISHED_FILES
from threshold_choice.uncertainty import parse_gamma

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


# -- results ------------------------------------------------------------------------------------


def changed(section: str | None = None, **values) -> dict:
    config = copy.deepcopy(DEFAULT)
    (config if section is None else config.setdefault(section, {})).update(values)
    return config


def rejected(config: dict, root: Path = REPO) -> str:
    with pytest.raises(UserError) as info:
        check_config(config, root=root)
    return str(info.value)


def test_empty_results_is_rejected():
    assert "results is empty" in rejected(changed(results=""))


@pytest.mark.parametrize("root", ["/", "//", "/tmp/.."])
def test_a_filesystem_root_as_results_is_rejected(root):
    assert "is the filesystem root" in rejected(changed(results=root))


def test_the_working_folder_as_results_is_rejected():
    assert "is the working folder itself" in rejected(changed(results="config/.."))


def test_braces_in_results_are_rejected():
    assert "wildcards" in rejected(changed(results="out{x}"))


@pytest.mark.parametrize(("value", "problem"), [
    ("..", "contains the working folder"),
    ("config", "is inside the repository's own folder config/"),
    ("src/results", "is inside the repository's own folder src/"),
    ("workflow/../tests", "is inside the repository's own folder tests/"),
    (".git/out", "is inside the repository's own folder .git/"),
])
def test_results_in_or_above_the_repositorys_own_folders_are_rejected(value, problem):
    assert f"config: results {value!r} {problem}" in rejected(changed(results=value))


@pytest.mark.parametrize("value", ["", "..", "config", "."])
def test_the_cache_folder_is_checked_like_results(value):
    assert "config: cache" in rejected(changed(cache=value))


def test_models_that_are_all_baselines_are_rejected_before_any_job():
    # they fitted and evaluated, then the tables and figures failed ("no runs of ...")
    message = rejected(changed("models", use=["Prior", "Random"], baselines=["Prior", "Random"]))
    assert "config: models.use names baselines only (Prior, Random)" in message


def test_a_download_cache_that_is_a_file_is_rejected_before_any_job(tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("")
    message = rejected(changed("data", cache=str(afile)))
    assert f"config: data.cache '{afile}' is a file, not a folder" in message
    assert "config: data.cache" in rejected(changed("data", cache="config"))  # as results


@pytest.mark.parametrize("gamma", [float("nan"), -1.0, "abc"])
def test_a_gamma_that_is_no_certainty_names_the_key(gamma):
    assert rejected(config_with(gammas=[math.inf, gamma])).startswith(
        "config: evaluation.gammas: gamma must be a number >= 0 or 'inf'")


def test_a_results_folder_of_ones_own_outside_the_repository_is_accepted(tmp_path):
    check_config(changed(results=str(tmp_path / "out"), cache=str(tmp_path / "cache")),
                 root=REPO)


def _runs_table(folder: Path, evaluation: dict) -> None:
    from threshold_choice.reproduction.runs import RUN_KEYS
    from threshold_choice.reproduction.steps import step_collect

    run = folder / "one.parquet"
    folder.mkdir(parents=True)
    pd.DataFrame({key: [1] for key in RUN_KEYS}).to_parquet(run)
    step_collect([run], folder / "runs.parquet", evaluation, learners="weka")


def test_a_run_under_other_conditions_may_not_replace_the_runs_of_a_results_folder(tmp_path):
    results = tmp_path / "results"
    _runs_table(results, {**DEFAULT["evaluation"]})
    config = changed(results=str(results))
    config["evaluation"] = {**config["evaluation"], "cost_distribution": "beta:2,2"}
    message = rejected(config)
    assert "holds runs under the paper's conditions" in message
    assert "(c ~ beta:2,2) would replace" in message
    assert str(results / "runs.parquet") in message  # how to replace them on purpose


def test_a_run_under_the_same_conditions_may_update_a_results_folder(tmp_path):
    results = tmp_path / "results"
    _runs_table(results, {**DEFAULT["evaluation"], "cost_distribution": "beta:2,2"})
    config = changed(results=str(results))
    config["evaluation"] = {**config["evaluation"], "cost_distribution": "beta:2,2",
                            "gammas": ["inf", 1]}
    check_config(config, root=REPO)


# -- evaluation settings as the evaluate step combines them -------------------------------------


@pytest.mark.parametrize(("settings", "problem"), [
    ({"cost_distribution": "beta:0,2"}, "cost distribution beta:0,2: beta:A,B needs 1 <= A"),
    ({"cost_distribution": "uniform:0.9,0.1"}, "uniform:LO,HI needs 0 <= LO < HI <= 1"),
    ({"loss": "f-measure"}, "tie_breaking 'authors' reproduces the authors' accuracy"),
    ({"loss": "f-measure", "tie_breaking": "project", "prior": 0.3},
     "a deployment prior applies to the accuracy loss only"),
    ({"grid_size": 200000}, "grid_size 200000 is above the maximum 100000"),
])
def test_bad_combinations_of_evaluation_settings_are_rejected(tmp_path, settings, problem):
    config = changed(results=str(tmp_path / "results"))
    config["evaluation"] = {**config["evaluation"], **settings}
    message = rejected(config)
    assert message.startswith("config: evaluation: ")
    assert problem in message
    assert "\n" not in message


def test_the_schemas_grid_size_bound_is_the_librarys():
    from threshold_choice.uncertainty import MAX_GRID_SIZE

    schema = yaml.safe_load((REPO / "workflow" / "schemas" / "config.schema.yaml").read_text())
    grid = schema["properties"]["evaluation"]["properties"]["grid_size"]
    assert grid["else"]["maximum"] == MAX_GRID_SIZE


# -- numbers YAML reads as text -----------------------------------------------------------------


def test_unquoted_exponent_gamma_says_how_to_write_it():
    config = changed("evaluation")
    config["evaluation"]["gammas"] = yaml.safe_load("[inf, 1e6]")
    assert config["evaluation"]["gammas"][1] == "1e6"  # the YAML 1.1 behaviour checked
    message = rejected(config)
    assert "YAML reads 1e6 as the text '1e6'" in message
    assert "write it as 1.0e+6 or 1000000" in message
    # both suggested spellings are numbers to PyYAML, and the right one
    for spelling in ("1.0e+6", "1000000"):
        assert yaml.safe_load(spelling) == 1e6


def test_unquoted_exponent_integer_setting_suggests_the_integer():
    config = changed("evaluation", grid_size=yaml.safe_load("1e3"))
    message = rejected(config)
    assert "evaluation.grid_size" in message and "write it as 1000," in message
    assert yaml.safe_load("1000") == 1000


def test_a_quoted_number_is_rejected_as_text():
    message = rejected(changed("evaluation", grid_size="1000"))
    assert "evaluation.grid_size: '1000' is text; write an integer, unquoted" in message


def test_unquoted_exponent_tolerance_suggests_readable_spellings():
    message = rejected(changed("comparison", tolerance=yaml.safe_load("5e-4")))
    suggested = message.split("write it as ")[1].split(", unquoted")[0].split(" or ")
    assert [yaml.safe_load(s) for s in suggested] == [5e-4, 5e-4]


# -- gammas -------------------------------------------------------------------------------------


@pytest.mark.parametrize(("first", "second"), [("inf", "Inf"), (4, "4.0"), (0.5, "0.50")])
def test_one_gamma_under_two_spellings_is_rejected(first, second):
    assert parse_gamma(first) == parse_gamma(second)
    message = rejected(changed("evaluation", gammas=["inf", first, second] if first != "inf"
                               else [first, second]))
    assert "lists one certainty level twice" in message


@pytest.mark.parametrize(("gamma", "label"), [(1e-5, "1e-05"), (1e70, "1e+70"), (1e20, "1e+20"),
                                              (0.0001, "0.0001"), (0, "0")])
def test_tiny_and_huge_gammas_name_their_files_in_exponent_form(gamma, label):
    from threshold_choice.uncertainty import gamma_label

    check_config(changed("evaluation", gammas=["inf", gamma]), root=REPO)
    assert gamma_label(gamma) == label


def test_gamma_labels_of_the_check_match_the_workflows_wildcard():
    # the check must accept exactly the gamma labels that common.smk's wildcard accepts: both
    # read the layout's pattern
    common = (REPO / "workflow" / "rules" / "common.smk").read_text()
    assert re.search(r"^\s*gamma=layout\.GAMMA_LABEL,$", common, re.M)
    assert _GAMMA_LABEL.pattern == f"^({layout.GAMMA_LABEL})$"


# -- names and folders --------------------------------------------------------------------------


def test_unknown_baseline_names_are_rejected():
    config = copy.deepcopy(DEFAULT)
    config["models"]["baselines"] = ["Prior", "Randm"]
    message = rejected(config)
    assert "models.baselines names unknown model(s) Randm" in message


def test_a_missing_published_folder_is_rejected():
    message = rejected(changed("comparison", published="no/such/folder"))
    assert "comparison.published 'no/such/folder' is not a folder" in message


def test_a_published_folder_lacking_a_table_is_rejected(tmp_path):
    absent, *present = PUBLISHED_FILES.values()
    for name in present:
        (tmp_path / name).write_text((REPO / "config" / "published" / name).read_text())
    message = rejected(changed("comparison", published=str(tmp_path)))
    assert f"lacks {absent}" in message


def test_a_missing_mirror_is_rejected_when_a_dataset_has_no_other_source():
    config = changed(datasets=["badges2", "haberman"])
    config["data"]["mirror"] = "no/such/mirror"
    message = rejected(config)
    assert f"data.mirror names {REPO / 'no/such/mirror'}, which does not exist" in message
    assert "badges2 can only come from the mirror" in message


def test_a_missing_mirror_is_a_warning_when_every_dataset_has_a_public_source(caplog):
    config = changed(datasets=["haberman"])
    config["data"]["mirror"] = "no/such/mirror"
    with caplog.at_level(logging.WARNING, logger="threshold_choice"):
        check_config(config, root=REPO)
    assert any(f"data.mirror names {REPO / 'no/such/mirror'}, which does not exist" in r.message
               for r in caplog.records)


def test_a_mirror_that_is_a_file_is_called_a_file_not_missing(caplog):
    config = changed(datasets=["badges2", "haberman"])
    config["data"]["mirror"] = "config/config.yaml"
    message = rejected(config)
    assert (f"config: data.mirror names {REPO / 'config/config.yaml'}, which is a file, not a "
            "folder, and badges2 can only come from the mirror (no public source): set "
            "data.mirror to the folder holding the paper's ARFF files and their SHA256SUMS "
            "(not a file in it), or drop those datasets") == message
    config = changed(datasets=["haberman"])
    config["data"]["mirror"] = "config/config.yaml"
    with caplog.at_level(logging.WARNING, logger="threshold_choice"):
        check_config(config, root=REPO)
    warned = [r.getMessage() for r in caplog.records if "data.mirror" in r.getMessage()]
    assert warned and all("which is a file, not a folder" in w and "does not exist" not in w
                          for w in warned), warned


@pytest.mark.parametrize("registry", [["config"], "config", ["config/models_weka.yaml",
                                                                "config"]])
def test_a_folder_given_as_a_model_registry_is_called_a_folder(registry):
    config = copy.deepcopy(DEFAULT)
    config["models"]["registry"] = registry
    message = rejected(config)
    assert message == (
        "config: models.registry names 'config', which is a folder, not a registry file "
        "(YAML); list the registry files themselves, e.g. [config/models_weka.yaml, "
        "config/models_added.yaml]")


def test_a_folder_given_as_the_dataset_registry_is_called_a_folder():
    config = copy.deepcopy(DEFAULT)
    config["data"]["registry"] = "config"
    assert rejected(config) == (
        "config: data.registry names 'config', which is a folder, not a registry file (YAML); "
        "name the registry file itself, e.g. config/datasets.yaml")


def test_a_model_registry_that_does_not_exist_names_the_setting():
    config = copy.deepcopy(DEFAULT)
    config["models"]["registry"] = ["config/models_weka.yaml", "config/no-such.yaml"]
    message = rejected(config)
    assert message.startswith("config: models.registry names 'config/no-such.yaml', which "
                              "does not exist")
    assert "list the registry files themselves" in message


def test_the_authors_estimator_needs_the_authors_12_models_and_their_splits() -> None:
    check_config(config_with(estimator="authors"), root=REPO)
    fewer = config_with(estimator="authors")
    fewer["models"]["use"] = [m for m in fewer["models"]["use"] if m != "NB"]
    with pytest.raises(UserError, match=r"models\.use must be exactly"):
        check_config(fewer, root=REPO)
    numpy_splits = config_with(estimator="authors")
    numpy_splits["splits"]["splitter"] = "numpy"
    with pytest.raises(UserError, match=r"set splits\.splitter: r"):
        check_config(numpy_splits, root=REPO)


def _jvm_starts(monkeypatch, tmp_path, models) -> list:
    """The processes :func:`_check_weka_options` starts to check ``models``."""
    import subprocess

    from threshold_choice.reproduction import config as config_module

    started = []

    def run(cmd, **kwargs):
        started.append(cmd)
        return subprocess.CompletedProcess(cmd, 0, stdout="{}\n", stderr="")

    monkeypatch.setattr(subprocess, "run", run)
    jar = tmp_path / "weka.jar"
    jar.write_bytes(b"jar")
    config_module._check_weka_options(models, str(jar), tmp_path / "checked")
    return started


def test_the_papers_weka_learners_start_no_jvm_before_the_run(monkeypatch, tmp_path):
    # they are built in both Wekas by the tests (test_the_papers_weka_learners_are_built_by_...)
    from threshold_choice.models.weka import PAPER_WEKA_MODELS

    paper = {name: (classname, list(options))
             for name, (classname, options, _) in PAPER_WEKA_MODELS.items()}
    assert _jvm_starts(monkeypatch, tmp_path, paper) == []


def test_a_weka_learner_with_options_of_ones_own_is_built_before_the_run(monkeypatch, tmp_path):
    models = {"IBK1": ("weka.classifiers.lazy.IBk", ["-K", "1"]),
              "IBK3": ("weka.classifiers.lazy.IBk", ["-K", "3"])}
    (started,) = _jvm_starts(monkeypatch, tmp_path, models)
    assert '"IBK3"' in started[3] and '"IBK1"' not in started[3]
