# Tables 5, 7 and 8 (CSV and the other configured formats: Markdown, LaTeX) on the paper's
# scope, Tables 7 and 8 at each of its gammas the configuration runs, in one job; with an
# extension, the same over every run and configured gamma in its folder
# (threshold_choice.reproduction.scope).


rule table5:
    input:
        parquet=[layout.data(R, d) for d in DATASETS],
    output:
        csv=report(
            layout.table(R, 5), caption="../report/table5.rst", category="Tables"
        ),
        other=extra_table_outputs(layout.table(R, 5)[:-4]),
        extended=extended_table5(),
        extended_other=[
            path for csv in extended_table5() for path in extra_table_outputs(csv[:-4])
        ],
    log:
        f"{R}/logs/table5.log",
    benchmark:
        f"{R}/benchmarks/table5.tsv"
    conda:
        "../../environment.yml"
    params:
        formats=TABLE_FORMATS,
        # a dataset of one's own is numbered after the published Table 5's
        published=config["comparison"]["published"],
        added=list(EXTENSION.datasets),
    script:
        "../scripts/table5.py"


rule tables:
    input:
        runs=layout.runs(R),
    output:
        table7=[
            report(
                path,
                caption="../report/table7.rst",
                category="Tables",
                subcategory="Table 7 (by model)",
                labels=table_labels(path),
            )
            for path in tables_78(7)
        ],
        table8=[
            report(
                path,
                caption="../report/table8.rst",
                category="Tables",
                subcategory="Table 8 (by dataset)",
                labels=table_labels(path),
            )
            for path in tables_78(8)
        ],
        extended7=extended_tables(7),
        extended8=extended_tables(8),
        other=[
            path
            for csv in [
                *tables_78(7),
                *tables_78(8),
                *extended_tables(7),
                *extended_tables(8),
            ]
            for path in extra_table_outputs(csv[:-4])
        ],
    log:
        f"{R}/logs/tables.log",
    benchmark:
        f"{R}/benchmarks/tables.tsv"
    conda:
        "../../environment.yml"
    params:
        gammas=PAPER_GAMMA_LABELS,
        extended_gammas=GAMMAS if EXTENDS_PAPER else [],
        scope=EXTENSION_PARAMS,
        formats=TABLE_FORMATS,
        baselines=BASELINES,
        conditions=conditions_note(config["evaluation"]),
        published=config["comparison"]["published"],
        methods=table_methods(config),
        datasets=DATASETS,
    script:
        "../scripts/tables.py"
