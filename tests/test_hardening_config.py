"""Configuration mistakes that would misplace results or fail after the training are
rejected at start-up (:func:`check_config`, and ``snakemake -n`` before any job)."""

from __future__ import annotations

import copy
import logging
import re
from pathlib import Path

import pandas as pd
import pytest
import yaml

from tests.conftest import REPO, SHARED
from tests.workflow.test_workflow import snakemake
from threshold_choice.errors import UserError
from threshold_choice.reproduction import layout
from threshold_choice.reproduction.config import _GAMMA_LABEL, check_config
from threshold_choice.reproduction.tables import PUBLISHED_FILES
from threshold_choice.uncertainty import parse_gamma

DEFAULT = yaml.safe_load((REPO / "config" / "config.yaml").read_text())


def changed(section: str | None = None, **values) -> dict:
    config = copy.deepcopy(DEFAULT)
    (config if section is None else config.setdefault(section, {})).update(values)
    return config


def rejected(config: dict, root: Path = REPO) -> str:
    with pytest.raises(UserError) as info:
        check_config(config, root=root)
    return str(info.value)


# -- results -------------------------------------------------------------------------------------


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


# -- evaluation settings as the evaluate step combines them --------------------------------------


@pytest.mark.parametrize(("settings", "problem"), [
    ({"cost_distribution": "beta:0,2"}, "cost distribution beta:0,2: beta:A,B needs 1 <= A"),
    ({"cost_distribution": "uniform:0.9,0.1"}, "uniform:LO,HI needs 0 <= LO < HI <= 1"),
    ({"loss": "f-measure"}, "tie_breaking 'authors' reproduces the authors' accuracy"),
    ({"loss": "f-measure", "tie_breaking": "project", "prior": 0.3},
     "a deployment prior applies to the accuracy loss only"),
    ({"grid_size": 200000}, "grid size 200000 is above the maximum 100000"),
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


# -- numbers YAML reads as text ------------------------------------------------------------------


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


# -- gammas --------------------------------------------------------------------------------------


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


# -- names and folders ---------------------------------------------------------------------------


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


# -- the workflow refuses them before any job ----------------------------------------------------

TINY_YAML = """\
results: {results}
cache: {tmp}/shared-cache
data: {{mirror: {mirror}, registry: config/datasets.yaml, cache: {tmp}/cache}}
datasets: [haberman]
models: {{registry: {registry}, use: [Prior, NB], baselines: {baselines}}}
splits: {{splitter: numpy, iterations: 2}}
evaluation:
  gammas: {gammas}
  methods: [test-optimal, train-optimal, score-driven, rate-driven]
comparison: {{published: {published}}}
"""


def write_tiny(tmp_path: Path, **overrides: str) -> Path:
    """A tiny configuration written as YAML text (so that ``1e6`` stays unquoted)."""
    fields = {
        "results": str(tmp_path / "results"), "mirror": str(SHARED / "datasets"),
        "tmp": str(tmp_path), "registry": "config/models.yaml", "baselines": "[Prior]",
        "gammas": "[inf, 4]", "published": "config/published", **overrides,
    }
    path = tmp_path / "config.yaml"
    path.write_text(TINY_YAML.format(**fields))
    return path


@pytest.mark.slow
def test_the_tiny_yaml_config_is_accepted(tmp_path):
    proc = snakemake("--dry-run", config_file=write_tiny(tmp_path), check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"results": '""'}, "config: results is empty"),
        ({"gammas": "[inf, Inf, 4]"}, "lists one certainty level twice"),
        ({"gammas": '[inf, 4, "4.0"]'}, "lists one certainty level twice"),
        ({"gammas": "[inf, 1e6]"}, "write it as 1.0e+6 or 1000000"),
        ({"baselines": "[Prior, Randm]"}, "models.baselines names unknown model(s) Randm"),
        ({"published": "no/such/folder"}, "comparison.published 'no/such/folder' is not a folder"),
    ],
    ids=["empty-results", "inf-twice", "4-twice", "1e6", "baseline", "published"],
)
def test_the_workflow_rejects_it_before_any_job(tmp_path, overrides, message):
    proc = snakemake("--dry-run", config_file=write_tiny(tmp_path, **overrides), check=False)
    assert proc.returncode != 0
    assert message in proc.stdout + proc.stderr
    assert "Job stats" not in proc.stdout + proc.stderr  # nothing was planned


