"""The paper's facts (threshold_choice.reproduction.paper) agree with the config schema, the
published tables and the figure reports they describe."""

from __future__ import annotations

import csv

import yaml

from tests.conftest import REPO
from threshold_choice import methods
from threshold_choice.reproduction import paper
from threshold_choice.reproduction.tables import PUBLISHED_DIR, PUBLISHED_FILES

SCHEMA = yaml.safe_load((REPO / "workflow" / "schemas" / "config.schema.yaml").read_text())


def _header(name: str) -> tuple[str, ...]:
    with open(PUBLISHED_DIR / PUBLISHED_FILES[name], encoding="utf-8", newline="") as fh:
        return tuple(next(csv.reader(fh)))


def test_schema_method_enum_is_the_built_in_method_list():
    enum = SCHEMA["properties"]["evaluation"]["properties"]["methods"]["items"]["enum"]
    assert len(enum) == len(set(enum))
    assert tuple(enum) == methods.BUILTIN_METHODS


def test_schema_baselines_default_is_the_papers():
    default = SCHEMA["properties"]["models"]["properties"]["baselines"]["default"]
    assert tuple(default) == paper.BASELINES


def test_paper_methods_are_library_methods_with_table_columns():
    assert set(paper.PAPER_METHODS) <= set(methods.METHODS)
    assert tuple(paper.METHOD_COLUMNS) == paper.PAPER_METHODS


def test_table_columns_are_the_published_headers():
    assert _header("table5") == paper.TABLE5_COLUMNS
    assert _header("table7") == paper.TABLE7_COLUMNS
    assert _header("table8") == paper.TABLE8_COLUMNS


def test_every_figure_has_a_report_caption_and_known_models():
    captions = {p.stem for p in (REPO / "workflow" / "report").glob("fig*.rst")}
    assert set(paper.FIGURES) == captions
    registry = yaml.safe_load((REPO / "config" / "models_weka.yaml").read_text())
    known = {m["name"] for m in registry["models"]}
    for spec in paper.FIGURES.values():
        assert set(spec.models) <= known, spec
        assert (spec.dataset is None) == (not spec.models), spec


def test_figures_drawn_needs_the_dataset_and_every_model():
    unconditional = sorted(s for s, f in paper.FIGURES.items() if f.dataset is None)
    assert paper.figures_drawn([], []) == unconditional
    everything = paper.figures_drawn(
        {f.dataset for f in paper.FIGURES.values() if f.dataset},
        {m for f in paper.FIGURES.values() for m in f.models},
    )
    assert everything == sorted(paper.FIGURES)
    fig4 = paper.FIGURES["fig4"]
    assert "fig4" in paper.figures_drawn([fig4.dataset], fig4.models)
    assert "fig4" not in paper.figures_drawn([fig4.dataset], fig4.models[1:])
    assert "fig4" not in paper.figures_drawn(["spambase"], fig4.models)


def test_figure_models_is_the_union_in_order_of_first_appearance():
    union = paper.figure_models(paper.CREDIT_A_FIGURES)
    assert len(union) == len(set(union))
    assert set(union) == {m for s in paper.CREDIT_A_FIGURES for m in paper.FIGURES[s].models}
    firsts = [paper.FIGURES[s].models[0] for s in paper.CREDIT_A_FIGURES]
    assert [m for m in union if m in firsts] == list(dict.fromkeys(firsts))


def test_the_tolerance_of_the_schema_config_and_comparison_is_the_papers_precision():
    from threshold_choice.reproduction.comparison import DEFAULT_TOLERANCE

    comparison = SCHEMA["properties"]["comparison"]["properties"]["tolerance"]
    config = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    assert comparison["default"] == config["comparison"]["tolerance"] == paper.TOLERANCE
    assert DEFAULT_TOLERANCE == paper.TOLERANCE == 0.5e-3  # half a unit of the 3rd decimal
