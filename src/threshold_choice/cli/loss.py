"""``threshold-choice loss``: expected losses of threshold choice methods for one set of
scores, and the test-set metrics (see :func:`threshold_choice.evaluation.expected_losses`)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

import numpy as np

from threshold_choice.cli import COMMANDS
from threshold_choice.cli.inputs import (
    EXACT_FORMAT,
    READABLE_FORMAT,
    add_cost_arguments,
    add_exact_argument,
    add_pos_label_argument,
    check_seed_and_bootstrap,
    check_train_given,
    costs_from_args,
    probability_problem,
    read_scores_csv,
)
from threshold_choice.errors import UserError
from threshold_choice.expected_loss import ESTIMATORS
from threshold_choice.fmeasure import LOSSES
from threshold_choice.methods import METHODS, NEEDS_TRAIN, PAPER_METHODS, TIE_BREAKING
from threshold_choice.uncertainty import (
    PAPER_GAMMAS,
    PAPER_GRID_SIZE,
    check_grid_size,
    format_gamma,
    parse_gamma,
)

if TYPE_CHECKING:  # pandas and the evaluation are imported by the run: --help stays quick
    import pandas as pd

    from threshold_choice.costs import Costs

#: metrics the command prints, always
_DEFAULT_CLI_METRICS = ("AUC", "BS", "MAE", "CL", "RL", "RL_conv")
#: the isotonic decompositions, after them: BS = CL_conv + RL_conv, LogLoss = LogLoss_CL_conv +
#: LogLoss_RL_conv (paper 002's Thm 5.3 corrected; :mod:`threshold_choice.calibration`)
_DECOMPOSITION_CLI_METRICS = ("CL_conv", "LogLoss", "LogLoss_CL_conv", "LogLoss_RL_conv")
# H always; the bounded scores when the cost distribution is a bounded range
_EXTRA_CLI_METRICS = ("H", "BS_bounded", "LogLoss_bounded")
#: the ranking metrics practice uses (paper 002, Sect. 3): AP always, precision@K and
#: recall@K for each --top-k
_RANKING_CLI_METRICS = ("AP",)
#: metrics that compare scores with the 0/1 labels (AUC, RL and RL_conv depend only on the
#: order and the ties of the scores, so any real scores serve)
PROBABILITY_METRICS: tuple[str, ...] = (
    "BS", "MAE", "CL", "CL_conv", "LogLoss", "LogLoss_CL_conv", "BS_bounded", "LogLoss_bounded"
)


def _json_number(value: object) -> object:
    """JSON has no NaN or infinity: an infinite number is written as the text "inf" or
    "-inf" (as gamma is), NaN (a value not computed) as null."""
    if isinstance(value, float) and not np.isfinite(value):
        return None if np.isnan(value) else ("inf" if value > 0 else "-inf")
    return value


def _write_output(
    losses: pd.DataFrame, metric_frame: pd.DataFrame, fmt: str, estimator: str,
    exact: bool = False,
) -> None:
    """CSV (losses, a blank line, metrics) or JSON; ``metric_frame``: ``metric, value`` and,
    with ``--bootstrap``, ``lower, upper`` (as the losses then)."""
    def records(frame: pd.DataFrame) -> list[dict[str, object]]:
        return [{k: _json_number(v) for k, v in row.items()}
                for row in frame.to_dict(orient="records")]

    if fmt == "json":
        payload: dict[str, object] = {
            "estimator": estimator,
            "losses": records(losses),
            "metrics": {row["metric"]: row["value"] for row in records(metric_frame)},
        }
        if "lower" in metric_frame.columns:
            payload["metric_intervals"] = records(metric_frame)
        # allow_nan=False: fail loudly rather than write NaN/Infinity (not JSON)
        sys.stdout.write(json.dumps(payload, indent=2, allow_nan=False) + "\n")
        return
    digits = EXACT_FORMAT if exact else READABLE_FORMAT
    losses.to_csv(sys.stdout, index=False, float_format=digits)
    sys.stdout.write("\n")
    metric_frame.to_csv(sys.stdout, index=False, float_format=digits)


def _run(args: argparse.Namespace) -> int:
    import pandas as pd

    from threshold_choice.evaluation import LossSettings, expected_losses
    from threshold_choice.metrics import compute_metrics

    check_seed_and_bootstrap(args)
    check_grid_size(args.grid_size, "--grid-size")
    if args.bootstrap and args.loss != "accuracy":
        raise UserError("--bootstrap is for the accuracy loss only; drop --loss f-measure or "
                        "--bootstrap")
    methods = args.method or [
        m for m in PAPER_METHODS if args.train is not None or m not in NEEDS_TRAIN
    ]
    check_train_given(methods, args.train is not None)
    costs, belief = costs_from_args(args)
    labels, scores = read_scores_csv(args.test, "test", args.pos_label)
    train_y = train_s = None
    if args.train is not None:
        train_y, train_s = read_scores_csv(args.train, "training", args.pos_label)
    problem = probability_problem(scores, methods, f"the scores of {args.test}")
    if problem is not None:
        raise UserError(problem)
    gammas = [parse_gamma(g) for g in (args.gamma or PAPER_GAMMAS)]
    settings = LossSettings(
        estimator=args.estimator,
        grid_size=args.grid_size,
        seed=args.seed,
        rate_threshold_offset=args.rate_threshold_offset,
        tie_breaking=args.tie_breaking,
        cost_distribution=belief or "uniform",
        prior=args.prior,
        fixed_threshold=args.fixed_threshold,
        fixed_rate=args.fixed_rate,
    )
    given = {"train_y": train_y, "train_s": train_s, "methods": methods, "gammas": gammas,
             "settings": settings, "loss_function": args.loss}
    losses = expected_losses(labels, scores, **given)
    at_stated = None
    if costs is not None and args.loss == "accuracy":  # K(c0) at the costs' own c0
        at_stated = expected_losses(labels, scores, **given, at_cost=costs.cost_proportion)
    if costs is not None and belief is None:
        _uniform_costs_note(costs, at_stated is not None)
    metrics = compute_metrics(labels, scores, cost_distribution=settings.distribution)
    metrics.update(_decomposition_metrics(labels, scores, metrics))
    metrics.update(_ranking_metrics(labels, scores, args.top_k or []))
    chosen: dict[str, float | None] = {
        k: metrics[k] for k in (*_DEFAULT_CLI_METRICS, *_DECOMPOSITION_CLI_METRICS,
                                *_EXTRA_CLI_METRICS, *_RANKING_CLI_METRICS) if k in metrics
    }
    chosen.update({k: v for k, v in metrics.items() if k.startswith(("precision@", "recall@"))})
    blanked: list[str] = []
    if scores.min() < 0.0 or scores.max() > 1.0:
        blanked = [k for k in chosen if k in PROBABILITY_METRICS]
        chosen.update(dict.fromkeys(blanked, None))
        print(
            f"threshold-choice loss: note: {', '.join(blanked)} left empty: they compare "
            "probabilities with the labels, and these scores lie outside [0, 1]",
            file=sys.stderr,
        )
    metric_frame = pd.DataFrame({"metric": list(chosen), "value": list(chosen.values())})
    if args.bootstrap:
        from threshold_choice.bootstrap import add_intervals

        losses, metric_frame = add_intervals(
            losses, metric_frame, labels, scores, train_y, train_s, settings,
            n_boot=args.bootstrap, seed=args.seed,
        )
        metric_frame.loc[metric_frame["metric"].isin(blanked), ["lower", "upper"]] = None
    if costs is not None:  # the same numbers in the user's units, beside them
        names = {"expected_loss": "expected_cost", "lower": "lower_cost", "upper": "upper_cost"}
        for column, name in names.items():
            if column in losses.columns:
                losses[name] = costs.in_units(losses[column])
        if at_stated is not None:  # same rows, same order (by gamma then method)
            losses["expected_cost_at_c"] = costs.in_units(at_stated["expected_loss"].to_numpy())
    losses["gamma"] = losses["gamma"].map(format_gamma)
    _write_output(losses, metric_frame, args.format, args.estimator, args.exact)
    return 0


def _decomposition_metrics(
    labels: np.ndarray, scores: np.ndarray, metrics: dict[str, float]
) -> dict[str, float]:
    """``CL_conv = BS - RL_conv`` and the log loss's isotonic decomposition, the scores
    clipped to ``[eps, 1 - eps]`` as ``LogLoss`` (so the parts add up to it). The refinements
    depend on the order of the scores only: for scores outside [0, 1] ``LogLoss_RL_conv`` is
    that of their ranks (the others are blanked by the caller)."""
    from threshold_choice.calibration import log_loss_decomposition
    from threshold_choice.score_transforms import evenly_spaced

    eps = 1e-15
    if scores.min() < 0.0 or scores.max() > 1.0:
        refinement = log_loss_decomposition(labels, evenly_spaced(scores)).refinement
        return {"CL_conv": float("nan"), "LogLoss_CL_conv": float("nan"),
                "LogLoss_RL_conv": refinement}
    parts = log_loss_decomposition(labels, np.clip(scores, eps, 1.0 - eps))
    return {"CL_conv": metrics["BS"] - metrics["RL_conv"], "LogLoss": parts.loss,
            "LogLoss_CL_conv": parts.calibration, "LogLoss_RL_conv": parts.refinement}


def _ranking_metrics(labels: np.ndarray, scores: np.ndarray,
                     top_k: list[int]) -> dict[str, float]:
    """AP, and precision@K and recall@K for each K of ``top_k`` (ties across the K-th place
    broken at random in expectation: :func:`threshold_choice.metrics.precision_at_k`)."""
    from threshold_choice.metrics import average_precision, precision_at_k, recall_at_k

    out = {"AP": average_precision(labels, scores)}
    for k in dict.fromkeys(top_k):
        if not 1 <= k <= labels.size:
            raise UserError(f"--top-k must be between 1 and the {labels.size} test examples, "
                            f"got {k}")
        out[f"precision@{k}"] = float(precision_at_k(labels, scores, k))
        out[f"recall@{k}"] = float(recall_at_k(labels, scores, k))
    return out


def _uniform_costs_note(costs: Costs, at_column: bool) -> None:
    """Say on stderr that ``expected_cost`` averages over the paper's uniform ``c`` although
    the costs state one ``c``, and which belief centred there to give instead."""
    c0 = costs.cost_proportion
    at = (f"expected_cost_at_c is the cost at c = {c0:.4g} itself; " if at_column else "")
    if 0.0 < c0 < 1.0:  # a Beta of mean c0 with a + b = 20 (beta:4,16 for c0 = 0.2)
        belief = f"beta:{20 * c0:.3g},{20 * (1 - c0):.3g}"
    else:
        belief = "uniform:0,0.1" if c0 == 0.0 else "uniform:0.9,1"
    print(f"threshold-choice loss: note: expected_cost averages over c uniform on [0, 1] "
          f"(the paper's belief) while --costs states c = FP/(FP+FN) = {c0:.4g}; {at}for a "
          f"belief centred there give --cost-distribution, e.g. {belief}, or a range of "
          f"ratios, --cost-ratio LOW,HIGH", file=sys.stderr)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "loss",
        help=COMMANDS["loss"].help,
        description=(
            "Expected loss of threshold choice methods when the cost proportion is known only "
            "through c_hat ~ Beta(gamma*c + 1, gamma*(1 - c) + 1). Inputs are CSV files with "
            "columns label,score (label 1 = the class whose probability the score estimates; "
            "predict 1 iff score > threshold). Prints a CSV method,gamma,expected_loss, a blank "
            "line, then metric,value (AUC, BS, MAE, CL, RL, RL_conv; the isotonic decompositions "
            "CL_conv (= BS - RL_conv), LogLoss, LogLoss_CL_conv, LogLoss_RL_conv; H; with a "
            "bounded --cost-distribution also BS_bounded and LogLoss_bounded; AP, and "
            "precision@K and recall@K for each --top-k)."
        ),
    )
    parser.add_argument("--test", required=True, help="CSV label,score of the test set")
    parser.add_argument("--train", help="CSV label,score of the training set (train-optimal)")
    add_pos_label_argument(parser)
    parser.add_argument(
        "--method",
        action="append",
        choices=METHODS,
        help="method (repeatable; default: the paper's four)",
    )
    parser.add_argument(
        "--gamma",
        action="append",
        help="certainty level, a number >= 0 or inf (repeatable; default: inf 16 8 4 2 1 0)",
    )
    parser.add_argument("--estimator", choices=ESTIMATORS, default="exact")
    parser.add_argument(
        "--grid-size",
        type=int,
        default=PAPER_GRID_SIZE,
        help="grid of true costs (grid, montecarlo)",
    )
    parser.add_argument("--seed", type=int, default=0,
                        help="seed of the montecarlo draws and of --bootstrap (>= 0)")
    parser.add_argument(
        "--rate-threshold-offset",
        type=float,
        default=None,
        metavar="DELTA",
        help="rate-based methods: realise each line with the threshold (distinct score - DELTA) "
        "as the authors' code did (1e-7 in the workflow); default: exact interpolation",
    )
    parser.add_argument(
        "--tie-breaking",
        choices=TIE_BREAKING,
        default="project",
        help="test-/train-optimal at grid points: break exact ties between cost lines with "
        "the authors' floating-point arithmetic (authors) or the project's (default)",
    )
    parser.add_argument(
        "--loss",
        choices=LOSSES,
        default="accuracy",
        help="accuracy (default) or f-measure: the expected 2FQ/(1 - FQ) of the F-cost lines "
        "(class 0 positive; inf when a method can pick a threshold with no true positive)",
    )
    parser.add_argument(
        "--top-k",
        type=int,
        action="append",
        metavar="K",
        help="add precision@K and recall@K (class 1 the relevant class; the K highest scores; "
        "repeatable)",
    )
    parser.add_argument(
        "--bootstrap",
        type=int,
        default=0,
        metavar="N",
        help="add lower,upper columns: 95%% percentile intervals from N stratified bootstrap "
        "replicates of the test set (seeded with --seed)",
    )
    add_cost_arguments(parser)
    parser.add_argument(
        "--prior",
        type=float,
        default=None,
        metavar="PI0",
        help="deployment class-0 proportion the cost lines are reweighted to (default: the "
        "test set's; 0.5 gives the skew view)",
    )
    parser.add_argument(
        "--fixed-threshold", type=float, default=None, metavar="T",
        help="score-fixed's threshold (default: the mean of --cost-distribution, 0.5 for the "
        "uniform)",
    )
    parser.add_argument(
        "--fixed-rate", type=float, default=None, metavar="R",
        help="rate-fixed's fraction of examples predicted 0 (default: the mean of "
        "--cost-distribution)",
    )
    parser.add_argument("--format", choices=("csv", "json"), default="csv")
    add_exact_argument(parser)
    parser.set_defaults(func=_run)
