"""The report's first page: the headline of the comparison, marked tables, causes."""

from __future__ import annotations

import pandas as pd

from threshold_choice.reproduction.report import headline_rst, software_table


def comparison(applies: bool = True):
    status = "differs" if applies else "not applicable"
    diff7 = pd.DataFrame({
        "key": ["NB", "NB"], "column": ["AUC", "BS"], "ours": [0.8, 0.2],
        "published": [0.81, 0.2], "abs_diff": [0.01, 0.0],
        "within_tolerance": [False, applies], "status": [status, "match"],
        "cause": ["a known <reason>", ""],
    })
    empty = diff7.iloc[0:0]
    summary = pd.DataFrame({
        "table": ["table5", "table7", "table8"], "cells": [78, 120, 260],
        "within_tolerance": [78, 119 if applies else 0, 260 if applies else 0],
        "differ": [0, 1 if applies else 0, 0], "missing": [0, 0, 0],
        "published_applies": [True, applies, applies],
        "note": ["" if applies else "conditions differ from the paper's (c ~ beta:2,2)"] * 3,
    })
    findings = pd.DataFrame({"id": ["a", "b"], "finding": ["x", "y"],
                             "reproduced": [True, False],
                             "evidence": ["1.0", "not checkable: no runs"], "cause": ["", ""]})
    tables = {"table7": pd.DataFrame({"model": ["NB"], "AUC": [0.8], "BS": [0.2]}),
              "table8": pd.DataFrame({"number": [1], "dataset": ["d"], "AUC": [0.5]})}
    return summary, findings, {"table5": empty, "table7": diff7, "table8": empty}, tables


def test_the_headline_counts_cells_and_findings_and_marks_the_differing_cell():
    text = headline_rst(*comparison(), ["python 3.11; weka 3.9.6", "python 3.11; java 17"],
                        tolerance=0.0005)
    assert "<b>78 of 78</b>" in text and "<b>119 of 120</b>" in text
    assert "<b>1 of 2</b> (1 checkable)" in text
    assert "python 3.11, weka 3.9.6, java 17" in text
    marked = text.split('class="differs"')[1]
    assert 'title="published 0.810; a known &lt;reason&gt;"' in marked.split(">")[0] + ">"
    assert ">0.800<" in marked
    assert "a known &lt;reason&gt;" in text  # escaped, in the list of differing cells
    assert text.count('class="differs"') == 1


def test_the_headline_says_when_the_published_numbers_do_not_apply():
    text = headline_rst(*comparison(applies=False), [], tolerance=0.0005)
    assert "The published numbers do not apply to this run" in text
    assert "c ~ beta:2,2" in text
    assert "Table 7 (by model type, gamma = inf): not compared" in text
    assert 'class="differs"' not in text


def test_software_table_keeps_each_version_once_in_order():
    got = software_table(["python 3.11; weka 3.9.6", "python 3.12; weka 3.9.6"])
    assert got.set_index("software")["version"].to_dict() == {
        "python": "3.11; 3.12", "weka": "3.9.6"}
