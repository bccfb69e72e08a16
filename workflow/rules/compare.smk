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


rule report_page:
    input:
        summary=layout.comparison(R, "summary"),
        findings=layout.comparison(R, "findings"),
        table5_diff=layout.comparison(R, "table5_diff"),
        table7_diff=layout.comparison(R, "table7_diff"),
        table8_diff=layout.comparison(R, "table8_diff"),
        table7=layout.compared_table(R, "table7"),
        table8=layout.compared_table(R, "table8"),
        # the software of the paper's scope (an added model's own library is the extension's)
        timings=[
            layout.scores(R, d, m, "timings.csv")
            for d in DATASETS
            if d not in EXTENSION.datasets
            for m in MODELS
            if m not in EXTENSION.models
        ],
    output:
        # the first page of `snakemake --report` (workflow/report/workflow.rst includes it)
        layout.report_page(R),
    log:
        f"{R}/logs/report_page.log",
    benchmark:
        f"{R}/benchmarks/report_page.tsv"
    conda:
        "../../environment.yml"
    params:
        tolerance=config["comparison"]["tolerance"],
    script:
        "../scripts/report_page.py"
