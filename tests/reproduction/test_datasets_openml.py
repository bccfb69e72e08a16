"""The OpenML path, through the real ``openml`` client reading a local cache, network disabled.

Fixtures, written by the tests: a tiny dataset in the paper's layout (a mirror folder with
its ``SHA256SUMS``), the same data laid out as openml-python caches an OpenML upload
(``org/openml/www/datasets/<id>/description.xml`` + ``dataset.arff``), and OpenML-shaped
re-encodings of the paper's files, built below, to check the registry's transforms.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import openml
import pytest
import yaml

from tests.conftest import SHARED
from threshold_choice.datasets import load_prepared, load_registry, prepare_dataset
from threshold_choice.datasets.arff import read_arff
from threshold_choice.datasets.errors import (
    ArffFormatError,
    ContentHashMismatchError,
    TransformError,
)
from threshold_choice.datasets.table import Table, content_hash

MIRROR = SHARED / "datasets"
DESCRIPTION = """<oml:data_set_description xmlns:oml="http://openml.org/openml">
  <oml:id>{id}</oml:id><oml:name>{name}</oml:name><oml:version>1</oml:version>
  <oml:description>fixture</oml:description><oml:format>ARFF</oml:format>
  <oml:upload_date>2014-04-06T23:21:10</oml:upload_date>
  <oml:url>https://api.openml.org/data/v1/download/{id}/{name}.arff</oml:url>
  {extra}<oml:visibility>public</oml:visibility><oml:status>active</oml:status>
</oml:data_set_description>
"""

TINY_MIRROR_ARFF = """\
% Test fixture in the paper's layout (class last, labels 1/2); TINY_OPENML_ARFF holds the
% same data encoded differently.
@relation tiny

@attribute size numeric
@attribute 'colour name' { red, green, blue}
@attribute weight real
@attribute Class {1,2}

@data
1,red,1.5,2
2,green,2,1
3,?,0,2
1,blue,?,2
2,red,10,1
"""

TINY_OPENML_ARFF = """\
% OpenML-style encoding of TINY_MIRROR_ARFF:
% class first with labels 0/1, other attribute names, numbers written with decimals,
% "size" nominal here but numeric in the paper's file, a row id and an ignored attribute.
@RELATION tiny-monks-like

@ATTRIBUTE row_id INTEGER
@ATTRIBUTE class {0,1}
@ATTRIBUTE attr1 {1,2,3}
@ATTRIBUTE "colour name" {"red","green","blue"}
@ATTRIBUTE weight REAL
@ATTRIBUTE split_flag {1,2}
@ATTRIBUTE note STRING

@DATA
1,1,1,"red",1.50,1,'a'
2,0,2,"green",2.00,2,'b'
3,1,3,?,-0.0,1,'a'
4,1,1,"blue",?,2,'c'
5,0,2,"red",1e1,1,'b'
"""

TINY_OPENML_EXTRA = (
    "<oml:default_target_attribute>class</oml:default_target_attribute>"
    "<oml:row_id_attribute>row_id</oml:row_id_attribute>"
    "<oml:ignore_attribute>split_flag</oml:ignore_attribute>"
)


def make_mirror(folder: Path) -> Path:
    """A mirror folder holding tiny.arff and its SHA256SUMS line."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "tiny.arff").write_text(TINY_MIRROR_ARFF)
    digest = hashlib.sha256(TINY_MIRROR_ARFF.encode()).hexdigest()
    (folder / "SHA256SUMS").write_text(f"{digest}  tiny.arff\n")
    return folder


def make_openml_cache(cache: Path) -> None:
    """``cache/openml`` laid out as openml-python caches dataset 990001."""
    folder = describe_in_cache(cache, 990001, "tiny-monks-like", TINY_OPENML_EXTRA)
    (folder / "dataset.arff").write_text(TINY_OPENML_ARFF)


def describe_in_cache(cache_dir: Path, did: int, name: str, extra: str = "") -> Path:
    """The cache folder of OpenML dataset ``did`` with its description.xml; returns it."""
    folder = cache_dir / "openml" / "org" / "openml" / "www" / "datasets" / str(did)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "description.xml").write_text(DESCRIPTION.format(id=did, name=name, extra=extra))
    return folder


def _quote(label: str) -> str:
    return "'" + label.replace("\\", "\\\\").replace("'", "\\'") + "'"


