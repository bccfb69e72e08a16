# Obtain, verify and prepare each dataset (mirror first, else OpenML / UCI), and draw its
# stratified 50/50 splits (rows of the prepared table, 1-based). Rule prepare_<n> does the
# datasets of job n (DATASET_JOBS, config "jobs"), one after another, each with its own log.

for number, members in enumerate(DATASET_JOBS, start=1):

    rule:
        name:
            f"prepare_{number}"
        output:
            parquet=[layout.data(R, d) for d in members],
            meta=[layout.data(R, d, "json") for d in members],
            splits=[layout.splits(R, d) for d in members],
        log:
            [f"{R}/logs/prepare/{d}.log" for d in members],
        benchmark:
            f"{R}/benchmarks/prepare/prepare_{number}.tsv"
        priority: larger_first(members)
        localrule: True
        conda:
            "../../environment.yml"
        params:
            datasets=members,
            # each dataset's own registry entry: editing it prepares that dataset's job again.
            # Where the data come from (data.mirror, data.cache, data.registry's path) is read
            # from the config by the script, not a param: the content hash makes every source
            # give the same table.
            entries=[DATASET_ENTRIES[d] for d in members],
            # the splits settings as one mapping (a bare "r" would read as a path prefix to
            # --lint)
            splits=config["splits"],
        script:
            "../scripts/prepare_dataset.py"
