"""The workflow refuses a configuration mistake at start-up (``snakemake -n``), before any
job: what :func:`check_config` rejects (``tests/reproduction/test_config_check.py``), what the
schema bounds, a model registry naming no estimator class, options Weka refuses."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tests.conftest import SHARED
from tests.workflow.test_workflow import snakemake

# -- the workflow refuses a mistake before any job ----------------------------------------------

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
        ("significance", "rope", 2, "maximum"),
        ("significance", "samples", 10**8, "maximum"),  # 21.6 GB of draws, at the run's end
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
