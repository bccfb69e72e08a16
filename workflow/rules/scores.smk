# Fit each model on every split of a dataset; its train and test scores (one job per
# dataset and model, all splits).


rule score:
    input:
        parquet=f"{R}/data/{{dataset}}.parquet",
        splits=f"{R}/splits/{{dataset}}.csv",
        weka_jar=weka_jar_input,
    output:
        scores=f"{R}/scores/{{dataset}}/{{model}}.parquet",
        timings=f"{R}/scores/{{dataset}}/{{model}}.timings.csv",
    params:
        seed=config["models"].get("seed", 0),
        entry=lambda wildcards: MODEL_ENTRIES[wildcards.model],
    conda:
        "../../environment.yml"
    log:
        f"{R}/logs/score/{{dataset}}/{{model}}.log",
    benchmark:
        f"{R}/benchmarks/score/{{dataset}}/{{model}}.tsv"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=30,
    script:
        "../scripts/score.py"
