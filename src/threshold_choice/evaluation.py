"""Everything the paper reports for one run (one model, one split): expected losses of the
threshold choice methods for each certainty ``gamma``, and the test-set metrics.

Also the ``threshold-choice loss`` command.
"""

from __future__ import annotations

import argparse
import json
import sys
import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from threshold_choice.cost_distributions import CostDistribution, parse_cost_distribution
from threshold_choice.costlines import CostLines, check_prior
from threshold_choice.errors import UserError
from threshold_choice.expected_loss import ESTIMATORS, Estimator, draw_c_hat, expected_loss
from threshold_choice.methods import (
    GAMMA_AWARE,
    METHODS,
    NEEDS_TRAIN,
    TIE_BREAKING,
    Selection,
    TieBreaking,
    make_selection,
)
from threshold_choice.metrics import compute_metrics
from threshold_choice.uncertainty import (
    PAPER_GRID_SIZE,
    check_grid_size,
    format_gamma,
    parse_gamma,
)

#: the paper's methods and certainty levels
PAPER_METHODS: tuple[str, ...] = ("test-optimal", "train-optimal", "score-driven", "rate-driven")
PAPER_GAMMAS: tuple[float, ...] = (float("inf"), 16.0, 8.0, 4.0, 2.0, 1.0, 0.0)


@dataclass(frozen=True)
class LossSettings:
    """How expected losses are estimated (see :mod:`threshold_choice.expected_loss`) and under
    which operating conditions (beyond the paper: ``cost_distribution``, ``prior``)."""

    estimator: Estimator = "exact"
    grid_size: int = PAPER_GRID_SIZE
    seed: int = 0
    #: rate-driven thresholds ``u_k - offset`` as in the authors' code (``1e-7`` in paper-exact
    #: mode); ``None``: the exact adjacent-line interpolation (see ``methods.rate_driven``)
    rate_threshold_offset: float | None = None
    #: ``"authors"``: test- and train-optimal break exact ties between cost lines at a grid
    #: point as the authors' floating-point arithmetic did (paper-exact mode; see
    #: ``methods._selection_heights``); ``"project"``: the project's arithmetic
    tie_breaking: TieBreaking = "project"
    #: the density ``w`` of the true cost proportion: ``"uniform"`` (the paper's), ``"beta:A,B"``,
    #: ``"uniform:LO,HI"``, ``"logit-uniform:LO,HI"`` (see ``cost_distributions``)
    cost_distribution: str | CostDistribution = "uniform"
    #: the deployment class-0 proportion (``None``: the test set's); the cost lines are
    #: reweighted to it (``costlines.CostLines.with_prior``); 0.5 gives the skew view
    prior: float | None = None

    def __post_init__(self) -> None:
        if self.estimator not in ESTIMATORS:
            raise UserError(
                f"unknown estimator {self.estimator!r}; choose from {', '.join(ESTIMATORS)}"
            )
        if isinstance(self.grid_size, int | np.integer) and self.grid_size < 1:
            raise UserError(f"grid_size must be >= 1, got {self.grid_size}")
        check_grid_size(self.grid_size)
        if self.tie_breaking not in TIE_BREAKING:
            raise UserError(
                f"tie_breaking must be one of {', '.join(TIE_BREAKING)}, got {self.tie_breaking!r}"
            )
        if self.rate_threshold_offset is not None and not self.rate_threshold_offset > 0:
            raise UserError(
                f"rate_threshold_offset must be > 0 or None, got {self.rate_threshold_offset}"
            )
        parse_cost_distribution(self.cost_distribution)
        if self.prior is not None:
            check_prior(self.prior)

    @cached_property
    def distribution(self) -> CostDistribution:
        """``cost_distribution`` parsed."""
        return parse_cost_distribution(self.cost_distribution)

    @classmethod
    def from_mapping(cls, mapping: Mapping[str, Any]) -> LossSettings:
        """Settings from a configuration mapping (e.g. the workflow's ``evaluation`` without
        ``gammas``/``methods``): keys are the field names; unknown keys are rejected."""
        known = [f.name for f in fields(cls)]
        unknown = sorted(set(mapping) - set(known))
        if unknown:
            raise UserError(
                f"unknown loss setting(s) {', '.join(unknown)}; known: {', '.join(known)}"
            )
        return cls(**dict(mapping))


