"""ARFF reader: Weka's syntax variants parse; malformed files give ArffFormatError."""

from __future__ import annotations

import numpy as np
import pytest

from threshold_choice.datasets.arff import parse_arff
from threshold_choice.datasets.errors import ArffFormatError

HEADER = """% comment
@relation 'r el'
@attribute 'a b' integer [1,10]
@attribute c { 'x y', z, '?'}
@attribute d REAL
@attribute s string
@data
"""


def test_quoted_names_ranges_labels_and_missing_values_parse():
    text = HEADER + "1,'x y',0.5,'p q'\n%inline comment\n\n?,z,?,r\n3,'?',-2,'p q'\n"
    relation, table = parse_arff(text)
    assert relation == "r el"
    assert table.names == ["a b", "c", "d", "s"]
    np.testing.assert_array_equal(table.column("a b").values, [1.0, np.nan, 3.0])
    # the header's label order is kept; an unquoted ? is missing, a quoted '?' is a label
    assert table.column("c").categories == ("x y", "z", "?")
    assert list(table.column("c").labels()) == ["x y", "z", "?"]
    assert np.isnan(table.column("d").values[1])
    # string attributes become nominal, labels in order of first appearance
    assert table.column("s").categories == ("p q", "r")


def test_sparse_rows_fill_omitted_values_with_zero_or_first_label():
    text = "@relation r\n@attribute a numeric\n@attribute b {u,v}\n@attribute c numeric\n@data\n"
    _, table = parse_arff(text + "{0 5, 2 7}\n{1 v}\n")
    np.testing.assert_array_equal(table.column("a").values, [5.0, 0.0])
    assert list(table.column("b").labels()) == ["u", "v"]
    np.testing.assert_array_equal(table.column("c").values, [7.0, 0.0])


def test_backslash_escaped_quotes_in_labels():
    text = "@relation r\n@attribute a {'it\\'s',b}\n@data\n'it\\'s'\nb\n"
    _, table = parse_arff(text)
    assert list(table.column("a").labels()) == ["it's", "b"]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("1,z,0.5\n", "line 8: 3 values where the header declares 4"),
        ("1,'x y,0.5,s\n", "line 8"),
        ("1,w,0.5,s\n", "value 'w', which its header does not declare"),
        ("one,z,0.5,s\n", "'a b' is numeric but holds 'one'"),
    ],
)
def test_corrupt_data_lines_name_the_problem(body, message):
    with pytest.raises(ArffFormatError, match=message.replace("(", r"\(")):
        parse_arff(HEADER + body, source="bad.arff")


def test_file_without_data_section_is_rejected():
    with pytest.raises(ArffFormatError, match="no @data section"):
        parse_arff("@relation r\n@attribute a numeric\n")


def test_unsupported_attribute_type_is_rejected():
    with pytest.raises(ArffFormatError, match="unsupported attribute type 'date'"):
        parse_arff("@relation r\n@attribute a date\n@data\n")
