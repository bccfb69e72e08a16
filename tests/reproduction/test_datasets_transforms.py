"""Registry transformations on small tables."""

from __future__ import annotations

import numpy as np
import pytest

from threshold_choice.datasets.errors import TransformError
from threshold_choice.datasets.table import Column, Table
from threshold_choice.datasets.transforms import apply_transforms, expand_names


def _table() -> Table:
    return Table((
        Column("n", "numeric", np.array([1.0, 0.0, np.nan, 1.0])),
        Column("c", "nominal", np.array([0, 1, -1, 2], dtype=np.int32), ("x", "y", "z")),
    ))


def test_name_ranges_expand_in_order():
    assert expand_names(["id", "f{1..3}", "g{9..10}x"]) == ["id", "f1", "f2", "f3", "g9x", "g10x"]


def test_to_nominal_writes_integral_numbers_without_decimals_and_keeps_missing():
    out = apply_transforms(_table(), [{"to_nominal": {"n": ["0", "1"]}}])
    assert list(out.column("n").labels()) == ["1", "0", None, "1"]


def test_recode_and_categories_reorder_labels_without_changing_values():
    out = apply_transforms(_table(), [{"recode": {"c": {"x": "a"}}},
                                      {"categories": {"c": ["z", "y", "a", "w"]}}])
    assert out.column("c").categories == ("z", "y", "a", "w")
    assert list(out.column("c").labels()) == ["a", "y", None, "z"]


def test_categories_must_cover_every_used_label():
    with pytest.raises(TransformError, match=r"uses labels \['x'\] not in the declared"):
        apply_transforms(_table(), [{"categories": {"c": ["y", "z"]}}])


def test_row_range_outside_the_source_is_rejected():
    with pytest.raises(TransformError, match=r"range 2\.\.9 does not fit the source.s 4 rows"):
        apply_transforms(_table(), [{"rows": {"first": 2, "last": 9}}])


def test_rows_select_and_to_numeric_compose():
    t = Table((Column("c", "nominal", np.array([0, 1, 0], dtype=np.int32), ("3", "5")),
               Column("n", "numeric", np.array([7.0, 8.0, 9.0]))))
    out = apply_transforms(t, [{"rows": {"first": 2, "last": 3}}, {"select": ["n", "c"]},
                               {"to_numeric": ["c"]}])
    assert out.names == ["n", "c"]
    np.testing.assert_array_equal(out.column("c").values, [5.0, 3.0])