def _draw_seed(seed: int, gamma: float) -> list[int]:
    # one stream per (seed, gamma), shared by all methods as in the authors' code
    return [seed, zlib.crc32(format_gamma(gamma).encode())]


def expected_losses(
    test_y: ArrayLike,
    test_s: ArrayLike,
    *,
    train_y: ArrayLike | None = None,
    train_s: ArrayLike | None = None,
    methods: Sequence[str] = PAPER_METHODS,
    gammas: Iterable[float] = PAPER_GAMMAS,
    settings: LossSettings = LossSettings(),
) -> pd.DataFrame:
    """Expected loss of each method at each ``gamma``: columns ``method, gamma, expected_loss``.

    ``test_y``/``test_s``: labels (0/1) and scores (estimates of P(class 1)) of the test set;
    ``train_*``: the same on the training set, needed by the train-optimal methods (and used
    for the class proportion of the skew variants, as in the authors' code). With
    ``settings.prior`` both sets of cost lines are reweighted to that deployment class
    proportion (which the skew variants then use).
    """
    unknown = [m for m in methods if m not in METHODS]
    if unknown:
        raise UserError(f"unknown method(s) {', '.join(unknown)}; choose from {', '.join(METHODS)}")
    gammas = [parse_gamma(g) for g in gammas]
    test = CostLines.from_scores(test_y, test_s, what="test scores").with_prior(settings.prior)
    train = None
    if train_y is not None and train_s is not None:
        train = CostLines.from_scores(train_y, train_s, what="training scores")
        train = train.with_prior(settings.prior)
    elif any(m in NEEDS_TRAIN for m in methods):
        needs = ", ".join(m for m in methods if m in NEEDS_TRAIN)
        raise UserError(
            f"{needs} select(s) thresholds on training scores: give the training scores"
        )

    distribution = settings.distribution
    options = {
        "rate_threshold_offset": settings.rate_threshold_offset,
        "tie_breaking": settings.tie_breaking,
        "distribution": distribution,
    }
    fixed: dict[str, Selection] = {
        m: make_selection(m, test, train=train, **options)  # type: ignore[arg-type]
        for m in methods
        if m not in GAMMA_AWARE
    }
    rows = []
    for gamma in gammas:
        c_hat = None
        if settings.estimator == "montecarlo":
            c_hat = draw_c_hat(gamma, settings.grid_size, _draw_seed(settings.seed, gamma))
            uniform_c_hat = draw_c_hat(0.0, settings.grid_size, _draw_seed(settings.seed, -1.0))
        for method in methods:
            sel = fixed.get(method) or make_selection(
                method, test, train=train, gamma=gamma, **options  # type: ignore[arg-type]
            )
            draws = uniform_c_hat if (c_hat is not None and sel.ignores_c_hat) else c_hat
            loss = expected_loss(
                sel,
                gamma,
                estimator=settings.estimator,
                grid_size=settings.grid_size,
                c_hat=draws,
                distribution=distribution,
            )
            rows.append((method, gamma, loss))
    return pd.DataFrame(rows, columns=["method", "gamma", "expected_loss"])


# -- the CLI ---------------------------------------------------------------------------------

_DEFAULT_CLI_METRICS = ("AUC", "BS", "MAE", "CL", "RL", "RL_conv")
# H always; the bounded scores when the cost distribution is a bounded range
_EXTRA_CLI_METRICS = ("H", "BS_bounded", "LogLoss_bounded")


def read_scores_csv(path: str | Path, what: str) -> tuple[np.ndarray, np.ndarray]:
    """Read a CSV with columns ``label,score`` (labels 0/1)."""
    try:
        frame = pd.read_csv(path)
    except FileNotFoundError:
        raise UserError(f"{what} file {path} does not exist") from None
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError) as exc:
        raise UserError(
            f"{what} file {path} is not a readable CSV: {exc}".splitlines()[0]
        ) from None
    missing = {"label", "score"} - set(frame.columns)
    if missing:
        raise UserError(
            f"{what} file {path} lacks column(s) {', '.join(sorted(missing))}; expected label,score"
        )
    scores = pd.to_numeric(frame["score"], errors="coerce").to_numpy(dtype=float)
    bad = np.isnan(scores)
    if bad.any():
        row = int(np.flatnonzero(bad)[0]) + 2  # 1-based line number with the header
        raise UserError(f"{what} file {path}: score on line {row} is missing or not a number")
    labels = frame["label"].to_numpy()
    if pd.isna(labels).any():
        raise UserError(f"{what} file {path}: a label is missing")
    return labels, scores


