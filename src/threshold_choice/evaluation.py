"""Everything the paper reports for one run (one model, one split): expected losses of the
threshold choice methods for each certainty ``gamma``, and the test-set metrics.

Also the ``threshold-choice loss`` command.
"""

from __future__ import annotations

import argparse
import io
import json
import re
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
from threshold_choice.costlines import check_prior
from threshold_choice.errors import UserError
from threshold_choice.expected_loss import ESTIMATORS, Estimator, draw_c_hat
from threshold_choice.fmeasure import LOSSES, loss_context
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
from threshold_choice.paper import PAPER_GAMMAS, PAPER_METHODS
from threshold_choice.uncertainty import (
    PAPER_GRID_SIZE,
    check_grid_size,
    format_gamma,
    parse_gamma,
)


@dataclass(frozen=True)
class LossSettings:
    """How expected losses are estimated (see :mod:`threshold_choice.expected_loss`) and under
    which operating conditions (beyond the paper: ``cost_distribution``, ``prior``)."""

    estimator: Estimator = "exact"
    grid_size: int = PAPER_GRID_SIZE
    seed: int = 0
    #: rate-driven thresholds ``u_k - offset`` as in the authors' code (``1e-7`` in the
    #: workflow's default configuration); ``None``: the exact adjacent-line interpolation
    #: (see ``methods.rate_driven``)
    rate_threshold_offset: float | None = None
    #: ``"authors"``: test- and train-optimal break exact ties between cost lines at a grid
    #: point as the authors' floating-point arithmetic did (the workflow's default; see
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
    loss_function: str = "accuracy",
) -> pd.DataFrame:
    """Expected loss of each method at each ``gamma``: columns ``method, gamma, expected_loss``.

    ``test_y``/``test_s``: labels (0/1) and scores (estimates of P(class 1)) of the test set;
    ``train_*``: the same on the training set, needed by the train-optimal methods (and used
    for the class proportion of the skew variants, as in the authors' code). With
    ``settings.prior`` both sets of cost lines are reweighted to that deployment class
    proportion (which the skew variants then use).
    ``loss_function``: ``"accuracy"`` (the paper's) or ``"f-measure"`` (the expected
    ``2FQ/(1 - FQ)``, see :mod:`threshold_choice.fmeasure`; without a deployment prior).
    """
    unknown = [m for m in methods if m not in METHODS]
    if unknown:
        raise UserError(f"unknown method(s) {', '.join(unknown)}; choose from {', '.join(METHODS)}")
    gammas = [parse_gamma(g) for g in gammas]
    if loss_function != "accuracy" and settings.prior is not None:
        raise UserError("a deployment prior applies to the accuracy loss only; drop the prior "
                        "or the f-measure loss")
    lines_of, evaluate = loss_context(loss_function, settings.tie_breaking)
    test = lines_of(test_y, test_s, what="test scores").with_prior(settings.prior)
    train = None
    if train_y is not None and train_s is not None:
        train = lines_of(train_y, train_s, what="training scores").with_prior(settings.prior)
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
            loss = evaluate(
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
#: methods that threshold at the score itself (or at a map of it), so they read the scores as
#: probabilities; the others use only the order of the scores (rank-based)
PROBABILITY_METHODS: tuple[str, ...] = tuple(m for m in METHODS if m.startswith("score-"))
#: metrics that compare scores with the 0/1 labels (AUC, RL and RL_conv depend only on the
#: order and the ties of the scores, so any real scores serve)
PROBABILITY_METRICS: tuple[str, ...] = (
    "BS", "MAE", "CL", "LogLoss", "BS_bounded", "LogLoss_bounded"
)
_LINE_BREAKS = re.compile(r"\r\n|\r|\n")
_OTHER_SEPARATORS = {";": "';'", "\t": "a tab", "|": "'|'"}


def _header_fix(found: Sequence[str]) -> str:
    """How to fix a header that lacks ``label,score`` (another separator, spaces...)."""
    if len(found) == 1:
        for sep, name in _OTHER_SEPARATORS.items():
            if sep in found[0]:
                return f"the file looks separated by {name}: separate the columns by commas"
    if {"label", "score"} <= {c.strip() for c in found}:
        return "remove the spaces around the column names (header line label,score)"
    return "expected a comma-separated header line label,score"


def _first_bad_line(bad: np.ndarray, raw: np.ndarray, what: str, path: Path, column: str) -> None:
    """Raise naming the first line (1-based, blank lines counted) where ``bad`` holds."""
    if not bad.any():
        return
    row = int(np.flatnonzero(bad)[0])
    value = raw[row]
    problem = "is missing" if value.strip() == "" else f"is {value.strip()!r}"
    need = "labels must be 0 or 1" if column == "label" else "scores must be finite numbers"
    raise UserError(f"{what} file {path}: {column} on line {row + 2} {problem}; {need}")
# H always; the bounded scores when the cost distribution is a bounded range
_EXTRA_CLI_METRICS = ("H", "BS_bounded", "LogLoss_bounded")


def read_scores_csv(path: str | Path, what: str) -> tuple[np.ndarray, np.ndarray]:
    """Read a comma-separated file with a header line naming the columns ``label`` and
    ``score`` (other columns are ignored): labels 0/1, scores finite reals.

    Blank lines are skipped; errors name the file and the 1-based line (blank lines counted)."""
    path = Path(path)
    if path.is_dir():
        raise UserError(f"{what} file {path} is a folder; give a CSV file with columns label,score")
    try:
        text = path.read_text(encoding="utf-8-sig")  # -sig: a leading byte-order mark is dropped
    except FileNotFoundError:
        raise UserError(f"{what} file {path} does not exist") from None
    except OSError as exc:
        raise UserError(f"cannot read {what} file {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise UserError(f"{what} file {path} is not a text (UTF-8) CSV file") from None
    try:
        # header=None: a row with more fields than the header is an error naming its line
        # (with a header, pandas would silently take the first field as an index)
        grid = pd.read_csv(
            io.StringIO(text), header=None, dtype=str, keep_default_na=False,
            skip_blank_lines=False,
        ).to_numpy(dtype=object)
    except pd.errors.EmptyDataError:
        raise UserError(
            f"{what} file {path} is empty; expected a header line label,score"
        ) from None
    except pd.errors.ParserError as exc:
        raise UserError(
            f"{what} file {path} is not a readable CSV: {exc}".splitlines()[0]
        ) from None
    found = [str(c) for c in grid[0]]
    missing = [c for c in ("label", "score") if c not in found]
    if missing:
        shown = ", ".join(repr(c) for c in found)
        raise UserError(
            f"{what} file {path} lacks column(s) {', '.join(missing)} (found {shown}); "
            f"{_header_fix(found)}"
        )
    lines = _LINE_BREAKS.split(text)
    blank = np.array([not line.strip() for line in lines[1 : len(grid)]], dtype=bool)
    keep = np.flatnonzero(~blank)
    raw_labels = grid[1:, found.index("label")].astype(str)
    raw_scores = grid[1:, found.index("score")].astype(str)
    labels = pd.to_numeric(pd.Series(raw_labels), errors="coerce").to_numpy(dtype=float)
    scores = pd.to_numeric(pd.Series(raw_scores), errors="coerce").to_numpy(dtype=float)
    _first_bad_line(~blank & ~np.isin(labels, (0.0, 1.0)), raw_labels, what, path, "label")
    _first_bad_line(~blank & ~np.isfinite(scores), raw_scores, what, path, "score")
    return labels[keep].astype(np.int8), scores[keep]


def probability_problem(scores: np.ndarray, methods: Sequence[str], what: str) -> str | None:
    """Why ``methods`` cannot use ``scores``: ``None`` if the scores lie in [0, 1] or every
    method is rank-based, else a message naming the methods that need probabilities."""
    if scores.size == 0 or (scores.min() >= 0.0 and scores.max() <= 1.0):
        return None
    needy = [m for m in methods if m in PROBABILITY_METHODS]
    if not needy:
        return None
    rank_based = ", ".join(m for m in METHODS if m not in PROBABILITY_METHODS)
    return (
        f"{what} range from {scores.min():g} to {scores.max():g}, outside [0, 1]; "
        f"{', '.join(needy)} read(s) them as probabilities (estimates of P(class 1)): rescale "
        f"the scores into [0, 1] (e.g. calibrate them), or choose rank-based methods with "
        f"--method ({rank_based}), which take any real scores"
    )


def _finite_or_none(value: object) -> object:
    """JSON has no NaN or infinity: such numbers are written as null."""
    if isinstance(value, float) and not np.isfinite(value):
        return None
    return value


#: replicates of ``loss --bootstrap`` (each holds a resample of the test set in memory)
_MAX_BOOTSTRAP = 10_000


def _write_output(
    losses: pd.DataFrame, metric_frame: pd.DataFrame, fmt: str, estimator: str
) -> None:
    """CSV (losses, a blank line, metrics) or JSON; ``metric_frame``: ``metric, value`` and,
    with ``--bootstrap``, ``lower, upper`` (as the losses then)."""
    def records(frame: pd.DataFrame) -> list[dict[str, object]]:
        return [{k: _finite_or_none(v) for k, v in row.items()}
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
    losses.to_csv(sys.stdout, index=False, float_format="%.10g")
    sys.stdout.write("\n")
    metric_frame.to_csv(sys.stdout, index=False, float_format="%.10g")


def _run_loss(args: argparse.Namespace) -> int:
    if args.seed < 0:
        raise UserError(f"--seed must be an integer >= 0, got {args.seed}")
    if not 0 <= args.bootstrap <= _MAX_BOOTSTRAP:
        raise UserError(f"--bootstrap must be between 0 and {_MAX_BOOTSTRAP}, got {args.bootstrap}")
    if args.bootstrap and args.loss != "accuracy":
        raise UserError("--bootstrap is for the accuracy loss only; drop --loss f-measure or "
                        "--bootstrap")
    labels, scores = read_scores_csv(args.test, "test")
    train_y = train_s = None
    if args.train is not None:
        train_y, train_s = read_scores_csv(args.train, "training")
    methods = args.method or [
        m for m in PAPER_METHODS if args.train is not None or m not in NEEDS_TRAIN
    ]
    problem = probability_problem(scores, methods, f"the scores of {args.test}")
    if problem is not None:
        raise UserError(problem)
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
        loss_function=args.loss,
    )
    metrics = compute_metrics(labels, scores, cost_distribution=settings.distribution)
    chosen: dict[str, float | None] = {
        k: metrics[k] for k in (*_DEFAULT_CLI_METRICS, *_EXTRA_CLI_METRICS) if k in metrics
    }
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
    losses["gamma"] = losses["gamma"].map(format_gamma)
    _write_output(losses, metric_frame, args.format, args.estimator)
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
        "--bootstrap",
        type=int,
        default=0,
        metavar="N",
        help="add lower,upper columns: 95%% percentile intervals from N stratified bootstrap "
        "replicates of the test set (seeded with --seed)",
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
