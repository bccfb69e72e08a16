# Obtain, verify and prepare each dataset (mirror first, else OpenML / UCI), and draw its
# stratified 50/50 splits (rows of the prepared table, 1-based), in one job per dataset.


rule prepare_dataset:
    output:
        parquet=f"{R}/data/{{dataset}}.parquet",
        meta=f"{R}/data/{{dataset}}.json",
        splits=f"{R}/splits/{{dataset}}.csv",
    log:
        f"{R}/logs/prepare_dataset/{{dataset}}.log",
    benchmark:
        f"{R}/benchmarks/prepare_dataset/{{dataset}}.tsv"
    priority: larger_first
    localrule: True
    conda:
        "../../environment.yml"
    params:
        # the dataset's own registry entry: editing it prepares that dataset again. Where the
        # data come from (data.mirror, data.cache, data.registry's path) is read from the config
        # by the script, not a param: the content hash makes every source give the same table.
        entry=lambda wildcards: DATASET_ENTRIES[wildcards.dataset],
        # the splits settings as one mapping (a bare "r" would read as a path prefix to --lint)
        splits=config["splits"],
    script:
        "../scripts/prepare_dataset.py"
