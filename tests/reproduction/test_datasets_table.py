"""Content hash: independent of file encoding, sensitive to values, order and categories."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from threshold_choice.datasets.arff import parse_arff
from threshold_choice.datasets.table import (
    Table,
    content_hash,
    from_dataframe,
    schema_of,
    to_dataframe,
)

PLAIN = """@relation one
@attribute x numeric
@attribute c {a,b}
@data
1,a
0,b
?,?
"""
# same table: other relation name, comments, number spellings, quoting, -0.0, spacing
RESPELLED = """% a comment
@RELATION 'two'
@ATTRIBUTE x REAL
@ATTRIBUTE c { 'a', "b"}
@DATA
1.000, 'a'
-0.0 ,b
? , ?
"""


def _table(text: str) -> Table:
    return parse_arff(text)[1]


def test_hash_ignores_how_the_file_spells_the_same_table():
    assert content_hash(_table(PLAIN)) == content_hash(_table(RESPELLED))


def test_hash_changes_with_a_value_the_row_order_or_the_category_order():
    base = _table(PLAIN)
    value = _table(PLAIN.replace("1,a", "1.5,a"))
    rows = _table(PLAIN.replace("1,a\n0,b", "0,b\n1,a"))
    cats = _table(PLAIN.replace("{a,b}", "{b,a}"))
    renamed = _table(PLAIN.replace("@attribute x", "@attribute y"))
    hashes = {content_hash(t) for t in (base, value, rows, cats, renamed)}
    assert len(hashes) == 5


def test_missing_nominal_differs_from_any_label():
    a = _table(PLAIN)
    col = a.column("c")
    filled = replace(col, values=np.where(col.values < 0, 0, col.values).astype(np.int32))
    assert content_hash(a) != content_hash(Table((a.columns[0], filled)))


def test_dataframe_round_trip_keeps_hash_kinds_and_categories():
    table = _table(PLAIN.replace("{a,b}", "{b,a,z}"))
    frame = to_dataframe(table)
    assert str(frame["x"].dtype) == "float64"
    assert list(frame["c"].cat.categories) == ["b", "a", "z"]
    assert content_hash(from_dataframe(frame, schema_of(table))) == content_hash(table)
