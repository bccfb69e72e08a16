# The authors' Weka (models.weka_jar: authors): Debian's weka 3.6.14, whose Logistic is the
# one the authors ran (threshold_choice.models.weka_debian), fetched with apt-get into the
# cache and checked against pinned hashes. Where it cannot be had, the output says why and the
# Weka models run the bundled Weka 3.9.6 (a warning).


rule weka_authors:
    output:
        AUTHORS_WEKA_CHOICE,
    log:
        f"{R}/logs/weka_authors.log",
    priority: AS_SOON_AS_READY  # every Weka score job waits for it
    localrule: True
    conda:
        "../../environment.yml"
    params:
        cache=WEKA_CACHE,
    script:
        "../scripts/weka_authors.py"