@pytest.mark.slow
def test_the_workflow_plans_the_tables_of_a_tiny_gamma(tmp_path):
    proc = snakemake("--dry-run", config_file=write_tiny(tmp_path, gammas="[inf, 0.00001]"))
    assert "table7_gamma-1e-05.csv" in proc.stdout + proc.stderr


@pytest.mark.slow
def test_the_workflow_refuses_a_non_estimator_class_without_running_it(tmp_path):
    marker = tmp_path / "ran"
    registry = tmp_path / "models.yaml"
    registry.write_text(yaml.safe_dump({"format_version": 1, "models": [
        {"name": "Prior", "estimator": "threshold_choice.models.baselines:PriorScorer"},
        {"name": "NB", "estimator": "subprocess:Popen", "params": {"args": ["touch", str(marker)]}},
    ]}))
    proc = snakemake("--dry-run", config_file=write_tiny(tmp_path, registry=str(registry)),
                     check=False)
    assert proc.returncode != 0
    assert "'subprocess:Popen' is not a scikit-learn estimator class" in proc.stdout + proc.stderr
    assert not marker.exists()


@pytest.mark.slow
@pytest.mark.parametrize(
    ("section", "key", "value", "limit"),
    [
        ("evaluation", "grid_size", 10**7, "maximum"),
        ("evaluation", "seed", -1, "minimum"),
        ("comparison", "tolerance", 2, "maximum"),
        ("splits", "iterations", 0, "minimum"),
    ],
)
def test_the_schema_bounds_numbers(tmp_path, section, key, value, limit):
    config = yaml.safe_load(write_tiny(tmp_path).read_text())
    config.setdefault(section, {})[key] = value
    path = tmp_path / "bounded.yaml"
    path.write_text(yaml.safe_dump(config))
    proc = snakemake("--dry-run", config_file=path, check=False)
    assert proc.returncode != 0
    out = proc.stdout + proc.stderr
    assert f"{value} is {'greater' if limit == 'maximum' else 'less'} than the {limit}" in out
    assert f"['{section}']['{key}']" in out


def test_gamma_labels_of_the_check_match_the_workflows_wildcard():
    # the check must accept exactly the gamma labels that common.smk's wildcard accepts: both
    # read the layout's pattern
    common = (REPO / "workflow" / "rules" / "common.smk").read_text()
    assert re.search(r"^\s*gamma=layout\.GAMMA_LABEL,$", common, re.M)
    assert _GAMMA_LABEL.pattern == f"^({layout.GAMMA_LABEL})$"


@pytest.mark.slow
def test_weka_options_weka_refuses_stop_the_workflow_before_any_job(tmp_path):
    def registry(options):
        path = tmp_path / "models.yaml"
        path.write_text(yaml.safe_dump({"format_version": 1, "models": [
            {"name": "Prior", "estimator": "threshold_choice.models.baselines:PriorScorer"},
            {"name": "NB", "estimator": "threshold_choice.models.weka:WekaClassifier",
             "params": {"classname": "weka.classifiers.lazy.IBk", "options": options}},
        ]}))
        return str(path)

    proc = snakemake("--dry-run", config_file=write_tiny(
        tmp_path, registry=registry(["-K", "zero"])), check=False)
    out = proc.stdout + proc.stderr
    assert proc.returncode != 0
    assert "config: model 'NB': Weka weka.classifiers.lazy.IBk -K zero: Weka refused the " \
           "options" in out
    assert "Job stats" not in out  # nothing was planned
    proc = snakemake("--dry-run", config_file=write_tiny(
        tmp_path, registry=registry(["-K", "3"])), check=False)
    assert proc.returncode == 0, proc.stderr[-2000:]
