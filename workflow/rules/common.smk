# Shared helpers of the rules: paths, wildcards and the configuration check.
import compileall
import json
import os

import threshold_choice
from threshold_choice._yaml import safe_load
from threshold_choice.errors import UserError
from threshold_choice.models.registry import import_estimator, registry_entries
from threshold_choice.models.weka import is_weka_estimator
from threshold_choice.reproduction import layout
from threshold_choice.reproduction.config import check_config, table_methods
from threshold_choice.reproduction.jobs import dataset_jobs
from threshold_choice.reproduction.steps.weka import (
    retry_authors_weka,
    weka_jar_override,
)
from threshold_choice.reproduction.paper import (
    CREDIT_A_FIGURES,
    FIGURES,
    conditions_note,
    figure_models,
    figures_drawn,
)
from threshold_choice.reproduction.scope import Extension, paper_gammas
from threshold_choice.reproduction.tables import paper_models
from threshold_choice.uncertainty import gamma_label, parse_gamma

try:
    check_config(config)
except UserError as exc:
    raise WorkflowError(str(exc)) from None

# Every job is a Python process that imports this package. Where PYTHONDONTWRITEBYTECODE is
# set (as on the machines this project is measured on), Python compiles an editable install's
# modules again in each of them (0.2-0.3 s per job): write their bytecode once, here, as pip
# does for a regular install. Quick when up to date; silent when the folder is read-only.
compileall.compile_dir(os.path.dirname(threshold_choice.__file__), quiet=2)

R = config["results"]
# Each score job gets its models' registry entries as a param, not the registry file: editing
# a model the configuration does not use changes nothing, and the score cache re-fits only the
# edited one. Likewise each dataset's preparation gets its own registry entry.
# Keys are sorted so that the same entry written in another order is the same param.
# (A model's description and cluster resources change no score: they are left out.)
_ENTRIES = registry_entries(config["models"]["registry"])
MODEL_ENTRIES = {
    name: json.loads(
        json.dumps(
            {k: v for k, v in entry.items() if k not in ("description", "resources")},
            sort_keys=True,
        )
    )
    for name, entry in _ENTRIES.items()
}
with open(config["data"]["registry"], encoding="utf-8") as _fh:
    DATASET_ENTRIES = {
        name: json.loads(json.dumps(entry, sort_keys=True))
        for name, entry in safe_load(_fh.read())["datasets"].items()
    }
DATASETS = config["datasets"]
# null and "bundled": python-weka-wrapper3's Weka 3.9.6
WEKA_JAR = (
    None if config["models"]["weka_jar"] == "bundled" else config["models"]["weka_jar"]
)


def runs_weka(model):
    """Whether configured model ``model`` runs a Weka learner."""
    entry = MODEL_ENTRIES[model]
    return is_weka_estimator(import_estimator(entry["estimator"], model=model))


def score_threads():
    """A score job's threads: the largest of its models' ``threads`` (registry; default 1)."""
    return max(MODEL_ENTRIES[m].get("threads", 1) for m in config["models"]["use"])


def score_resources(members):
    """A score job's cluster resources: the largest ``mem_mb`` of its models (at least 2000:
    a JVM, whose heap is a quarter of it) and 60 minutes plus each model's ``runtime`` for
    each dataset (registry ``resources``; at most 490 MB and 6 min measured for a job of the
    paper's models: ozone's, on a loaded machine)."""
    needs = [_ENTRIES[m].get("resources", {}) for m in config["models"]["use"]]
    return {
        "mem_mb": max([2000, *(n.get("mem_mb", 0) for n in needs)]),
        "runtime": 60 + len(members) * sum(n.get("runtime", 0) for n in needs),
    }


def weka_jar_input():
    """The configured weka.jar, an input of the score jobs when a configured model runs Weka
    (the score cache keys the Weka models on it, so changing it re-fits those only); for
    ``authors``, the choice of rule weka_authors (its jar, or the bundled Weka)."""
    if WEKA_JAR and any(runs_weka(model) for model in config["models"]["use"]):
        return AUTHORS_WEKA_CHOICE if WEKA_JAR == "authors" else WEKA_JAR
    return []


def learners():
    """What the configured paper's model types run, baselines aside (the project's own in
    every configuration): ``weka`` (all Weka learners, as in the paper), ``sklearn`` (none) or
    ``mixed``; stored with the runs for the comparison's causes."""
    paper = set(paper_models(config["comparison"]["published"]))
    paper -= set(config["models"]["baselines"])
    weka = {runs_weka(model) for model in config["models"]["use"] if model in paper}
    return "mixed" if len(weka) > 1 else ("sklearn" if weka == {False} else "weka")


def dataset_size(name):
    """Rows x columns of the registry's expected shape of dataset ``name`` (0 if unknown, or
    ``expected: pending``)."""
    expected = DATASET_ENTRIES[name].get("expected")
    if not isinstance(expected, dict):
        return 0
    return expected.get("n_rows", 0) * expected.get("n_columns", 0)


