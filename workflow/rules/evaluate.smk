# Expected losses of the threshold choice methods for every gamma, and test metrics, per run.
# Rule evaluate_<n> does the datasets of job n (DATASET_JOBS), each with all its models, one
# after another, each with its own log: cheap, and re-run alone when gammas, methods or the
# estimator change, without retraining. A job is evaluated as soon as it is scored (priority
# above every score job): results stream in, and no evaluate job waits in Snakemake's queue,
# whose every scheduling pass checks each waiting job's input files.

for number, members in enumerate(DATASET_JOBS, start=1):

    rule:
        name:
            f"evaluate_{number}"
        input:
            scores=[layout.scores(R, d, m) for d in members for m in MODELS],
        output:
            runs=[layout.dataset_runs(R, d) for d in members],
            timings=[layout.dataset_runs(R, d, "timings.csv") for d in members],
        log:
            [f"{R}/logs/evaluate/{d}.log" for d in members],
        benchmark:
            f"{R}/benchmarks/evaluate/evaluate_{number}.tsv"
        priority: AS_SOON_AS_READY
        conda:
            "../../environment.yml"
        threads: 1
        resources:
            # for SLURM: at most 220 MB and 36 s measured for a dataset (loaded machine)
            mem_mb=1000,
            runtime=20,
        params:
            datasets=members,
            models=MODELS,
            methods=config["evaluation"]["methods"],
            gammas=[str(g) for g in config["evaluation"]["gammas"]],
            settings=EVALUATION_SETTINGS,
        script:
            "../scripts/evaluate.py"


rule collect_runs:
    input:
        [layout.dataset_runs(R, d) for d in DATASETS],
    output:
        # not in the report: a binary of 1-2 MB (the tables and figures summarise it)
        runs=layout.runs(R),
    log:
        f"{R}/logs/collect_runs.log",
    benchmark:
        f"{R}/benchmarks/collect_runs.tsv"
    # as soon as the last evaluation ends: the statistical tests wait for it (significance)
    priority: AS_SOON_AS_READY
    conda:
        "../../environment.yml"
    params:
        # stored with the runs: what they measured (the comparison reads it)
        settings=config["evaluation"],
        learners=learners(),
    script:
        "../scripts/collect_runs.py"
