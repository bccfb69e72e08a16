# Comparison with the published numbers: cell-by-cell diffs of Tables 5, 7, 8 at gamma = inf
# and the qualitative findings of Sect. 6.


rule compare:
    input:
        table5=f"{R}/tables/table5.csv",
        table7=f"{R}/tables/table7_gamma-inf.csv",
        table8=f"{R}/tables/table8_gamma-inf.csv",
        runs=f"{R}/runs.parquet",
    output:
        summary=report(
            f"{R}/comparison/summary.csv",
            caption="../report/comparison.rst",
            category="Comparison",
        ),
        findings=report(
            f"{R}/comparison/findings.csv",
            caption="../report/findings.rst",
            category="Comparison",
        ),
        table5_diff=f"{R}/comparison/table5_diff.csv",
        table7_diff=f"{R}/comparison/table7_diff.csv",
        table8_diff=f"{R}/comparison/table8_diff.csv",
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
        summary=f"{R}/comparison/summary.csv",
        findings=f"{R}/comparison/findings.csv",
        table5_diff=f"{R}/comparison/table5_diff.csv",
        table7_diff=f"{R}/comparison/table7_diff.csv",
        table8_diff=f"{R}/comparison/table8_diff.csv",
        table7=f"{R}/tables/table7_gamma-inf.csv",
        table8=f"{R}/tables/table8_gamma-inf.csv",
        timings=expand(
            f"{R}/scores/{{dataset}}/{{model}}.timings.csv",
            dataset=DATASETS,
            model=MODELS,
        ),
    output:
        # the first page of `snakemake --report` (workflow/report/workflow.rst includes it)
        f"{R}/comparison/report.rst",
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