# what a dataset's 12 models cost beyond its size, in cells: ten splits fitted, scored and
# evaluated take about 2 s whatever the size, as 20 000 more cells do (measured on the
# default run's jobs: about 1e-4 s a cell)
DATASET_COST_IN_CELLS = 20000


def larger_first(datasets):
    """Scheduling priority of a job of ``datasets``: its expected length, the sum of their
    sizes plus a fixed cost per dataset, so that long jobs start first (started last,
    ozone's score job, and later a job of twelve small datasets, set a two-core run's
    length)."""
    return sum(dataset_size(d) + DATASET_COST_IN_CELLS for d in datasets)


# the datasets of each job of the per-dataset steps: one large dataset or several small ones
# (threshold_choice.reproduction.jobs); job n runs rules prepare_n, score_n and evaluate_n
DATASET_JOBS = dataset_jobs(
    DATASETS,
    {d: dataset_size(d) for d in DATASETS},
    small_below=config["jobs"]["small_dataset_cells"],
    per_job=config["jobs"]["datasets_per_job"],
)


# above every larger_first: for the jobs that run as soon as their inputs exist (the authors'
# Weka, which every score job waits for; evaluations), not in the run's last seconds
AS_SOON_AS_READY = 1 + max(larger_first(job) for job in DATASET_JOBS)
# below every score job and above the run's last steps (priority 0): the figures that need no
# per-run results fill a core beside the last score jobs, neither delaying a long score job at
# the start (on two cores, Fig. 1 did: ozone's job waited for it) nor left for the end
BESIDE_THE_SCORES = 1


MODELS = config["models"]["use"]
GAMMAS = [gamma_label(g) for g in config["evaluation"]["gammas"]]
# everything else of evaluation (the LossSettings fields and the loss): the runs are evaluated
# with it, and the cost-curve figures' areas computed with it (the runs' expected losses)
EVALUATION_SETTINGS = {
    k: v for k, v in config["evaluation"].items() if k not in ("methods", "gammas")
}
# caches shared by every results folder (config "cache"): fitted scores, and the moment tables
# of the exact estimator (on disk across jobs)
SCORE_CACHE = os.path.join(config["cache"], "scores")
# Fig. 1 on the authors' split of it (the default) or on the first 50/50 split
FIG1_PAPER = config["outputs"]["fig1"] == "paper-protocol"
# Fig. 1's dataset and model (reproduction.paper.FIGURES)
FIG1_DATASET, (FIG1_MODEL,) = FIGURES["fig1"].dataset, FIGURES["fig1"].models
WEKA_CACHE = os.path.join(config["cache"], "weka")
AUTHORS_WEKA_CHOICE = f"{R}/weka/authors.json"
os.environ.setdefault(
    "THRESHOLD_CHOICE_CACHE", os.path.join(config["cache"], "moments")
)
# What runs is checked at each run: an override of the jar is announced, and an authors'
# Weka that could not be fetched last time is tried again (with its warning when it fails).
if workflow.is_main_process and any(runs_weka(m) for m in config["models"]["use"]):
    weka_jar_override()
    if WEKA_JAR == "authors":
        retry_authors_weka(WEKA_CACHE, AUTHORS_WEKA_CHOICE)


wildcard_constraints:
    dataset=r"[A-Za-z0-9_.-]+",
    model=r"[A-Za-z0-9_.-]+",
    gamma=layout.GAMMA_LABEL,


def all_outputs():
    # the per-dataset scores and runs too: a job that failed leaves its outputs missing (and
    # removes a damaged input), and Snakemake redoes a missing file only when a target asks
    # for it (with the collected runs present, it would report "Nothing to be done")
    return [
        *(layout.scores(R, d, m) for d in DATASETS for m in MODELS),
        *(layout.dataset_runs(R, d) for d in DATASETS),
        layout.runs(R),
        *current_outputs(),
        layout.outputs_list(R),
    ]


def current_outputs():
    """The tables, figures, comparison, extension and statistical tests of this
    configuration: what rule stale_outputs keeps (threshold_choice.reproduction.stale;
    significance_outputs: rules/significance.smk, included before the rule)."""
    return [
        *table_outputs(),
        *figure_outputs(),
        *comparison_outputs(),
        *extension_outputs(),
        *significance_outputs(),
    ]


BASELINES = config["models"]["baselines"]


TABLE_FORMATS = list(config["outputs"]["tables"])
FIGURE_FORMATS = list(config["outputs"]["figures"])
# the first figure format is the one shown in the report
FIG = FIGURE_FORMATS[0]


def extra_table_outputs(stem):
    """The configured table formats besides CSV, for a table ``stem``."""
    return [f"{stem}.{ext}" for ext in TABLE_FORMATS if ext != "csv"]


