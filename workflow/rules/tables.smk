# Tables 5, 7 and 8 (CSV and the other configured formats: Markdown, LaTeX); Tables 7 and 8
# for every configured gamma, in one job.


rule table5:
    input:
        parquet=expand(f"{R}/data/{{dataset}}.parquet", dataset=DATASETS),
    output:
        csv=report(
            f"{R}/tables/table5.csv", caption="../report/table5.rst", category="Tables"
        ),
        other=extra_table_outputs(f"{R}/tables/table5"),
    log:
        f"{R}/logs/table5.log",
    benchmark:
        f"{R}/benchmarks/table5.tsv"
    conda:
        "../../environment.yml"
    params:
        formats=TABLE_FORMATS,
    script:
        "../scripts/table5.py"


rule tables:
    input:
        runs=f"{R}/runs.parquet",
    output:
        table7=[
            report(
                f"{R}/tables/table7_gamma-{g}.csv",
                caption="../report/table7.rst",
                category="Tables",
                subcategory="Table 7 (by model)",
            )
            for g in GAMMAS
        ],
        table8=[
            report(
                f"{R}/tables/table8_gamma-{g}.csv",
                caption="../report/table8.rst",
                category="Tables",
                subcategory="Table 8 (by dataset)",
            )
            for g in GAMMAS
        ],
        other=[
            path
            for g in GAMMAS
            for stem in (
                f"{R}/tables/table7_gamma-{g}",
                f"{R}/tables/table8_gamma-{g}",
            )
            for path in extra_table_outputs(stem)
        ],
    log:
        f"{R}/logs/tables.log",
    benchmark:
        f"{R}/benchmarks/tables.tsv"
    conda:
        "../../environment.yml"
    params:
        gammas=GAMMAS,
        formats=TABLE_FORMATS,
        baselines=BASELINES,
        conditions=conditions_note(config["evaluation"]),
        published=config["comparison"]["published"],
    script:
        "../scripts/tables.py"
