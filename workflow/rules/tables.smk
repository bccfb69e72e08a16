# Tables 5, 7 and 8 (CSV and the other configured formats: Markdown, LaTeX) for every
# configured gamma.


rule table5:
    input:
        parquet=expand(f"{R}/data/{{dataset}}.parquet", dataset=DATASETS),
    output:
        csv=report(f"{R}/tables/table5.csv", caption="../report/table5.rst", category="Tables"),
        other=extra_table_outputs(f"{R}/tables/table5"),
    params:
        formats=TABLE_FORMATS,
    conda:
        "../../environment.yml"
    log:
        f"{R}/logs/table5.log",
    benchmark:
        f"{R}/benchmarks/table5.tsv",
    script:
        "../scripts/table5.py"


rule tables:
    input:
        runs=f"{R}/runs.parquet",
    output:
        table7=report(
            f"{R}/tables/table7_gamma-{{gamma}}.csv",
            caption="../report/table7.rst",
            category="Tables",
            subcategory="Table 7 (by model)",
        ),
        table7_other=extra_table_outputs(f"{R}/tables/table7_gamma-{{gamma}}"),
        table8=report(
            f"{R}/tables/table8_gamma-{{gamma}}.csv",
            caption="../report/table8.rst",
            category="Tables",
            subcategory="Table 8 (by dataset)",
        ),
        table8_other=extra_table_outputs(f"{R}/tables/table8_gamma-{{gamma}}"),
    params:
        formats=TABLE_FORMATS,
        baselines=BASELINES,
        published=config.get("comparison", {}).get("published", "config/published"),
    conda:
        "../../environment.yml"
    log:
        f"{R}/logs/tables/gamma-{{gamma}}.log",
    benchmark:
        f"{R}/benchmarks/tables/gamma-{{gamma}}.tsv",
    script:
        "../scripts/tables.py"
