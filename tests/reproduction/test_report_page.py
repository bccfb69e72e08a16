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


def test_findings_not_applicable_are_not_counted_as_checked_and_refuted():
    summary, _, diffs, tables = comparison(applies=False)
    findings = pd.DataFrame({"id": ["a", "b"], "finding": ["x", "y"],
                             "reproduced": ["not applicable"] * 2,
                             "evidence": ["not applicable: conditions differ"] * 2,
                             "cause": ["", ""]})
    text = headline_rst(summary, findings, diffs, tables, [], tolerance=0.0005)
    assert "0 of 2" not in text  # read as two findings checked and refuted
    assert "Findings of Sect. 6: none of the 2 is checkable here" in text


def test_software_table_keeps_each_version_once_in_order():
    got = software_table(["python 3.11; weka 3.9.6", "python 3.12; weka 3.9.6"])
    assert got.set_index("software")["version"].to_dict() == {
        "python": "3.11; 3.12", "weka": "3.9.6"}


def paper_sized_comparison():
    """A comparison where every cell of a 26-row Table 8 differs, each with a long cause (as
    in the scikit-learn configuration's run)."""
    summary, findings, diffs, tables = comparison()
    columns = ["AUC", "BS", "CL", "RL", "test_optimal", "train_optimal", "score_driven",
               "rate_driven", "sc_vs_tr", "rd_vs_tr"]
    names = [f"dataset-{i}" for i in range(26)]
    tables["table8"] = pd.DataFrame({"number": range(1, 27), "dataset": names,
                                     **{c: [0.123456789012345] * 26 for c in columns}})
    cause = ("the scikit-learn analogue of the model type, not the authors' Weka learner "
             "(config/sklearn.yaml); see docs/reproduction.md")
    diffs["table8"] = pd.DataFrame(
        [{"key": k, "column": c, "ours": 0.1234, "published": 0.2, "abs_diff": 0.0766,
          "within_tolerance": False, "status": "differs", "cause": cause}
         for k in names for c in columns])
    return summary, findings, diffs, tables


def test_a_paper_sized_marked_table_renders_as_a_table_without_a_docutils_message():
    from docutils.core import publish_parts

    text = headline_rst(*paper_sized_comparison(), [], tolerance=0.0005)
    # docutils refuses lines over its line-length limit (10 000): one line per row
    assert max(len(line) for line in text.splitlines()) < 2000
    body = publish_parts(text, writer="html")["html_body"]  # as Snakemake's report
    assert "System Message" not in body and "system-message" not in body
    table8 = body[body.rindex("Table 8 (by dataset"):]  # its heading, after the counts
    assert table8.count('class="differs"') == 260
    assert ">0.123<" in table8 and "0.123456789" not in body  # the published 3 decimals


def test_tables_page_shows_every_gamma_in_numeric_order_at_the_published_precision():
    from threshold_choice.reproduction.report import tables_page

    _, _, diffs, tables = comparison()
    labels = ["inf", "0", "16", "2", "32", "1", "0.5", "8", "4"]
    frames = {g: tables["table7"].assign(AUC=0.123456789) for g in labels}
    page = tables_page("table7", frames, diffs["table7"], note="c ~ beta:2,2")
    headings = [line for line in page.splitlines() if line.startswith("<h2")]
    assert [h.split("gamma = ")[1].split("<")[0] for h in headings] == [
        "0", "0.5", "1", "2", "4", "8", "16", "32", "inf"]
    assert page.count('class="differs"') == 1  # marked at gamma = inf, the published tables'
    assert page.index('class="differs"') > page.index('id="gamma-inf"')
    assert ">0.123<" in page and "0.1234567" not in page
    assert "c ~ beta:2,2" in page
