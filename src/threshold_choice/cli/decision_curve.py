"""``threshold-choice decision-curve``: net benefit of a set of scores at threshold
probabilities, with treat-all and treat-none (:mod:`threshold_choice.decision_curves`)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pandas as pd

from threshold_choice.cli import COMMANDS
from threshold_choice.cli.inputs import add_exact_argument, add_pos_label_argument

#: the rescaled threshold axes of paper 002's App. C (``decision_curves.RESCALINGS``, named
#: here so that --help does not load pandas; a test keeps them equal)
SCALES: tuple[str, ...] = ("quadratic", "log")


def _run(args: argparse.Namespace) -> int:
    import pandas as pd

    from threshold_choice.cli.inputs import EXACT_FORMAT, READABLE_FORMAT, read_scores_csv
    from threshold_choice.costlines import CostLines
    from threshold_choice.decision_curves import (
        DEFAULT_THRESHOLDS,
        average_net_benefit,
        average_treat_all_net_benefit,
        decision_curve,
        rescaled_decision_curve,
    )

    labels, scores = read_scores_csv(args.test, "test", args.pos_label)
    if args.scale is None:
        thresholds = DEFAULT_THRESHOLDS if args.thresholds is None else args.thresholds
        curve = decision_curve(labels, scores, thresholds, inclusive=args.inclusive)
    else:
        curve = rescaled_decision_curve(labels, scores, args.thresholds, scale=args.scale,
                                        inclusive=args.inclusive)
    averages = None
    if args.average:  # computed (and checked) before anything is printed
        pi1 = CostLines.from_scores(labels, scores).pi1
        rows = [
            (
                low,
                high,
                average_net_benefit(labels, scores, low, high),
                average_treat_all_net_benefit(pi1, low, high),
                0.0,
            )
            for low, high in args.average
        ]
        columns = [c for c in curve.columns if c not in ("threshold", "x")]
        averages = pd.DataFrame(rows, columns=["low", "high", *columns])
    if args.format == "json":
        _write_json(curve, averages)
        return 0
    digits = EXACT_FORMAT if args.exact else READABLE_FORMAT
    curve.to_csv(sys.stdout, index=False, float_format=digits)
    if averages is not None:
        sys.stdout.write("\n")
        averages.to_csv(sys.stdout, index=False, float_format=digits)
    return 0


def _write_json(curve: pd.DataFrame, averages: pd.DataFrame | None) -> None:
    """The curve (and the averages) as exact JSON numbers (null where a value is not one)."""
    import json
    import math

    def records(frame: pd.DataFrame) -> list[dict[str, object]]:
        return [{k: (None if isinstance(v, float) and not math.isfinite(v) else v)
                 for k, v in row.items()} for row in frame.to_dict(orient="records")]

    payload: dict[str, object] = {"curve": records(curve)}
    if averages is not None:
        payload["averages"] = records(averages)
    sys.stdout.write(json.dumps(payload, indent=2, allow_nan=False) + "\n")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "decision-curve",
        help=COMMANDS["decision-curve"].help,
        description=(
            "Decision curve analysis: net benefit TP/n - FP/n * t/(1 - t) at each threshold "
            "probability t, with treat-all and treat-none. Input: CSV label,score (label 1 = "
            "the event, score = its predicted probability; treated iff score > t). Prints a "
            "CSV threshold,net_benefit,treat_all,treat_none; with --average, a blank line "
            "then low,high,net_benefit,treat_all,treat_none (exact means over t uniform on "
            "[low, high])."
        ),
    )
    parser.add_argument("--test", required=True, help="CSV label,score")
    add_pos_label_argument(parser)
    parser.add_argument(
        "--thresholds",
        nargs="+",
        type=float,
        metavar="T",
        help="threshold probabilities in [0, 1) (default: 0, 0.01, ..., 0.99, as dcurves)",
    )
    parser.add_argument(
        "--scale",
        choices=SCALES,
        help="add a column x, the threshold on paper 002's rescaled axis: quadratic "
        "(-(1 - t)^2/2, whose areas are bounded Brier scores) or log (ln t, bounded log "
        "losses; thresholds from 0.01 by default)",
    )
    parser.add_argument(
        "--inclusive",
        action="store_true",
        help="treat iff score >= t (decision curve analysis, dcurves); default: score > t",
    )
    parser.add_argument(
        "--average",
        nargs=2,
        type=float,
        action="append",
        metavar=("LOW", "HIGH"),
        help="also print the exact average net benefit over t uniform on [LOW, HIGH] (repeatable)",
    )
    parser.add_argument(
        "--format", choices=("csv", "json"), default="csv",
        help="csv (default) or json: {\"curve\": [rows], \"averages\": [rows]}, exact numbers",
    )
    add_exact_argument(parser)
    parser.set_defaults(func=_run)
