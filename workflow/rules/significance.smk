# Beyond the paper: are the differences real? For the paper's scope and, when the
# configuration adds datasets, model types or gammas, for the extended one: the methods and the
# model types compared across datasets at each gamma (Friedman, Nemenyi, sign, Wilcoxon and
# Bayesian signed-rank tests), their tables, critical-difference diagrams and the verdict on
# the paper's win counts (docs/significance.md). One job per scope.
from threshold_choice.reproduction.paper import PAPER_METHODS

SIGNIFICANCE_SCOPES = [
    scope
    for scope in layout.SIGNIFICANCE_SCOPES
    if scope == "paper" or not EXTENSION.empty
]
_SCOPE_TITLES = {"paper": "Paper scope", "extended": "Extended scope"}


def significance_methods(scope):
    """The methods a scope compares: the paper's four (those evaluated) or every one."""
    methods = config["evaluation"]["methods"]
    return (
        methods if scope == "extended" else [m for m in methods if m in PAPER_METHODS]
    )


def significance_model_methods(scope):
    """The methods under which a scope compares the model types: those of Tables 7 and 8."""
    return [m for m in table_methods(config) if m in significance_methods(scope)]


def significance_figure_files(scope, method=None, shown=False):
    """The files of a critical-difference figure (the first format shown in the report)."""
    stem = layout.significance_figure(method)
    files = [layout.significance(R, scope, stem, ext) for ext in FIGURE_FORMATS]
    if shown:
        files[0] = report(
            files[0],
            caption="../report/significance_cd.rst",
            category="Significance",
            subcategory=_SCOPE_TITLES[scope],
        )
    return files + [layout.significance(R, scope, stem, "csv")]


def significance_figures(scope, shown=False):
    return {
        layout.significance_figure(method): significance_figure_files(
            scope, method, shown
        )
        for method in [None, *significance_model_methods(scope)]
    }


def significance_table(scope, name, shown=False):
    """A table's CSV (shown: in the report; the verdict is shown as its page instead)."""
    csv = layout.significance(R, scope, name)
    if not shown or name == "verdict":
        return csv
    return report(
        csv,
        caption="../report/significance_tables.rst",
        category="Significance",
        subcategory=_SCOPE_TITLES[scope],
    )


def significance_verdict_page(scope, shown=False):
    """The verdict as an HTML page, the report's first item of a scope's significance."""
    page = layout.significance(R, scope, "verdict", "html")
    if not shown:
        return page
    return report(
        page,
        caption="../report/significance_verdict.rst",
        category="Significance",
        subcategory=_SCOPE_TITLES[scope],
    )


def significance_outputs():
    return (
        [
            path
            for scope in SIGNIFICANCE_SCOPES
            for csv in [
                significance_table(scope, n) for n in layout.SIGNIFICANCE_TABLES
            ]
            for path in [csv, *extra_table_outputs(csv[:-4])]
        ]
        + [significance_verdict_page(scope) for scope in SIGNIFICANCE_SCOPES]
        + [
            path
            for scope in SIGNIFICANCE_SCOPES
            for files in significance_figures(scope).values()
            for path in files
        ]
    )


for _scope in SIGNIFICANCE_SCOPES:

    rule:
        name:
            f"significance_{_scope}"
        input:
            runs=layout.runs(R),
        output:
            **{
                name: significance_table(_scope, name, shown=True)
                for name in layout.SIGNIFICANCE_TABLES
            },
            verdict_page=significance_verdict_page(_scope, shown=True),
            other=[
                path
                for name in layout.SIGNIFICANCE_TABLES
                for path in extra_table_outputs(
                    layout.significance(R, _scope, name)[:-4]
                )
            ],
            figures=[
                path
                for files in significance_figures(_scope, shown=True).values()
                for path in files
            ],
        log:
            f"{R}/logs/significance/{_scope}.log",
        benchmark:
            f"{R}/benchmarks/significance/{_scope}.tsv"
        # the longest step on all runs: it starts as soon as they are collected, ahead of
        # any figure still to draw
        priority: AS_SOON_AS_READY
        conda:
            "../../environment.yml"
        params:
            scope=_scope,
            methods=significance_methods(_scope),
            model_methods=significance_model_methods(_scope),
            gammas=GAMMAS,
            baselines=BASELINES,
            published=config["comparison"]["published"],
            settings=config["significance"],
            formats=TABLE_FORMATS,
            figures={
                stem: [str(p) for p in files]
                for stem, files in significance_figures(_scope).items()
            },
            conditions=conditions_note(config["evaluation"]),
        script:
            "../scripts/significance.py"
