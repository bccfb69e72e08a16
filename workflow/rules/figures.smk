# Figures 1-9 of the paper (in the configured formats, PNG and PDF by default, each with its
# plotted data as CSV); the report shows the first format. Each figure's output is the list of
# its files (figure_files), which the step writes as named. The cost curves (Figs 1, 3, 4, 7,
# 8, 9) take the evaluation settings, so that their areas are the runs' expected losses. The
# figures that need no per-run results are drawn beside the last score jobs
# (BESIDE_THE_SCORES), so that the run's end waits for Figs 5-6 only.


# Figs 5 and 6 of the paper's scope (its datasets, model types and gammas), whatever the
# configuration adds
rule figures_runs:
    input:
        runs=layout.runs(R),
    output:
        fig5=figure_files("fig5"),
        fig6=figure_files("fig6"),
    log:
        f"{R}/logs/figures/runs.log",
    benchmark:
        f"{R}/benchmarks/figures/runs.tsv"
    conda:
        "../../environment.yml"
    params:
        methods=config["evaluation"]["methods"],
        baselines=BASELINES,
        conditions=conditions_note(config["evaluation"]),
        published=config["comparison"]["published"],
        extended=False,
    script:
        "../scripts/figures_runs.py"


# the extension's Figs 5 and 6: every run (only when the configuration adds to the paper's)
rule extension_figures:
    input:
        runs=layout.runs(R),
    output:
        fig5=figure_files("fig5", extended=True),
        fig6=figure_files("fig6", extended=True),
    log:
        f"{R}/logs/figures/extension.log",
    benchmark:
        f"{R}/benchmarks/figures/extension.tsv"
    conda:
        "../../environment.yml"
    params:
        methods=config["evaluation"]["methods"],
        baselines=BASELINES,
        conditions=conditions_note(config["evaluation"]),
        published=config["comparison"]["published"],
        extended=True,
    script:
        "../scripts/figures_runs.py"


rule figures_toy:
    output:
        fig2=figure_files("fig2"),
        fig8=figure_files("fig8"),
        fig9=figure_files("fig9"),
    log:
        f"{R}/logs/figures/toy.log",
    benchmark:
        f"{R}/benchmarks/figures/toy.tsv"
    priority: BESIDE_THE_SCORES
    conda:
        "../../environment.yml"
    params:
        settings=EVALUATION_SETTINGS,
    script:
        "../scripts/figures_toy.py"


# Fig. 1 on the authors' own split (J48Unp fitted on 1% of spambase: paper.FIG1_PROTOCOL), or
# with outputs.fig1: first-split on the first 50/50 split's scores (paper.FIGURES names the
# dataset and model)
rule figure1:
    input:
        source=(
            layout.data(R, FIG1_DATASET)
            if FIG1_PAPER
            else layout.scores(R, FIG1_DATASET, FIG1_MODEL)
        ),
        weka_jar=weka_jar_input() if FIG1_PAPER else [],
    output:
        fig1=figure_files("fig1"),
    log:
        f"{R}/logs/figures/fig1.log",
    benchmark:
        f"{R}/benchmarks/figures/fig1.tsv"
    priority: BESIDE_THE_SCORES
    conda:
        "../../environment.yml"
    params:
        settings=EVALUATION_SETTINGS,
        # (drawn only when its model runs: figures_drawn; a registry may lack it)
        entry=MODEL_ENTRIES.get(FIG1_MODEL) if FIG1_PAPER else None,
        seed=config["models"]["seed"],
    script:
        "../scripts/figure1.py"


rule figures_credit_a:
    input:
        scores=[layout.scores(R, "credit-a", m) for m in credit_a_models()],
    output:
        **{stem: figure_files(stem) for stem in credit_a_figure_stems()},
    log:
        f"{R}/logs/figures/credit_a.log",
    benchmark:
        f"{R}/benchmarks/figures/credit_a.tsv"
    priority: BESIDE_THE_SCORES
    conda:
        "../../environment.yml"
    params:
        gammas=["inf", "0"],
        settings=EVALUATION_SETTINGS,
    script:
        "../scripts/figures_credit_a.py"
