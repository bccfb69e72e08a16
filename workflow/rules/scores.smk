# Fit every model on every split of a dataset and score both parts: one job per dataset, one
# process (and one JVM for the Weka models). Each model's scores are also kept in a
# content-addressed cache (threshold_choice.reproduction.score_cache), so a job re-run because one model's
# entry changed fits that model only.


rule score:
    input:
        parquet=f"{R}/data/{{dataset}}.parquet",
        splits=f"{R}/splits/{{dataset}}.csv",
        weka_jar=weka_jar_input(),
    output:
        scores=expand(f"{R}/scores/{{{{dataset}}}}/{{model}}.parquet", model=MODELS),
        timings=expand(
            f"{R}/scores/{{{{dataset}}}}/{{model}}.timings.csv", model=MODELS
        ),
    log:
        f"{R}/logs/score/{{dataset}}.log",
    benchmark:
        f"{R}/benchmarks/score/{{dataset}}.tsv"
    priority: larger_first
    conda:
        "../../environment.yml"
    threads: 1
    resources:
        mem_mb=3000,
        runtime=30,
    params:
        models=MODELS,
        seed=config["models"]["seed"],
        entries={m: MODEL_ENTRIES[m] for m in MODELS},
        cache=f"{R}/cache/scores",
    script:
        "../scripts/score.py"
