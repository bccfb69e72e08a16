# Tables 5, 7 and 8 (CSV, Markdown, LaTeX) for every configured gamma.


rule table5:
    input:
        parquet=expand(f"{R}/data/{{dataset}}.parquet", dataset=DATASETS),
    output:
        csv=f"{R}/tables/table5.csv",
    conda:
        "../../environment.yml"
    log:
        f"{R}/logs/table5.log",
    script:
        "../scripts/table5.py"