def write_arff(path: Path, table: Table, relation: str = "fixture") -> None:
    """ARFF text of a table, numbers written with decimals (as OpenML's exports do)."""
    lines = [f"@RELATION {relation}", ""]
    for col in table.columns:
        kind = "{" + ",".join(_quote(c) for c in col.categories) + "}" \
            if col.kind == "nominal" else "REAL"
        lines.append(f"@ATTRIBUTE {_quote(col.name)} {kind}")
    lines += ["", "@DATA"]
    cells = [
        ["?" if np.isnan(v) else f"{v:.6f}" for v in col.values] if col.kind == "numeric"
        else ["?" if lab is None else _quote(lab) for lab in col.labels()]
        for col in table.columns
    ]
    lines += [",".join(row) for row in zip(*cells, strict=True)]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n")


def put_in_cache(cache_dir: Path, did: int, table: Table, extra: str = "") -> None:
    """Lay a table out as openml-python's cache of dataset ``did``."""
    write_arff(describe_in_cache(cache_dir, did, f"d{did}", extra) / "dataset.arff", table)


def _tiny_registry(tmp_path: Path, transforms: list) -> Path:
    _, paper = read_arff(make_mirror(tmp_path / "mirror") / "tiny.arff")
    doc = {
        "format_version": 1,
        "hash_format": "threshold-choice-table-v1",
        "datasets": {"tiny": {
            "table5": {"number": 1, "name": "Tiny"},
            "mirror_file": "tiny.arff",
            "target": "Class",
            "label_of_class1": "2",
            "expected": {"n_rows": 5, "n_columns": 4, "class_counts": {"1": 2, "2": 3},
                         "content_sha256": content_hash(paper)},
            "source": {"kind": "openml", "id": 990001, "keep_ignored": [],
                       "transforms": transforms, "note": "test fixture"},
            "provenance": "tiny test fixture",
        }},
    }
    path = tmp_path / "registry.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    return path


TINY_TRANSFORMS = [
    {"rename": {"attr1": "size", "class": "Class"}},
    {"select": ["size", "colour name", "weight", "Class"]},
    {"recode": {"Class": {"0": "1", "1": "2"}}},
    {"to_numeric": ["size"]},
]


def test_openml_cache_fixture_maps_onto_the_papers_table_without_network(tmp_path, no_network):
    cache = tmp_path / "cache"
    make_openml_cache(cache)
    registry = load_registry(_tiny_registry(tmp_path, TINY_TRANSFORMS))
    user_cache = openml.config.get_config_as_dict()["cachedir"]
    via_openml = prepare_dataset("tiny", out_dir=tmp_path / "a", cache_dir=cache, mirror=None,
                                 registry=registry)
    via_mirror = prepare_dataset("tiny", out_dir=tmp_path / "b", cache_dir=cache,
                                 mirror=tmp_path / "mirror", registry=registry)
    a, b = load_prepared(via_openml), load_prepared(via_mirror)
    assert no_network == []
    assert openml.config.get_config_as_dict()["cachedir"] == user_cache  # restored
    assert a.meta["source"]["kind"] == "openml" and b.meta["source"]["kind"] == "mirror"
    assert a.meta["content_sha256"] == b.meta["content_sha256"]
    # openml's row-id and ignore attributes are dropped unless the registry keeps them
    assert a.meta["source"]["dropped_attributes"] == ["row_id", "split_flag"]
    np.testing.assert_array_equal(a.y, [1, 0, 1, 1, 0])


def test_wrong_transform_is_a_content_hash_mismatch_naming_openml(tmp_path, no_network):
    cache = tmp_path / "cache"
    make_openml_cache(cache)
    swapped = [*TINY_TRANSFORMS[:2], {"recode": {"Class": {"0": "2", "1": "1"}}},
               {"categories": {"Class": ["1", "2"]}}, TINY_TRANSFORMS[3]]
    registry = load_registry(_tiny_registry(tmp_path, swapped))
    with pytest.raises(ContentHashMismatchError, match=r"tiny: .*openml source .*dataset.arff"
                       r".*class counts expected \{'1': 2, '2': 3\}, actual \{'1': 3, '2': 2\}"):
        prepare_dataset("tiny", out_dir=tmp_path / "out", cache_dir=cache, mirror=None,
                        registry=registry)
    assert not (tmp_path / "out").exists()


