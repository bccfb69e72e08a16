# Tables 5, 7 and 8 (CSV, Markdown, LaTeX) for every configured gamma.


rule table5:
    input:
        parquet=expand(f"{R}/data/{{dataset}}.parquet", dataset=DATASETS),
    output:
        csv=report(f"{R}/tables/table5.csv", caption="../report/table5.rst", category="Tables"),
        md=f"{R}/tables/table5.md",
        tex=f"{R}/tables/table5.tex",
    conda:
        "../../environment.yml"
    log:
        f"{R}/logs/table5.log",
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
        table7_md=f"{R}/tables/table7_gamma-{{gamma}}.md",
        table7_tex=f"{R}/tables/table7_gamma-{{gamma}}.tex",
        table8=report(
            f"{R}/tables/table8_gamma-{{gamma}}.csv",
            caption="../report/table8.rst",
            category="Tables",
            subcategory="Table 8 (by dataset)",
        ),
        table8_md=f"{R}/tables/table8_gamma-{{gamma}}.md",
        table8_tex=f"{R}/tables/table8_gamma-{{gamma}}.tex",
    params:
        baselines=BASELINES,
        published=config.get("comparison", {}).get("published", "config/published"),
    conda:
        "../../environment.yml"
    log:
        f"{R}/logs/tables/gamma-{{gamma}}.log",
    script:
        "../scripts/tables.py"
