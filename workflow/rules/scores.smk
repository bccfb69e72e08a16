# Fit every model on every split of a dataset and score both parts. Rule score_<n> does the
# datasets of job n (DATASET_JOBS, config "jobs"): one process and one JVM for all their
# models, whose start-up would otherwise cost more than a small dataset's fits; each large
# dataset has a job of its own. (One rule per job, score_1, score_2, ...: a rule's outputs
# cannot depend on a wildcard's value.) Each model's scores are also kept in a
# content-addressed cache (threshold_choice.reproduction.score_cache; config "cache", shared
# by every results folder), so a job re-run because one model's entry changed, or one dataset
# joined it, or a run into another folder, fits only what is new.

for number, members in enumerate(DATASET_JOBS, start=1):

    rule:
        name:
            f"score_{number}"
        input:
            parquet=[layout.data(R, d) for d in members],
            splits=[layout.splits(R, d) for d in members],
            weka_jar=weka_jar_input(),
        output:
            scores=[layout.scores(R, d, m) for d in members for m in MODELS],
            timings=[
                layout.scores(R, d, m, "timings.csv") for d in members for m in MODELS
            ],
        log:
            [f"{R}/logs/score/{d}.log" for d in members],
        benchmark:
            f"{R}/benchmarks/score/score_{number}.tsv"
        priority: larger_first(members)
        conda:
            "../../environment.yml"
        threads: score_threads()
        resources:
            # for SLURM; the models' registry entries may ask for more (common.smk)
            mem_mb=score_resources(members)["mem_mb"],
            runtime=score_resources(members)["runtime"],
        params:
            datasets=members,
            models=MODELS,
            seed=config["models"]["seed"],
            entries={m: MODEL_ENTRIES[m] for m in MODELS},
            cache=SCORE_CACHE,
        script:
            "../scripts/score.py"