def test_corrupt_cached_openml_arff_is_an_error_and_is_deleted(tmp_path, no_network):
    cache = tmp_path / "cache"
    make_openml_cache(cache)
    cached = next((cache / "openml").rglob("dataset.arff"))
    cached.write_text(cached.read_text()[:200])  # a truncated download
    registry = load_registry(_tiny_registry(tmp_path, TINY_TRANSFORMS))
    with pytest.raises(ArffFormatError, match=r"tiny \(OpenML .*deleted, so the next run"):
        prepare_dataset("tiny", out_dir=tmp_path / "out", cache_dir=cache, mirror=None,
                        registry=registry)
    assert not cached.exists()
    assert not (tmp_path / "out").exists()


def test_transform_naming_an_absent_column_says_which(tmp_path, no_network):
    cache = tmp_path / "cache"
    make_openml_cache(cache)
    registry = load_registry(_tiny_registry(tmp_path, [{"select": ["size"]}]))
    with pytest.raises(TransformError, match=r"'select' names columns \['size'\]"):
        prepare_dataset("tiny", out_dir=tmp_path / "out", cache_dir=cache, mirror=None,
                        registry=registry)


def _paper(name: str) -> Table:
    return read_arff(MIRROR / f"{name}.arff")[1]


def _openml_monks(name: str) -> Table:
    """Monks as OpenML is assumed to hold it: class first ('class', 0/1), nominal attrN."""
    paper = _paper(name)
    cols = []
    cls = paper.column("Class")
    cols.append(type(cls)("class", "nominal", cls.values, ("0", "1")))
    for i in range(1, 7):
        v = paper.column(f"V{i}")
        if v.kind == "numeric":
            cats = tuple(str(int(x)) for x in np.unique(v.values))
            codes = np.searchsorted(np.unique(v.values), v.values).astype(np.int32)
            v = type(v)(v.name, "nominal", codes, cats)
        cols.append(type(v)(f"attr{i}", "nominal", v.values, v.categories))
    return Table(tuple(cols))


@pytest.mark.parametrize(("name", "did"), [("monks1", 333), ("monks2", 334)])
def test_registry_maps_openml_shaped_monks_onto_the_papers_file(tmp_path, no_network, name, did):
    put_in_cache(tmp_path / "cache", did, _openml_monks(name),
                 "<oml:default_target_attribute>class</oml:default_target_attribute>")
    path = prepare_dataset(name, out_dir=tmp_path, cache_dir=tmp_path / "cache", mirror=None)
    assert load_prepared(path).meta["content_sha256"] == load_registry()[name].content_sha256
    assert no_network == []


def test_registry_splits_openml_spect_into_train_and_test_rows(tmp_path, no_network):
    train, test = _paper("spect_train"), _paper("spect_test")
    # assumed OpenML layout: SPECT.train rows then SPECT.test rows, class last, numeric 0/1
    names = [f"F{i}" for i in range(1, 23)] + ["OVERALL_DIAGNOSIS"]
    combined = Table(tuple(
        type(train.column(n))(n, "numeric", np.concatenate(
            [train.column(n).values, test.column(n).values]).astype(float))
        for n in names
    ))
    put_in_cache(tmp_path / "cache", 336, combined)
    registry = load_registry()
    for name in ("spect_train", "spect_test"):
        path = prepare_dataset(name, out_dir=tmp_path, cache_dir=tmp_path / "cache", mirror=None)
        assert load_prepared(path).meta["content_sha256"] == registry[name].content_sha256
    assert no_network == []


def test_registry_keeps_openml_ignored_selector_for_bupa(tmp_path, no_network):
    paper = _paper("bupa")
    sel = paper.column("selector")
    # OpenML 8: 'selector' numeric and flagged as ignore attribute, 'drinks' the target
    openml_like = Table((*paper.columns[:6], type(sel)("selector", "numeric",
                                                       sel.values.astype(float) + 1)))
    put_in_cache(tmp_path / "cache", 8, openml_like,
                 "<oml:default_target_attribute>drinks</oml:default_target_attribute>"
                 "<oml:ignore_attribute>selector</oml:ignore_attribute>")
    path = prepare_dataset("bupa", out_dir=tmp_path, cache_dir=tmp_path / "cache", mirror=None)
    assert load_prepared(path).meta["source"]["dropped_attributes"] == []
    assert load_prepared(path).meta["content_sha256"] == load_registry()["bupa"].content_sha256