def figure_files(stem, extended=False):
    """The files of figure ``stem`` (fig1..fig9): one per configured format, the first shown
    in the report with the figure's caption, and the plotted data (CSV); ``extended``: the
    extension's (Figs 5 and 6), shown in the report's Extension category."""
    shown = report(
        layout.figure(R, stem, FIG, extended=extended),
        caption=f"../report/{'extension_' if extended else ''}{stem}.rst",
        category="Extension" if extended else "Figures",
    )
    return (
        [shown]
        + [layout.figure(R, stem, ext, extended=extended) for ext in FIGURE_FORMATS[1:]]
        + [layout.figure(R, stem, "csv", extended=extended)]
    )


# The paper's scope and the extension (threshold_choice.reproduction.scope): the paper's
# tables, figures and comparison are made on its datasets, model types and gammas only; a
# configuration that adds any gets an extension (every run) in a folder of its own.
PAPER_GAMMA_LABELS = paper_gammas(config["evaluation"]["gammas"])
EXTENSION = Extension.of(
    DATASETS,
    MODELS,
    config["evaluation"]["gammas"],
    config["evaluation"],
    config["comparison"]["published"],
)
EXTENDS_PAPER = not EXTENSION.empty
# the extension as plain values, for the params of its steps (the scripts rebuild it)
EXTENSION_PARAMS = {
    "datasets": DATASETS,
    "models": MODELS,
    "gammas": GAMMAS,
    "evaluation": config["evaluation"],
    "published_dir": config["comparison"]["published"],
}


def tables_78(number, extended=False):
    """The CSVs of Table ``number`` (7 or 8) at each of the paper's gammas (``extended``: the
    extension's, at every configured gamma)."""
    gammas = GAMMAS if extended else PAPER_GAMMA_LABELS
    return [layout.table(R, number, g, extended=extended) for g in gammas]


def table_labels(path=None):
    """The report's labels of a Table 7 or 8 CSV ``path`` (none: the page of every gamma,
    first), ranked by gamma so that the report, which sorts labels as text, lists them in
    numeric order (0, 1, 2, ..., inf; not 0, 1, 16, 2)."""
    ranked = sorted(GAMMAS, key=parse_gamma)
    width = len(str(len(ranked)))
    if path is None:
        return {"#": "0" * width, "gamma": "every gamma (3 decimals)"}
    gamma = layout.table_gamma(path)
    return {"#": str(ranked.index(gamma) + 1).zfill(width), "gamma": f"{gamma} (CSV)"}


def extended_tables(number):
    """The extension's Table ``number`` CSVs (none when the configuration adds nothing)."""
    return tables_78(number, extended=True) if EXTENDS_PAPER else []


def extension_tables():
    """The extension's table CSVs by name (table5, table7_gamma-<g>, ...) for its page."""
    paths = extended_table5() + extended_tables(7) + extended_tables(8)
    return {os.path.basename(path)[:-4]: path for path in paths}


def extended_table5():
    """The extension's Table 5 CSV, in a list (empty when the configuration adds nothing)."""
    return [layout.table(R, 5, extended=True)] if EXTENDS_PAPER else []


def table_outputs():
    csvs = [layout.table(R, 5), *extended_table5()]
    for number in (7, 8):
        csvs += tables_78(number) + extended_tables(number)
    return [f"{csv[:-4]}.{ext}" for csv in csvs for ext in TABLE_FORMATS]


#: the extension's figures (of every run; the cost-curve figures show fixed model types)
EXTENSION_FIGURES = ["fig5", "fig6"]


def extension_outputs():
    """The extension's figures and files (none when the configuration adds nothing)."""
    if not EXTENDS_PAPER:
        return []
    figures = [
        str(path)
        for stem in EXTENSION_FIGURES
        for path in figure_files(stem, extended=True)
    ]
    return figures + [layout.extension(R, name) for name in layout.EXTENSION_FILES]


def credit_a_models():
    """Models of Figs 3, 4, 7 that this configuration runs (none without credit-a)."""
    if "credit-a" not in DATASETS:
        return []
    return [m for m in figure_models(CREDIT_A_FIGURES) if m in MODELS]


def figure_stems():
    """The figures this configuration draws (threshold_choice.reproduction.paper.FIGURES)."""
    return figures_drawn(DATASETS, MODELS)


def credit_a_figure_stems():
    return [stem for stem in figure_stems() if stem in CREDIT_A_FIGURES]


def figure_outputs():
    # plain paths: the report flag belongs to the rules that write them
    return [str(path) for stem in figure_stems() for path in figure_files(stem)]


def comparison_outputs():
    authors = (
        [layout.authors_runs_comparison(R)]
        if config["comparison"]["authors_results"]
        else []
    )
    return (
        [layout.comparison(R, name) for name in layout.COMPARISON_FILES]
        + [
            layout.report_page(R),
            layout.report_table(R, "table7"),
            layout.report_table(R, "table8"),
        ]
        + authors
    )
