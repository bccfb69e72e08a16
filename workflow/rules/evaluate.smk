# Expected losses of the threshold choice methods for every gamma, and test metrics, per run.
# One job per dataset (all its models): cheap, and re-run alone when gammas, methods or the
# estimator change, without retraining. A dataset is evaluated as soon as it is scored
# (priority above every score job): results stream in, and no evaluate job waits in
# Snakemake's queue, whose every scheduling pass checks each waiting job's input files.


rule evaluate:
    input:
        scores=expand(f"{R}/scores/{{{{dataset}}}}/{{model}}.parquet", model=MODELS),
    output:
        runs=f"{R}/runs/{{dataset}}.parquet",
        timings=f"{R}/runs/{{dataset}}.timings.csv",
    log:
        f"{R}/logs/evaluate/{{dataset}}.log",
    benchmark:
        f"{R}/benchmarks/evaluate/{{dataset}}.tsv"
    priority: AS_SOON_AS_READY
    conda:
        "../../environment.yml"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=30,
    params:
        methods=config["evaluation"]["methods"],
        gammas=[str(g) for g in config["evaluation"]["gammas"]],
        # everything else of evaluation: the LossSettings fields and the loss
        settings={
            k: v
            for k, v in config["evaluation"].items()
            if k not in ("methods", "gammas")
        },
    script:
        "../scripts/evaluate.py"


rule collect_runs:
    input:
        expand(f"{R}/runs/{{dataset}}.parquet", dataset=DATASETS),
    output:
        runs=report(
            f"{R}/runs.parquet",
            caption="../report/runs.rst",
            category="Per-run results",
        ),
    log:
        f"{R}/logs/collect_runs.log",
    benchmark:
        f"{R}/benchmarks/collect_runs.tsv"
    conda:
        "../../environment.yml"
    script:
        "../scripts/collect_runs.py"
