# Obtain, verify and prepare each dataset (mirror first, else OpenML / UCI).


rule prepare_dataset:
    output:
        parquet=f"{R}/data/{{dataset}}.parquet",
        meta=f"{R}/data/{{dataset}}.json",
    params:
        mirror=config["data"].get("mirror"),
        cache=config["data"].get("cache", f"{R}/cache/downloads"),
        registry=config["data"]["registry"],
    conda:
        "../../environment.yml"
    log:
        f"{R}/logs/prepare_dataset/{{dataset}}.log",
    benchmark:
        f"{R}/benchmarks/prepare_dataset/{{dataset}}.tsv",
    localrule: True
    script:
        "../scripts/prepare_dataset.py"
