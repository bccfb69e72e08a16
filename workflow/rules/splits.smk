# Stratified 50/50 splits of each dataset (rows of the prepared table, 1-based).


rule splits:
    input:
        parquet=f"{R}/data/{{dataset}}.parquet",
    output:
        csv=f"{R}/splits/{{dataset}}.csv",
    params:
        splitter=config["splits"].get("splitter", "numpy"),
        iterations=config["splits"].get("iterations", 10),
    conda:
        "../../environment.yml"
    log:
        f"{R}/logs/splits/{{dataset}}.log",
    benchmark:
        f"{R}/benchmarks/splits/{{dataset}}.tsv",
    script:
        "../scripts/splits.py"
