"""The ``threshold-choice plot`` command: a Display of one or more models' scores, saved as
a figure (png, pdf or svg, from the suffix of ``--out``) with the plotted numbers in a CSV
beside it (same name, ``.csv``; columns ``panel, kind, series, x, y``, ``panel`` = the model).

Several ``--test`` files (one per model, e.g. two classifiers on the same test set) share one
axes, coloured as the library colours models on one axes (the first keeps the method colours,
each later one a colour of its own); ``--train`` files, if given, pair with them in order.
Legends name each model by its ``--name`` (default: the file's stem) and the axis labels the
``--pos-label`` class, as the library's ``from_estimator`` does. Options that
only one kind reads (``--thresholds``, ``--average``, ``--inclusive``, ``--scale`` for decision
curves, ``--cost`` and ``--f-isometric`` for FROC, ``--cost-range`` for log-odds regret,
``--bootstrap`` for the kinds with bands, ``--train`` for those with train-optimal,
``--costs`` for those that mark them) are refused for the others, with the kinds that take
them.

Costs in the user's terms, as ``loss`` takes them: ``--costs FP,FN`` (their ``c`` marked
where the Display marks costs; their positive class ``--pos-label``), ``--cost-ratio
LOW,HIGH`` (a belief built from a range of ratios) and ``--cost-distribution SPEC`` (the
belief the expected losses average over). The kind ``cost-weights`` draws beliefs
themselves (``--cost-distribution``, repeatable, and ``--cost-ratio``'s), without scores.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from threshold_choice.cli import COMMANDS
from threshold_choice.cli.inputs import (
    MAX_BOOTSTRAP,
    add_cost_arguments,
    add_pos_label_argument,
    check_outputs,
    check_seed_and_bootstrap,
    check_train_given,
    costs_from_args,
    read_scores_csv,
)
from threshold_choice.errors import UserError
from threshold_choice.expected_loss import ESTIMATORS
from threshold_choice.methods import METHODS, NEEDS_TRAIN
from threshold_choice.uncertainty import parse_gamma

if TYPE_CHECKING:  # matplotlib and the Displays are imported by the run: --help stays quick
    from threshold_choice.plotting import ThresholdChoiceDisplay

#: plot kinds and the name of their Display (in :mod:`threshold_choice.plotting`)
KINDS: dict[str, str] = {
    "cost-curves": "CostCurveDisplay",
    "brier": "BrierCurveDisplay",
    "certainty": "CertaintyDisplay",
    "decision-curve": "DecisionCurveDisplay",
    "froc": "FROCDisplay",
    "f-cost": "FCostDisplay",
    "roc": "ROCDisplay",
    "log-odds-regret": "LogOddsRegretDisplay",
    "cost-weights": "CostWeightDisplay",
}
#: the kinds drawn from scores (``--test``); the others draw beliefs
SCORE_KINDS: tuple[str, ...] = tuple(k for k in KINDS if k != "cost-weights")
#: the kinds whose expected losses average over a belief (``--cost-distribution``)
BELIEF_KINDS: tuple[str, ...] = ("cost-curves", "brier", "certainty", "decision-curve",
                                 "f-cost")
#: the scales of ``--scale`` per kind
SCALES: dict[str, tuple[str, ...]] = {"decision-curve": ("linear", "quadratic", "log"),
                                      "cost-weights": ("log-odds", "cost")}


def display_class(kind: str) -> type[ThresholdChoiceDisplay]:
    """The Display that draws the plot ``kind``."""
    from threshold_choice import plotting

    return getattr(plotting, KINDS[kind])

#: options read by some kinds only (argparse destination -> those kinds)
_KIND_OPTIONS: dict[str, tuple[str, ...]] = {
    "method": ("cost-curves", "brier", "certainty", "decision-curve", "f-cost"),
    "gamma": ("cost-curves", "brier", "certainty", "decision-curve", "f-cost"),
    "bootstrap": ("cost-curves", "brier", "certainty"),
    "thresholds": ("decision-curve",),
    "average": ("decision-curve",),
    "inclusive": ("decision-curve",),
    "scale": ("decision-curve", "cost-weights"),
    "cost": ("froc", "roc"),  # --cost-proportion, or --cost
    "f_isometric": ("froc",),
    "cost_range": ("log-odds-regret",),
    # the kinds with train-optimal (the others read the file and drew the same figure)
    "train": ("cost-curves", "certainty", "decision-curve", "f-cost"),
}


def _display_kwargs(args: argparse.Namespace) -> dict:
    """The Display's keyword arguments from the options; an option another kind reads is an
    error rather than silently ignored."""
    for dest, kinds in _KIND_OPTIONS.items():
        if getattr(args, dest) and args.kind not in kinds:
            option = "--" + dest.replace("_", "-")
            raise UserError(f"{option} applies to plot kind(s) {', '.join(kinds)}, "
                            f"not {args.kind}")
    if args.scale and args.scale not in SCALES[args.kind]:
        raise UserError(f"--scale {args.scale} is not a scale of {args.kind}; choose from "
                        f"{', '.join(SCALES[args.kind])}")
    beliefs = args.cost_distribution or []
    if args.kind == "cost-weights":  # every belief given is drawn
        if args.costs is not None:
            raise UserError("--costs state one c, which has no density: plot cost-weights "
                            "draws beliefs (--cost-distribution, --cost-ratio)")
        ratio = argparse.Namespace(**{**vars(args), "cost_distribution": None})
        _, belief = costs_from_args(ratio)
        drawn = [*beliefs, *([belief] if belief is not None else [])]
        if not drawn:
            raise UserError("plot cost-weights draws beliefs about c: give "
                            "--cost-distribution SPEC (repeatable) or --cost-ratio LOW,HIGH")
        return {"distributions": drawn, "scale": args.scale or "log-odds"}
    costs, belief = costs_from_args(args)
    if len(beliefs) > 1:
        raise UserError("--cost-distribution is repeatable for plot cost-weights only; give "
                        "one belief")
    if belief is not None and args.kind not in BELIEF_KINDS:
        raise UserError(f"--cost-distribution (or --cost-ratio's belief) applies to plot "
                        f"kind(s) {', '.join(BELIEF_KINDS)}, not {args.kind}")
    kwargs: dict = _marked_costs(args, costs)
    if args.kind == "froc":
        return {**kwargs, "f_isometrics": args.f_isometric}
    if args.kind == "roc":
        return kwargs
    if args.kind == "log-odds-regret":
        if args.cost_range is not None:
            low, high = args.cost_range
            if not 0.0 < low < high < 1.0:  # also NaN
                fix = (f"e.g. --cost-range {high:g} {low:g}" if 0.0 < high < low < 1.0
                       else "e.g. --cost-range 0.05 0.5")
                raise UserError(f"--cost-range LOW HIGH needs 0 < LOW < HIGH < 1 (the log-odds "
                                f"of both ends finite), got {low:g} {high:g}; {fix}")
        return {**kwargs, "cost_range": args.cost_range}
    from threshold_choice.evaluation import LossSettings

    # --seed seeds the montecarlo draws as well as the bootstrap, as in ``loss``
    kwargs["settings"] = LossSettings(estimator=args.estimator, seed=args.seed,
                                      cost_distribution=belief or "uniform")
    if args.method:
        kwargs["methods"] = args.method
    if args.gamma:
        kwargs["gammas"] = [parse_gamma(g) for g in args.gamma]
    if args.bootstrap:
        kwargs.update(n_boot=args.bootstrap, seed=args.seed)
    if args.kind == "decision-curve":
        kwargs.update(thresholds=args.thresholds, average=args.average,
                      inclusive=args.inclusive, scale=args.scale or "linear")
    return kwargs


def _marked_costs(args: argparse.Namespace, costs: object) -> dict:
    """The Display's ``costs`` (a :class:`~threshold_choice.costs.Costs`, marked where the
    Display marks costs: its ``COSTS_MARKED``) and ``--cost``'s list of cost proportions
    (``cost_proportions``)."""
    kwargs: dict = {}
    if args.cost:
        kwargs["cost_proportions"] = args.cost
    if args.costs is not None and display_class(args.kind).COSTS_MARKED is None:
        marked = [k for k in KINDS if k != "cost-weights"
                  and display_class(k).COSTS_MARKED is not None]
        raise UserError(f"--costs are marked on plot kind(s) {', '.join(marked)}; plot "
                        f"{args.kind} marks none: drop --costs (its figure would be the same)")
    if costs is not None and display_class(args.kind).COSTS_MARKED is not None:
        # the files' labels are read as 0/1 already (--pos-label the 1): the costs name none
        kwargs["costs"] = dataclasses.replace(costs, pos_label=None)
    return kwargs


def _event(pos_label: str | None) -> str | int | None:
    """The class named in the axis labels: ``--pos-label`` (read as text; 0 and 1 as the
    numbers they stand for), or ``None`` for 0/1 labels (then "class 1")."""
    if pos_label in ("0", "1"):
        return int(pos_label)
    return pos_label


def _figure_name_problem(given: str, formats: Sequence[str]) -> str:
    """The message for an ``--out`` without a figure format's suffix: the path as given, and
    whether it is a folder (``.``, ``figs/``), has no suffix or another one."""
    out = Path(given)
    allowed = ", ".join("." + f for f in formats)
    head = f"--out must end in one of {allowed}, got {given!r}"
    if not given.strip():
        return f"{head} (empty); give a figure file name, e.g. --out figure.{formats[0]}"
    if out.is_dir() or given.endswith(("/", os.sep)) or out.name in ("", ".", ".."):
        example = os.path.join(given, f"figure.{formats[0]}")
        return f"{head}, which is a folder; give a file name in it, e.g. --out {example}"
    if not out.suffix:
        return f"{head}, which has no suffix; e.g. --out {given}.{formats[0]}"
    return (f"{head}, which ends in {out.suffix}; e.g. --out "
            f"{out.with_suffix('.' + formats[0])}")


def _run(args: argparse.Namespace) -> int:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from threshold_choice.plotting import CostCurveDisplay, save_displays
    from threshold_choice.plotting._common import ALLOWED_FIGURE_FORMATS

    out = Path(args.out)
    if out.suffix.lstrip(".").lower() not in ALLOWED_FIGURE_FORMATS:
        raise UserError(_figure_name_problem(args.out, ALLOWED_FIGURE_FORMATS))
    for path in (out, out.with_suffix(".csv")):
        if path.is_dir():
            raise UserError(f"--out {out}: {path} is a folder; give a file name, e.g. "
                            f"--out {path / ('figure' + out.suffix)}")
    check_seed_and_bootstrap(args)
    if args.kind == "cost-weights":
        return _run_beliefs(args, out)
    if not args.test:
        raise UserError(f"plot {args.kind} draws scores: give --test FILE (a CSV label,score; "
                        "repeatable, one per model)")
    trains = args.train or []
    check_outputs([out, out.with_suffix(".csv")], [*args.test, *trains])
    if trains and len(trains) != len(args.test):
        raise UserError(
            f"{len(args.test)} --test files but {len(trains)} --train files: give one --train "
            "per --test (in the same order) or none"
        )
    names = args.name or [Path(p).stem for p in args.test]
    if len(names) != len(args.test):
        raise UserError(f"{len(args.test)} --test files but {len(names)} --name values: give "
                        "one --name per --test (in the same order) or none (the file names)")
    kwargs = _display_kwargs(args)  # (refuses --method for the kinds without methods)
    check_train_given(args.method or [], bool(trains))
    cls = display_class(args.kind)
    several = len(args.test) > 1
    if several and issubclass(cls, CostCurveDisplay):
        kwargs["cost_lines"] = False  # one model's cost lines would hide the others
    figure = Figure(figsize=(8.5, 5.2), layout="constrained")
    FigureCanvasAgg(figure)
    ax = figure.add_subplot()
    displays = []
    for i, (path, name) in enumerate(zip(args.test, names, strict=True)):
        test_y, test_s = read_scores_csv(path, "test", args.pos_label)
        train_y = train_s = None
        if trains:
            train_y, train_s = read_scores_csv(trains[i], "training", args.pos_label)
        display = cls.from_predictions(
            test_y, test_s, train_y=train_y, train_score=train_s, name=name, plot=False,
            **kwargs,
        )
        display.event = _event(args.pos_label)
        displays.append(display.plot(ax=ax))
    ax.set_title(args.title or f"{args.kind}: {', '.join(names)}", pad=10)
    dropped = [m for m in getattr(cls, "DEFAULT_METHODS", ()) if m in NEEDS_TRAIN]
    if dropped and not trains and not args.method:
        print(f"threshold-choice plot: note: {', '.join(dropped)} left out: it selects on "
              "training scores; give --train", file=sys.stderr)
    try:
        paths = save_displays(displays, out)
    except OSError as exc:  # the message names the file (the figure or the CSV beside it)
        raise UserError(f"cannot write --out {out} ({exc.filename}: {exc.strerror}); give a "
                        "path in a folder you can write") from None
    print(f"wrote {paths[out.suffix.lstrip('.').lower()]} and {paths['csv']}")
    return 0


def _run_beliefs(args: argparse.Namespace, out: Path) -> int:
    """``plot cost-weights``: the densities of beliefs about ``c``, no scores."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from threshold_choice.plotting import CostWeightDisplay, save_displays

    for option in ("test", "train", "name", "method", "gamma", "bootstrap"):
        if getattr(args, option):
            raise UserError(f"--{option} applies to the kinds drawn from scores, not "
                            "cost-weights (which draws beliefs)")
    kwargs = _display_kwargs(args)
    check_outputs([out, out.with_suffix(".csv")], [])
    figure = Figure(figsize=(8.5, 5.2), layout="constrained")
    FigureCanvasAgg(figure)
    ax = figure.add_subplot()
    display = CostWeightDisplay.from_distributions(kwargs["distributions"],
                                                   scale=kwargs["scale"], ax=ax)
    if args.title:
        ax.set_title(args.title, pad=10)
    try:
        paths = save_displays([display], out)
    except OSError as exc:
        raise UserError(f"cannot write --out {out} ({exc.filename}: {exc.strerror}); give a "
                        "path in a folder you can write") from None
    print(f"wrote {paths[out.suffix.lstrip('.').lower()]} and {paths['csv']}")
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "plot",
        help=COMMANDS["plot"].help,
        description=(
            "Plot one or more models' scores (CSV files label,score; label 1 = the class "
            "whose probability the score estimates; predict 1 iff score > threshold). "
            "KIND: cost-curves (test cost lines and K(c) per method and gamma), brier (the "
            "optimal, Brier and ROC cost curves at gamma = inf), certainty (expected loss "
            "against gamma per method, changes of the best method marked), decision-curve (net "
            "benefit against the threshold probability with treat-all/none; --method/--gamma "
            "add methods' curves under an uncertain c_hat, --average LOW HIGH the exact mean "
            "net benefit; --scale quadratic|log the rescaled axes of paper 002, App. C), "
            "froc (FROC points, hull and isometrics; the F-measure's positive class is 0), "
            "f-cost (F-cost lines and expected 2FQ/(1-FQ) curves per method and "
            "gamma), roc (ROC curve, convex hull, and with --cost the optimal vertex), "
            "log-odds-regret (regret against logit(c) of the scores and of their isotonic "
            "recalibration: the areas are the log loss, its calibration and refinement; "
            "--cost-range LOW HIGH decomposes the bounded log loss over a range), "
            "cost-weights (the densities of beliefs about c: --cost-distribution, repeatable, "
            "or --cost-ratio; no --test; --scale log-odds|cost). --costs FP,FN mark the "
            "costs' c, --cost-distribution or --cost-ratio the belief the expected losses "
            "average over, as in `loss`. Writes the figure (--out, png/pdf/svg) and the "
            "plotted numbers beside it (.csv)."
        ),
    )
    parser.add_argument("kind", choices=tuple(KINDS))
    parser.add_argument("--test", action="append",
                        help="CSV label,score of a model's test scores (repeatable: one per "
                        "model); every kind but cost-weights")
    add_pos_label_argument(parser)
    parser.add_argument("--train", action="append",
                        help="CSV label,score of its training scores (train-optimal; one per "
                        "--test)")
    parser.add_argument("--name", action="append", help="model name (one per --test)")
    parser.add_argument("--out", required=True, help="figure file: .png, .pdf or .svg")
    parser.add_argument("--method", action="append", choices=METHODS,
                        help="method (repeatable; default: the kind's)")
    parser.add_argument("--gamma", action="append",
                        help="certainty level, a number >= 0 or inf (repeatable)")
    parser.add_argument("--estimator", choices=ESTIMATORS, default="exact",
                        help="estimator of the expected losses in legends and curves")
    parser.add_argument("--bootstrap", type=int, default=0, metavar="N",
                        help="draw 95%% bootstrap bands from N replicates of the test set "
                        f"(at most {MAX_BOOTSTRAP})")
    parser.add_argument("--seed", type=int, default=0,
                        help="seed of the bootstrap and of the montecarlo draws (>= 0)")
    parser.add_argument("--thresholds", nargs="+", type=float, metavar="T",
                        help="decision-curve: threshold probabilities in [0, 1) (default: 0, "
                        "0.01, ..., 0.99)")
    parser.add_argument("--average", nargs=2, type=float, action="append",
                        metavar=("LOW", "HIGH"),
                        help="decision-curve: exact average net benefit over t uniform on "
                        "[LOW, HIGH] (repeatable)")
    parser.add_argument("--inclusive", action="store_true",
                        help="decision-curve: treat iff score >= t (dcurves); default score > t")
    parser.add_argument("--scale", choices=("linear", "quadratic", "log", "log-odds", "cost"),
                        help="decision-curve: the threshold axis, t (linear, default) or paper "
                        "002's rescalings -(1-t)^2/2 and ln t (quadratic, log), over which the "
                        "area between the prevalence and the curve on each --average range is "
                        "half the bounded Brier score or the bounded log loss; cost-weights: "
                        "log-odds (default) or cost")
    parser.add_argument("--cost-proportion", "--cost", dest="cost", type=float,
                        action="append", metavar="C",
                        help="froc, roc: mark the F-optimal (froc) or least-loss (roc) point at "
                        "cost proportion C (repeatable; the Displays' cost_proportions; --cost "
                        "is the older name)")
    parser.add_argument("--f-isometric", type=float, action="append", metavar="F",
                        help="froc: draw the isometric of F-measure F (repeatable; default: "
                        "the best F1)")
    parser.add_argument("--cost-range", nargs=2, type=float, metavar=("LOW", "HIGH"),
                        help="log-odds-regret: shade and decompose the bounded log loss over "
                        "c in [LOW, HIGH] (0 < LOW < HIGH < 1)")
    add_cost_arguments(parser, several_beliefs=True)
    parser.add_argument("--title", help="figure title")
    parser.set_defaults(func=_run)
