# Figures 1-9 of the paper (PNG and PDF, each with its plotted data as CSV).


rule figures_runs:
    input:
        runs=f"{R}/runs.parquet",
    output:
        fig5=report(f"{R}/figures/fig5.png", caption="../report/fig5.rst", category="Figures"),
        fig6=report(f"{R}/figures/fig6.png", caption="../report/fig6.rst", category="Figures"),
        other=multiext(f"{R}/figures/fig5", ".pdf", ".csv") + multiext(f"{R}/figures/fig6", ".pdf", ".csv"),
    params:
        methods=config["evaluation"]["methods"],
        baselines=BASELINES,
    conda:
        "../../environment.yml"
    log:
        f"{R}/logs/figures/runs.log",
    script:
        "../scripts/figures_runs.py"


rule figures_toy:
    output:
        fig2=report(f"{R}/figures/fig2.png", caption="../report/fig2.rst", category="Figures"),
        fig8=report(f"{R}/figures/fig8.png", caption="../report/fig8.rst", category="Figures"),
        fig9=report(f"{R}/figures/fig9.png", caption="../report/fig9.rst", category="Figures"),
        other=multiext(f"{R}/figures/fig2", ".pdf", ".csv")
        + multiext(f"{R}/figures/fig8", ".pdf", ".csv")
        + multiext(f"{R}/figures/fig9", ".pdf", ".csv"),
    conda:
        "../../environment.yml"
    log:
        f"{R}/logs/figures/toy.log",
    script:
        "../scripts/figures_toy.py"


rule figure1:
    input:
        scores=f"{R}/scores/spambase/J48Unp.parquet",
    output:
        png=report(f"{R}/figures/fig1.png", caption="../report/fig1.rst", category="Figures"),
        other=multiext(f"{R}/figures/fig1", ".pdf", ".csv"),
    params:
        estimator=config["evaluation"].get("estimator", "exact"),
    conda:
        "../../environment.yml"
    log:
        f"{R}/logs/figures/fig1.log",
    script:
        "../scripts/figure1.py"


rule figures_credit_a:
    input:
        scores=expand(f"{R}/scores/credit-a/{{model}}.parquet", model=credit_a_models()),
    output:
        [
            report(f"{R}/figures/{stem}.png", caption=f"../report/{stem}.rst", category="Figures")
            for stem in figure_stems()
            if stem in ("fig3", "fig4", "fig7")
        ],
        [
            f"{R}/figures/{stem}.{ext}"
            for stem in figure_stems()
            if stem in ("fig3", "fig4", "fig7")
            for ext in ("pdf", "csv")
        ],
    params:
        gammas=["inf", "0"],
        estimator=config["evaluation"].get("estimator", "exact"),
    conda:
        "../../environment.yml"
    log:
        f"{R}/logs/figures/credit_a.log",
    script:
        "../scripts/figures_credit_a.py"
