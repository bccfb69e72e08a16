# Figures 1-9 of the paper (in the configured formats, PNG and PDF by default, each with its
# plotted data as CSV); the report shows the first format.


rule figures_runs:
    input:
        runs=f"{R}/runs.parquet",
    output:
        fig5=report(
            f"{R}/figures/fig5.{FIG}", caption="../report/fig5.rst", category="Figures"
        ),
        fig6=report(
            f"{R}/figures/fig6.{FIG}", caption="../report/fig6.rst", category="Figures"
        ),
        other=extra_figure_outputs(f"{R}/figures/fig5")
        + extra_figure_outputs(f"{R}/figures/fig6"),
    log:
        f"{R}/logs/figures/runs.log",
    benchmark:
        f"{R}/benchmarks/figures/runs.tsv"
    conda:
        "../../environment.yml"
    params:
        methods=config["evaluation"]["methods"],
        baselines=BASELINES,
        formats=FIGURE_FORMATS,
        conditions=conditions_note(config["evaluation"]),
    script:
        "../scripts/figures_runs.py"


rule figures_toy:
    output:
        fig2=report(
            f"{R}/figures/fig2.{FIG}", caption="../report/fig2.rst", category="Figures"
        ),
        fig8=report(
            f"{R}/figures/fig8.{FIG}", caption="../report/fig8.rst", category="Figures"
        ),
        fig9=report(
            f"{R}/figures/fig9.{FIG}", caption="../report/fig9.rst", category="Figures"
        ),
        other=extra_figure_outputs(f"{R}/figures/fig2")
        + extra_figure_outputs(f"{R}/figures/fig8")
        + extra_figure_outputs(f"{R}/figures/fig9"),
    log:
        f"{R}/logs/figures/toy.log",
    benchmark:
        f"{R}/benchmarks/figures/toy.tsv"
    conda:
        "../../environment.yml"
    params:
        formats=FIGURE_FORMATS,
    script:
        "../scripts/figures_toy.py"


rule figure1:
    input:
        scores=f"{R}/scores/spambase/J48Unp.parquet",
    output:
        fig1=report(
            f"{R}/figures/fig1.{FIG}", caption="../report/fig1.rst", category="Figures"
        ),
        other=extra_figure_outputs(f"{R}/figures/fig1"),
    log:
        f"{R}/logs/figures/fig1.log",
    benchmark:
        f"{R}/benchmarks/figures/fig1.tsv"
    conda:
        "../../environment.yml"
    params:
        estimator=config["evaluation"]["estimator"],
        formats=FIGURE_FORMATS,
    script:
        "../scripts/figure1.py"


rule figures_credit_a:
    input:
        scores=expand(f"{R}/scores/credit-a/{{model}}.parquet", model=credit_a_models()),
    output:
        figures=[
            report(
                f"{R}/figures/{stem}.{FIG}",
                caption=f"../report/{stem}.rst",
                category="Figures",
            )
            for stem in credit_a_figure_stems()
        ],
        other=[
            path
            for stem in credit_a_figure_stems()
            for path in extra_figure_outputs(f"{R}/figures/{stem}")
        ],
    log:
        f"{R}/logs/figures/credit_a.log",
    benchmark:
        f"{R}/benchmarks/figures/credit_a.tsv"
    conda:
        "../../environment.yml"
    params:
        gammas=["inf", "0"],
        estimator=config["evaluation"]["estimator"],
        formats=FIGURE_FORMATS,
    script:
        "../scripts/figures_credit_a.py"