def _run_loss(args: argparse.Namespace) -> int:
    labels, scores = read_scores_csv(args.test, "test")
    train_y = train_s = None
    if args.train is not None:
        train_y, train_s = read_scores_csv(args.train, "training")
    methods = args.method or [
        m for m in PAPER_METHODS if args.train is not None or m not in NEEDS_TRAIN
    ]
    gammas = [parse_gamma(g) for g in (args.gamma or PAPER_GAMMAS)]
    settings = LossSettings(
        args.estimator,
        args.grid_size,
        args.seed,
        args.rate_threshold_offset,
        args.tie_breaking,
        cost_distribution=args.cost_distribution,
        prior=args.prior,
    )
    losses = expected_losses(
        labels,
        scores,
        train_y=train_y,
        train_s=train_s,
        methods=methods,
        gammas=gammas,
        settings=settings,
    )
    metrics = compute_metrics(labels, scores, cost_distribution=settings.distribution)
    losses["gamma"] = losses["gamma"].map(format_gamma)
    chosen = {k: metrics[k] for k in (*_DEFAULT_CLI_METRICS, *_EXTRA_CLI_METRICS) if k in metrics}
    if args.format == "json":
        payload = {
            "estimator": args.estimator,
            "losses": losses.to_dict(orient="records"),
            "metrics": chosen,
        }
        json.dump(payload, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        losses.to_csv(sys.stdout, index=False, float_format="%.10g")
        sys.stdout.write("\n")
        pd.DataFrame({"metric": list(chosen), "value": list(chosen.values())}).to_csv(
            sys.stdout, index=False, float_format="%.10g"
        )
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "loss",
        help="expected losses of threshold choice methods for one set of scores",
        description=(
            "Expected loss of threshold choice methods when the cost proportion is known only "
            "through c_hat ~ Beta(gamma*c + 1, gamma*(1 - c) + 1). Inputs are CSV files with "
            "columns label,score (label 1 = the class whose probability the score estimates; "
            "predict 1 iff score > threshold). Prints a CSV method,gamma,expected_loss, a blank "
            "line, then metric,value (AUC, BS, MAE, CL, RL, RL_conv, H; with a bounded "
            "--cost-distribution also BS_bounded and LogLoss_bounded)."
        ),
    )
    parser.add_argument("--test", required=True, help="CSV label,score of the test set")
    parser.add_argument("--train", help="CSV label,score of the training set (train-optimal)")
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
    parser.add_argument("--seed", type=int, default=0, help="seed of the montecarlo draws")
    parser.add_argument(
        "--rate-threshold-offset",
        type=float,
        default=None,
        metavar="DELTA",
        help="rate-based methods: realise each line with the threshold (distinct score - DELTA) "
        "as the authors' code did (1e-7 in paper mode); default: exact interpolation",
    )
    parser.add_argument(
        "--tie-breaking",
        choices=TIE_BREAKING,
        default="project",
        help="test-/train-optimal at grid points: break exact ties between cost lines with "
        "the authors' floating-point arithmetic (authors) or the project's (default)",
    )
    parser.add_argument(
        "--cost-distribution",
        default="uniform",
        metavar="SPEC",
        help="density of the true cost proportion: uniform (the paper's, default), beta:A,B, "
        "uniform:LO,HI or logit-uniform:LO,HI",
    )
    parser.add_argument(
        "--prior",
        type=float,
        default=None,
        metavar="PI0",
        help="deployment class-0 proportion the cost lines are reweighted to (default: the "
        "test set's; 0.5 gives the skew view)",
    )
    parser.add_argument("--format", choices=("csv", "json"), default="csv")
    parser.set_defaults(func=_run_loss)
