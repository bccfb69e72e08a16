# Comparison with the published numbers: cell-by-cell diffs of Tables 5, 7, 8 at gamma = inf
# and the qualitative findings of Sect. 6.


rule compare:
    input:
        table5=layout.compared_table(R, "table5"),
        table7=layout.compared_table(R, "table7"),
        table8=layout.compared_table(R, "table8"),
        runs=layout.runs(R),
    output:
        summary=report(
            layout.comparison(R, "summary"),
            caption="../report/comparison.rst",
            category="Comparison",
        ),
        findings=report(
            layout.comparison(R, "findings"),
            caption="../report/findings.rst",
            category="Comparison",
        ),
        table5_diff=layout.comparison(R, "table5_diff"),
        table7_diff=layout.comparison(R, "table7_diff"),
        table8_diff=layout.comparison(R, "table8_diff"),
    log:
        f"{R}/logs/compare.log",
    benchmark:
        f"{R}/benchmarks/compare.tsv"
    conda:
        "../../environment.yml"
    params:
        published=config["comparison"]["published"],
        tolerance=config["comparison"]["tolerance"],
        baselines=BASELINES,
    script:
        "../scripts/compare.py"


if config["comparison"]["authors_results"]:

    rule compare_authors_runs:
        input:
            runs=layout.runs(R),
        output:
            authors_runs=report(
                layout.authors_runs_comparison(R),
                caption="../report/authors_runs.rst",
                category="Comparison",
            ),
        log:
            f"{R}/logs/compare_authors_runs.log",
        conda:
            "../../environment.yml"
        params:
            checkout=config["comparison"]["authors_results"],
        script:
            "../scripts/compare_authors_runs.py"


rule report_page:
    input:
        summary=layout.comparison(R, "summary"),
        findings=layout.comparison(R, "findings"),
        table5_diff=layout.comparison(R, "table5_diff"),
        table7_diff=layout.comparison(R, "table7_diff"),
        table8_diff=layout.comparison(R, "table8_diff"),
        table7=layout.compared_table(R, "table7"),
        table8=layout.compared_table(R, "table8"),
        # the runs stand for the score jobs' timings (params): those jobs write them with the
        # scores the runs are made of; as inputs, ~300 files would fill the job's "reason"
        runs=layout.runs(R),
        table7_all=tables_78(7),
        table8_all=tables_78(8),
    output:
        # the first page of `snakemake --report` (workflow/report/workflow.rst includes it)
        page=layout.report_page(R),
        # Tables 7 and 8 at every gamma, rendered, in numeric order (the CSVs: rule tables)
        table7=report(
            layout.report_table(R, "table7"),
            caption="../report/table7_page.rst",
            category="Tables",
            subcategory="Table 7 (by model)",
            labels=table_labels(),
        ),
        table8=report(
            layout.report_table(R, "table8"),
            caption="../report/table8_page.rst",
            category="Tables",
            subcategory="Table 8 (by dataset)",
            labels=table_labels(),
        ),
    log:
        f"{R}/logs/report_page.log",
    benchmark:
        f"{R}/benchmarks/report_page.tsv"
    conda:
        "../../environment.yml"
    params:
        tolerance=config["comparison"]["tolerance"],
        # the software of the paper's scope (an added model's own library is the extension's)
        timings=[
            layout.scores(R, d, m, "timings.csv")
            for d in DATASETS
            if d not in EXTENSION.datasets
            for m in MODELS
            if m not in EXTENSION.models
        ],
    script:
        "../scripts/report_page.py"
