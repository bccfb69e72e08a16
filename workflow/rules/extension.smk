# The extension (threshold_choice.reproduction.scope): what the configuration adds to the
# paper's scope, the paper's findings re-judged on every run, and the report's Extension page
# with the extension's tables (its figures: rule extension_figures). Only when the
# configuration adds a model type, a dataset or a gamma (EXTENDS_PAPER).


rule extension:
    input:
        **extension_tables(),
        runs=layout.runs(R),
    output:
        added=layout.extension(R, "added"),
        findings=layout.extension(R, "findings"),
        page=report(
            layout.extension(R, "page"),
            caption="../report/extension.rst",
            category="Extension",
        ),
    log:
        f"{R}/logs/extension.log",
    benchmark:
        f"{R}/benchmarks/extension.tsv"
    conda:
        "../../environment.yml"
    params:
        scope=EXTENSION_PARAMS,
        baselines=BASELINES,
        tables=list(extension_tables()),
        figures=EXTENSION_FIGURES,
    script:
        "../scripts/extension.py"


# The last job of a run: removes the tables and figures of an earlier configuration (a gamma,
# model type or dataset no longer configured, an extension given up) and lists the current
# ones (threshold_choice.reproduction.stale). Its input is every other output, so it runs
# after them; its params, the list, re-run it whenever the configuration's outputs change.
rule stale_outputs:
    input:
        current_outputs(),
    output:
        layout.outputs_list(R),
    log:
        f"{R}/logs/stale_outputs.log",
    localrule: True
    conda:
        "../../environment.yml"
    params:
        # the results folder, the list's (layout.outputs_list)
        results=lambda wildcards, output: os.path.dirname(output[0]),
        current=current_outputs(),
    script:
        "../scripts/stale_outputs.py"
